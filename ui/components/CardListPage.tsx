import { useEffect, useRef } from "react";
import { useLocation, useNavigate, useParams } from "react-router-dom";
import { cardText } from "../data/localizedItem";
import { usePageData } from "../data/PageDataContext";
import { useLocale } from "../i18n/locale";
import { cardTitle, pageTitle, showTitle } from "../lib/documentTitle";
import { itemPath, pageFor, routeFor } from "../routes/routes";
import type { CardItem } from "../types";
import { CardGrid } from "./CardGrid";
import { CardModal } from "./CardModal";

interface CardListPageProps {
  title: string;
  intro: string;
  items: CardItem[];
}

/** History state of a card's page opened by a click here: Close goes back to the list. */
interface OpenedFromList {
  openedFromList: true;
}

function openedFromList(state: unknown): boolean {
  return (state as Partial<OpenedFromList> | null)?.openedFromList === true;
}

/**
 * The shared body of /projects and /Collabrations: heading, grid and modal.
 * The selected card is the address's: /projects/{id} is the list with that
 * card's modal open, so the history (Back, Forward) opens and closes it.
 */
export function CardListPage({ title, intro, items }: CardListPageProps) {
  const { itemId } = useParams();
  const location = useLocation();
  const { pathname } = location;
  // An entry's state is whatever was given it: unknown until checked.
  const state: unknown = location.state;
  const navigate = useNavigate();
  const selectedCard = useRef<HTMLAnchorElement>(null);
  const { company, siteUrl } = usePageData();
  const { locale, messages } = useLocale();
  const listPath = routeFor(pathname)?.path ?? pathname;
  const selected = itemId === undefined ? null : (items.find((item) => item.id === itemId) ?? null);

  function open(item: CardItem): void {
    const opened: OpenedFromList = { openedFromList: true };
    // Another card while one is open replaces it, as it came: Back and Close
    // still lead to the list.
    if (itemId !== undefined) void navigate(itemPath(listPath, item.id), { state, replace: true });
    else void navigate(itemPath(listPath, item.id), { state: opened });
  }

  function close(): void {
    // Focus returns to the card, also when the dialog had none to return to
    // (a card's page arrived at: it was on the page's body).
    selectedCard.current?.focus();
    // Opened by a click: back to the list's entry, so Forward opens it again.
    // Arrived at the card's address: on to the list.
    if (openedFromList(state)) void navigate(-1);
    else void navigate(listPath);
  }

  // The server titles a card's page; client navigation keeps it in step.
  const listTitle = messages.pages[pageFor(pathname)].title;
  const selectedName = selected === null ? null : cardText(selected, locale).name;
  useEffect(() => {
    if (itemId === undefined) return;
    showTitle(
      selectedName === null
        ? pageTitle(false, listTitle, company.name)
        : cardTitle(selectedName, listTitle, company.name),
    );
  }, [itemId, selectedName, listTitle, company.name]);

  const origin = siteUrl ?? (typeof window === "undefined" ? "" : window.location.origin);
  return (
    <main id="main" className="list-page">
      <div className="container">
        <header className="list-page__header">
          <h1 className="list-page__title">{title}</h1>
          <p className="list-page__intro">{intro}</p>
        </header>
        <CardGrid
          items={items}
          selectedId={selected?.id ?? null}
          itemHref={(item) => itemPath(listPath, item.id)}
          onSelect={open}
          selectedRef={selectedCard}
        />
      </div>
      <CardModal
        item={selected}
        shareUrl={selected === null ? "" : origin + itemPath(listPath, selected.id)}
        listHref={listPath}
        onClose={close}
      />
    </main>
  );
}
