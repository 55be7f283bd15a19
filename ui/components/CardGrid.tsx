import { cardText } from "../data/localizedItem";
import { useLocale } from "../i18n/locale";
import { photoAtWidths } from "../data/photoSources";
import type { MouseEvent, Ref } from "react";
import type { CardItem } from "../types";

// A card's width in the grid (styles/site.css, .container and .card-grid): one
// column up to 42.5rem of viewport, two up to 63.5rem, then three of at most 23rem.
const CARD_SIZES =
  "(max-width: 42.5rem) calc(100vw - 2.5rem), (max-width: 63.5rem) calc(50vw - 2.25rem), 23rem";

interface CardGridProps {
  items: CardItem[];
  selectedId: string | null;
  /** The card's own address (/projects/{id}), where its link leads. */
  itemHref: (item: CardItem) => string;
  onSelect: (item: CardItem) => void;
  /** The selected card's link, where focus returns when its dialog closes. */
  selectedRef: Ref<HTMLAnchorElement>;
}

/** A click the page handles itself; others (new tab, new window) go to the link. */
export function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/**
 * Each card is a link to its own page, so it works before the site's code has
 * loaded (the server renders that page with the dialog open) and in a new tab;
 * once hydrated, a plain click opens the dialog in place.
 */
export function CardGrid({ items, selectedId, itemHref, onSelect, selectedRef }: CardGridProps) {
  const { locale } = useLocale();
  return (
    <ul className="card-grid">
      {items.map((item, index) => {
        const selected = item.id === selectedId;
        const { name, description } = cardText(item, locale);
        return (
          <li key={item.id}>
            <a
              ref={selected ? selectedRef : undefined}
              href={itemHref(item)}
              className={selected ? "card selected" : "card"}
              // The selected card's address is the page's own.
              aria-current={selected ? "page" : undefined}
              aria-haspopup="dialog"
              onClick={(event) => {
                if (!isPlainClick(event)) return;
                event.preventDefault();
                onSelect(item);
              }}
            >
              <img
                className="card__image"
                {...photoAtWidths(item, CARD_SIZES, 640)}
                alt={name}
                width={600}
                height={450}
                // Only the first card is sure to be in view on arrival (a
                // phone shows one column); the rest load as they near it.
                loading={index === 0 ? "eager" : "lazy"}
                // The first card's photo is the page's largest element on a
                // phone: fetched ahead of the others (and of the scripts).
                fetchPriority={index === 0 ? "high" : undefined}
                decoding="async"
              />
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
  );
}
