import { Fragment, useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { cardText } from "../data/localizedItem";
import { useLocale } from "../i18n/locale";
import { photoSquare } from "../data/photoSources";
import { isPlainClick, itemPath, pagePath } from "../routes/routes";
import type { CardItem, Stone } from "../types";
import { ShareActions } from "./ShareActions";

// 400 px, or the width of a narrow phone less the dialog's margins (styles/site.css).
const MODAL_IMAGE_SIZES = "(max-width: 27rem) calc(100vw - 2rem), 400px";

interface CardModalProps {
  item: CardItem | null;
  /** The stones it used, each linked to its page. */
  stones: Stone[];
  /** The item's public address, for Share. */
  shareUrl: string;
  /** The list's address: Close is a link to it. */
  listHref: string;
  /** The enquiry form about this item. */
  askHref: string;
  onClose: () => void;
}

/** The selected card in a native modal <dialog>; on a card's own page the server's
 *  HTML has it open (boot/cardDialog.ts makes it modal) and hydration takes it over. */
export function CardModal({ item, stones, shareUrl, listHref, askHref, onClose }: CardModalProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const { locale, messages, to } = useLocale();
  const text = item === null ? null : cardText(item, locale);
  // What the server rendered; never changed, so React never touches `open` after.
  const [openInHtml] = useState(item !== null);
  const hydrated = useRef(false);
  // The card whose close was sent: a close seen twice (the event replayed at
  // hydration, and the check below) still goes back once.
  const closeSentFor = useRef<string | null>(null);

  function sendClose(): void {
    if (item === null || closeSentFor.current === item.id) return;
    closeSentFor.current = item.id;
    onClose();
  }

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog === null) return;
    if (item === null) closeSentFor.current = null;
    const hydrating = !hydrated.current;
    hydrated.current = true;
    if (hydrating && openInHtml && !dialog.open) {
      // The visitor closed the server's dialog as hydration began: it is not
      // brought back, and the close counts now.
      sendClose();
      return;
    }
    if (item !== null && !dialog.matches(":modal")) {
      // Open from the server's HTML, but not modal: close it and show it again.
      if (dialog.open) dialog.close();
      dialog.showModal();
    }
    if (item === null && dialog.open) dialog.close();
    // Runs for a new card only: `openInHtml` never changes, and `sendClose` is this render's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [item]);

  function closed(): void {
    // Our own close (the address no longer names a card, or the reopening
    // above) is not the visitor's: only a close that left it shut and a card
    // still selected goes back to the list.
    if (dialogRef.current?.open) return;
    sendClose();
  }

  return (
    <dialog
      ref={dialogRef}
      className="card-modal"
      aria-labelledby="card-modal-title"
      open={openInHtml || undefined}
      // Close and Escape both end in the close event.
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
                    <Link to={itemPath(to(pagePath("stones")), stone.id)} dir="auto">
                      {cardText(stone, locale).name}
                    </Link>
                  </Fragment>
                ))}
              </p>
            )}
            <div className="card-modal__close">
              <a
                href={listHref}
                className="button button--primary"
                autoFocus
                onClick={(event) => {
                  if (!isPlainClick(event)) return;
                  event.preventDefault();
                  dialogRef.current?.close();
                }}
              >
                {messages.lists.close}
              </a>
              <a href={askHref} className="button button--ghost-dark">
                {messages.lists.ask}
              </a>
            </div>
            <ShareActions name={text.name} url={shareUrl} />
          </div>
        </div>
      )}
    </dialog>
  );
}
