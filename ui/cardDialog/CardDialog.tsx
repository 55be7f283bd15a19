import { Fragment, type MouseEvent, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { LanguageLinks } from "../components/LanguageLinks";
import { ShareActions } from "../components/ShareActions";
import { cardText, nameIn } from "../data/localizedItem";
import { usePageData } from "../hooks/usePageData";
import { photoSquare } from "../data/photoSources";
import { useLocale } from "../hooks/useLocale";
import { isPlainClick, itemPath } from "../routes/routes";
import { useNames } from "../hooks/useCollection";
import type { CardItem } from "../types";

// Once the site's code runs (until then ./beforeTheCode.ts; docs/architecture.md, "The card dialog").

// 400 px, or the width of a narrow phone less the dialog's margins (styles/site.css).
const MODAL_IMAGE_SIZES = "(max-width: 27rem) calc(100vw - 2rem), 400px";

// The address's state for a card opened by a click: Close goes back to the list's entry.
const OPENED_FROM_LIST = "openedFromList";

/** A card's click once the code runs: its dialog opens in place, at the card's address. */
export function useOpenCard(listPath: string): (event: MouseEvent, item: CardItem) => void {
  const navigate = useNavigate();
  const location = useLocation();
  const state: unknown = location.state;
  return (event, item) => {
    if (!isPlainClick(event)) return;
    event.preventDefault();
    const path = itemPath(listPath, item.id);
    // Another card while one is open replaces it, as it came: Close and Back still lead to the list.
    if (location.pathname === listPath) void navigate(path, { state: OPENED_FROM_LIST });
    else void navigate(path, { state, replace: true });
  };
}

// Known in the browser only once hydrated: until then Close is a link and Share no button.
const hydratedNow = () => true;
const neverChanges = () => () => undefined;

/** The selected card (`item`) of `collection` in a native modal <dialog>, over its list at `listPath`. */
export function CardDialog({
  item,
  collection,
  listPath,
}: {
  item: CardItem | null;
  collection: "projects" | "collabrations";
  listPath: string;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const catalogue = useNames("stones");
  const navigate = useNavigate();
  const state: unknown = useLocation().state;
  const { locale, messages, to } = useLocale();
  const { siteUrl } = usePageData();
  const hydrated = useSyncExternalStore(neverChanges, hydratedNow, () => false);
  // The server's HTML has a card's page's dialog open; never changed, so React never sets `open` after.
  const [openInHtml] = useState(item !== null);
  const takenOver = useRef(false);

  useEffect(() => {
    const dialog = dialogRef.current!;
    // Closed before the code ran: its Close link is loading the list.
    const closedBeforeTheCode = openInHtml && !takenOver.current && !dialog.open;
    takenOver.current = true;
    if (closedBeforeTheCode) return;
    if (item === null) {
      dialog.close();
      return;
    }
    if (!dialog.matches(":modal")) {
      // Open but not modal (the server's): shown again as a modal.
      dialog.close();
      dialog.showModal();
    }
    // Close, not the first link (a stone's): showModal() would focus that.
    dialog.querySelector<HTMLElement>(".card-modal__close")?.focus();
  }, [item, openInHtml]);

  // Close and Escape both end in the close event: focus back on the card, the address to the list.
  function closed(): void {
    // Not our own closes above (the address names no card, or it is open again).
    if (item === null || dialogRef.current!.open) return;
    document.querySelector<HTMLElement>(".card.selected")?.focus();
    if (state === OPENED_FROM_LIST) void navigate(-1);
    else void navigate(listPath);
  }

  const text = item === null ? null : cardText(item, locale);
  // The stones it names that the catalogue has, in its order.
  const stones = (item?.stones ?? []).flatMap((id) => catalogue.filter((stone) => stone.id === id));
  const origin = siteUrl ?? (typeof window === "undefined" ? "" : window.location.origin);
  const close = { className: "button button--primary card-modal__close", autoFocus: true };
  return (
    <dialog
      ref={dialogRef}
      className="card-modal"
      aria-labelledby="card-modal-title"
      open={openInHtml || undefined}
      onClose={closed}
    >
      {item !== null && text !== null && (
        <div className="card-modal__content">
          <img
            className="card-modal__image"
            {...photoSquare(item, MODAL_IMAGE_SIZES)}
            alt={text.name}
            width={400}
            height={400}
          />
          <div className="card-modal__text">
            <h2 id="card-modal-title" className="card-modal__name" dir="auto">
              {text.name}
            </h2>
            <p className="card-modal__description" dir="auto">
              {text.description}
            </p>
            {stones.length > 0 && (
              <p className="card-modal__stones">
                {messages.lists.stonesUsed}:{" "}
                {stones.map((stone, index) => (
                  <Fragment key={stone.id}>
                    {index > 0 && ", "}
                    <Link to={itemPath(to("stones"), stone.id)} dir="auto">
                      {nameIn(stone, locale)}
                    </Link>
                  </Fragment>
                ))}
              </p>
            )}
            <div className="card-modal__actions">
              {hydrated ? (
                <button type="button" {...close} onClick={() => dialogRef.current!.close()}>
                  {messages.lists.close}
                </button>
              ) : (
                <a href={listPath} {...close}>
                  {messages.lists.close}
                </a>
              )}
              {/* ?project=<id> or ?collabration=<id>: the form names it (server/enquiries/intake.py). */}
              <a
                href={`${to("enquiry")}?${collection.slice(0, -1)}=${encodeURIComponent(item.id)}`}
                className="button button--ghost-dark"
              >
                {messages.lists.ask}
              </a>
            </div>
            <ShareActions
              name={text.name}
              url={origin + itemPath(listPath, item.id)}
              hydrated={hydrated}
            />
            <LanguageLinks />
          </div>
        </div>
      )}
    </dialog>
  );
}
