import { useEffect } from "react";
import { useLocation, useParams } from "react-router-dom";
import { CardDialog, useOpenCard } from "../cardDialog/CardDialog";
import { cardText } from "../data/localizedItem";
import { usePageData } from "../hooks/usePageData";
import { photoAtWidths } from "../data/photoSources";
import { useCollection } from "../hooks/useCollection";
import { useLocale } from "../hooks/useLocale";
import { cardTitle, pageTitle } from "../lib/documentTitle";
import { itemPath, routeFor } from "../routes/routes";
import type { Photo } from "../types";

// A card's width in the grid (styles/site.css, .container and .card-grid): one
// column up to 42.5rem of viewport, two up to 63.5rem, then three of at most 23rem.
const CARD_SIZES =
  "(max-width: 42.5rem) calc(100vw - 2.5rem), (max-width: 63.5rem) calc(50vw - 2.25rem), 23rem";

/** A card's photo in a grid (this page's, the stones'). Only the first is sure to be in view on
 *  arrival (a phone shows one column), the page's largest element there: fetched at once, ahead
 *  of the others (and of the scripts), which load as they near the viewport. */
export function CardPhoto({ photo, alt, index }: { photo: Photo; alt: string; index: number }) {
  return (
    <img
      className="card__image"
      {...photoAtWidths(photo, CARD_SIZES, 640)}
      alt={alt}
      width={600}
      height={450}
      loading={index === 0 ? "eager" : "lazy"}
      fetchPriority={index === 0 ? "high" : undefined}
      decoding="async"
    />
  );
}

/** /projects and /Collabrations; /projects/{id} with that card's dialog open. */
export function CardListPage({ collection }: { collection: "projects" | "collabrations" }) {
  const items = useCollection(collection);
  const { itemId } = useParams();
  const { pathname } = useLocation();
  const { company } = usePageData();
  const { locale, messages } = useLocale();
  const listPath = routeFor(pathname)?.path ?? pathname;
  const selected = items.find((item) => item.id === itemId) ?? null;
  const openCard = useOpenCard(listPath);

  // After client-side navigation (the server titles the first page).
  const listTitle = messages.pages[collection].title;
  const title =
    selected === null
      ? pageTitle(false, listTitle, company.name)
      : cardTitle(cardText(selected, locale).name, listTitle, company.name);
  useEffect(() => {
    if (itemId !== undefined) document.title = title;
  }, [itemId, title]);

  return (
    <main id="main" className="list-page">
      <div className="container">
        <header className="list-page__header">
          <h1 className="list-page__title">{messages.lists[`${collection}Title`]}</h1>
          <p className="list-page__intro">{messages.lists[`${collection}Intro`]}</p>
        </header>
        {/* A link to the card's page: before the code, and in a new tab. */}
        <ul className="card-grid">
          {items.map((item, index) => {
            const isSelected = item === selected;
            const { name, description } = cardText(item, locale);
            return (
              <li key={item.id}>
                <a
                  href={itemPath(listPath, item.id)}
                  className={isSelected ? "card selected" : "card"}
                  aria-current={isSelected ? "page" : undefined}
                  aria-haspopup="dialog"
                  onClick={(event) => openCard(event, item)}
                >
                  <CardPhoto photo={item} alt={name} index={index} />
                  <span className="card__body">
                    <span className="card__name" dir="auto">
                      {name}
                    </span>
                    <span className="card__description" dir="auto">
                      {description}
                    </span>
                  </span>
                </a>
              </li>
            );
          })}
        </ul>
      </div>
      <CardDialog item={selected} collection={collection} listPath={listPath} />
    </main>
  );
}
