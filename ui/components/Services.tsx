import type { ReactNode } from "react";

interface Service {
  title: string;
  sentence: string;
  icon: ReactNode;
}

const iconProps = {
  viewBox: "0 0 48 48",
  width: 48,
  height: 48,
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2,
  strokeLinecap: "round",
  strokeLinejoin: "round",
  "aria-hidden": true,
} as const;

const SERVICES: Service[] = [
  {
    title: "Best Time",
    sentence: "Our own quarry and factory keep blocks, slabs and finished pieces moving to your site on schedule.",
    icon: (
      <svg {...iconProps}>
        <circle cx="24" cy="24" r="18" />
        <path d="M24 13v11l7 5" />
      </svg>
    ),
  },
  {
    title: "Best Quality",
    sentence: "Every slab is selected, cut and finished by hand-checked standards before it leaves Zarqa.",
    icon: (
      <svg {...iconProps}>
        <path d="M14 8h20l8 11-18 21L6 19z" />
        <path d="M6 19h36M19 8l5 32 5-32" />
      </svg>
    ),
  },
  {
    title: "Expert Guidance",
    sentence: "Our team helps you choose the stone, finish and thickness that suit your project and budget.",
    icon: (
      <svg {...iconProps}>
        <circle cx="24" cy="24" r="18" />
        <path d="m31 17-4 10-10 4 4-10z" />
      </svg>
    ),
  },
];

export function Services() {
  return (
    <section className="services" aria-labelledby="services-title">
      <div className="container">
        <h2 id="services-title" className="section-title">
          Our Services
        </h2>
        <ul className="services__list">
          {SERVICES.map((service) => (
            <li key={service.title} className="service">
              <span className="service__icon">{service.icon}</span>
              <h3 className="service__title">{service.title}</h3>
              <p className="service__sentence">{service.sentence}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
