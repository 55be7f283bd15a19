import { cardText } from "../data/localizedItem";
import { useLocale } from "../i18n/locale";
import { photoAtWidths } from "../data/photoSources";
import type { CardItem } from "../types";

// A card's width in the grid (styles/site.css, .container and .card-grid): one
// column up to 42.5rem of viewport, two up to 63.5rem, then three of at most 23rem.
const CARD_SIZES =
  "(max-width: 42.5rem) calc(100vw - 2.5rem), (max-width: 63.5rem) calc(50vw - 2.25rem), 23rem";

interface CardGridProps {
  items: CardItem[];
  selectedId: string | null;
  onSelect: (item: CardItem) => void;
}

export function CardGrid({ items, selectedId, onSelect }: CardGridProps) {
  const { locale } = useLocale();
  return (
    <ul className="card-grid">
      {items.map((item, index) => {
        const selected = item.id === selectedId;
        const { name, description } = cardText(item, locale);
        return (
          <li key={item.id}>
            <button
              type="button"
              className={selected ? "card selected" : "card"}
              aria-pressed={selected}
              aria-haspopup="dialog"
              onClick={() => onSelect(item)}
            >
              <img
                className="card__image"
                {...photoAtWidths(item, CARD_SIZES, 640)}
                alt={name}
                width={600}
                height={450}
                // The first row is in view on arrival; the rest load on scroll.
                loading={index < 3 ? "eager" : "lazy"}
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
            </button>
          </li>
        );
      })}
    </ul>
  );
}
