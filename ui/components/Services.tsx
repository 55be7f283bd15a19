import type { ReactNode } from "react";
import { useLocale } from "../hooks/useLocale";

type ServiceKey = "bestTime" | "bestQuality" | "expertGuidance";

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

const ICONS: Record<ServiceKey, ReactNode> = {
  bestTime: (
    <svg {...iconProps}>
      <circle cx="24" cy="24" r="18" />
      <path d="M24 13v11l7 5" />
    </svg>
  ),
  bestQuality: (
    <svg {...iconProps}>
      <path d="M14 8h20l8 11-18 21L6 19z" />
      <path d="M6 19h36M19 8l5 32 5-32" />
    </svg>
  ),
  expertGuidance: (
    <svg {...iconProps}>
      <circle cx="24" cy="24" r="18" />
      <path d="m31 17-4 10-10 4 4-10z" />
    </svg>
  ),
};

export function Services() {
  const text = useLocale().messages.services;
  return (
    <section className="services" aria-labelledby="services-title">
      <div className="container">
        <h2 id="services-title" className="section-title">
          {text.title}
        </h2>
        <ul className="services__list">
          {(Object.keys(ICONS) as ServiceKey[]).map((key) => (
            <li key={key} className="service">
              <span className="service__icon">{ICONS[key]}</span>
              <h3 className="service__title">{text[key]}</h3>
              <p className="service__sentence">{text[`${key}Text`]}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
