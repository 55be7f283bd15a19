import { Link } from "react-router-dom";

export function NotFoundPage() {
  return (
    <main id="main" className="not-found">
      <div className="container">
        <p className="eyebrow">Error 404</p>
        <h1 className="list-page__title">This page is not here</h1>
        <p className="list-page__intro">
          The address may be mistyped, or the page may have moved. Our stone is still where it was.
        </p>
        <p className="not-found__links">
          <Link to="/" className="button button--primary">
            Home
          </Link>
          <Link to="/projects" className="button button--ghost-dark">
            Projects
          </Link>
          <Link to="/Collabrations" className="button button--ghost-dark">
            Collabrations
          </Link>
        </p>
      </div>
    </main>
  );
}
