import { Link } from "react-router-dom";
import { useLocale } from "../hooks/useLocale";

export function NotFoundPage() {
  const { messages, to } = useLocale();
  const text = messages.notFound;
  return (
    <main id="main" className="not-found">
      <div className="container">
        <p className="eyebrow">{text.eyebrow}</p>
        <h1 className="list-page__title">{text.title}</h1>
        <p className="list-page__intro">{text.text}</p>
        <p className="not-found__links">
          <Link to={to("landing")} className="button button--primary">
            {text.home}
          </Link>
          <Link to={to("projects")} className="button button--ghost-dark">
            {text.projects}
          </Link>
          <Link to={to("collabrations")} className="button button--ghost-dark">
            {text.collabrations}
          </Link>
        </p>
      </div>
    </main>
  );
}
