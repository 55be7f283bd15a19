import { Link } from "react-router-dom";
import { useLocale } from "../i18n/locale";
import { HeroPhoto } from "./HeroPhoto";
import { pagePath } from "../routes/routes";

export function Hero() {
  const { messages, to } = useLocale();
  const text = messages.hero;
  return (
    <section className="hero" aria-labelledby="hero-title">
      <HeroPhoto />
      <div className="hero__inner">
        <p className="eyebrow">{text.eyebrow}</p>
        <h1 id="hero-title" className="hero__title">
          {text.title}
        </h1>
        <p className="hero__description">{text.description}</p>
        <div className="hero__actions">
          <Link to={to(pagePath("projects"))} className="button button--primary">
            {text.projects}
          </Link>
          <Link to={to(pagePath("collabrations"))} className="button button--ghost">
            {text.collabrations}
          </Link>
        </div>
      </div>
    </section>
  );
}
