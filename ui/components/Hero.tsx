// The hero's photo at its sizes (docs/architecture.md). esbuild names each file by
// its content hash, identically in the server's and the browser's bundles.
import narrow480Avif from "../assets/hero/narrow-480.avif";
import narrow480Jpg from "../assets/hero/narrow-480.jpg";
import wide1200Avif from "../assets/hero/wide-1200.avif";
import wide1200Jpg from "../assets/hero/wide-1200.jpg";
import wide1600Avif from "../assets/hero/wide-1600.avif";
import wide1600Jpg from "../assets/hero/wide-1600.jpg";
import wide800Avif from "../assets/hero/wide-800.avif";
import wide800Jpg from "../assets/hero/wide-800.jpg";
import { Link } from "react-router-dom";
import { useLocale } from "../hooks/useLocale";

// Where the portrait crop takes over (site.css uses the same width).
const PHONE = "(max-width: 40rem)";

export function Hero() {
  const { messages, to } = useLocale();
  const text = messages.hero;
  return (
    <section className="hero" aria-labelledby="hero-title">
      {/* The page's largest element, fetched first. Decorative: the heading says it all. */}
      <picture>
        <source media={PHONE} type="image/avif" srcSet={`${narrow480Avif} 480w`} sizes="100vw" />
        <source media={PHONE} srcSet={`${narrow480Jpg} 480w`} sizes="100vw" />
        <source
          type="image/avif"
          srcSet={`${wide800Avif} 800w, ${wide1200Avif} 1200w, ${wide1600Avif} 1600w`}
          sizes="100vw"
        />
        <img
          className="hero__photo"
          srcSet={`${wide800Jpg} 800w, ${wide1200Jpg} 1200w, ${wide1600Jpg} 1600w`}
          sizes="100vw"
          src={wide1200Jpg}
          alt=""
          width={1600}
          height={1000}
          fetchPriority="high"
        />
      </picture>
      <div className="container">
        <p className="eyebrow">{text.eyebrow}</p>
        <h1 id="hero-title" className="hero__title">
          {text.title}
        </h1>
        <p className="hero__description">{text.description}</p>
        <div className="hero__actions">
          <Link to={to("projects")} className="button button--primary">
            {text.projects}
          </Link>
          <Link to={to("collabrations")} className="button button--ghost">
            {text.collabrations}
          </Link>
          <Link to={to("stones")} className="button button--ghost">
            {text.stones}
          </Link>
        </div>
      </div>
    </section>
  );
}
