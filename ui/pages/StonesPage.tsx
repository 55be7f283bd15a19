import { Link, useLocation, useParams } from "react-router-dom";
import { CardPhoto } from "./CardListPage";
import { nameIn } from "../data/localizedItem";
import {
  FILTERS,
  type FilterName,
  filteredPath,
  filtersOf,
  kind,
  label,
  valuesOf,
} from "../data/stones";
import { useCollection } from "../hooks/useCollection";
import { useLocale } from "../hooks/useLocale";
import { format } from "../i18n/messages";
import { itemPath, routeFor } from "../routes/routes";
import { NotFoundPage } from "./NotFoundPage";
import { StonePage } from "./StonePage";

/** /stones?family=granite&finish=honed, and /stones/{id}. Filters are links: they work
 *  without JavaScript, and the server renders each choice. */
export function StonesPage() {
  const stones = useCollection("stones");
  const { itemId } = useParams();
  const { pathname, search } = useLocation();
  const { locale, messages } = useLocale();
  const text = messages.stones;
  const listPath = routeFor(pathname)?.path ?? pathname;

  if (itemId !== undefined) {
    const stone = stones.find((candidate) => candidate.id === itemId);
    if (stone !== undefined) return <StonePage stone={stone} listPath={listPath} />;
    // Until the list comes (after client-side navigation), an empty page.
    return stones.length > 0 ? <NotFoundPage /> : <main id="main" className="stone-page" />;
  }

  const filters = filtersOf(search);
  const chosen = Object.entries(filters) as [FilterName, string][];
  const shown = stones.filter((stone) =>
    chosen.every(([name, value]) => valuesOf(stone, name).includes(value)),
  );
  const groups = (Object.keys(FILTERS) as FilterName[]).map((name) => ({
    name,
    // The values some stone has, in site.json's order.
    values: FILTERS[name].filter((value) =>
      stones.some((stone) => valuesOf(stone, name).includes(value)),
    ),
  }));
  return (
    <main id="main" className="list-page">
      <div className="container">
        <header className="list-page__header">
          <h1 className="list-page__title">{messages.pages.stones.title}</h1>
          <p className="list-page__intro">{text.intro}</p>
        </header>
        <nav className="stone-filters" aria-label={text.filtersLabel}>
          {groups.map(({ name, values }) => (
            <div key={name} className="stone-filters__group">
              <h2 id={`filter-${name}`} className="stone-filters__title">
                {text[`${name}Title`]}
              </h2>
              <ul aria-labelledby={`filter-${name}`}>
                {[undefined, ...values].map((value) => (
                  <li key={value ?? ""}>
                    <Link
                      to={filteredPath(listPath, { ...filters, [name]: value })}
                      className="stone-filters__link"
                      aria-current={filters[name] === value ? "true" : undefined}
                      rel="nofollow"
                    >
                      {value === undefined ? text.all : label(text, name, value)}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        <p className="stone-count" role="status">
          {format(text.count, { count: shown.length, total: stones.length })}
        </p>
        {shown.length === 0 && stones.length > 0 && (
          <p className="stone-count">
            {text.none} <Link to={listPath}>{text.showAll}</Link>
          </p>
        )}
        <ul className="card-grid">
          {shown.map((stone, index) => (
            <li key={stone.id}>
              <Link to={itemPath(listPath, stone.id)} className="card">
                <CardPhoto photo={stone} alt="" index={index} />
                <span className="card__body">
                  <span className="card__name" dir="auto">
                    {nameIn(stone, locale)}
                  </span>
                  <span className="card__description">{kind(stone, text)}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </main>
  );
}
