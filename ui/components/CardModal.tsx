import { useEffect, useRef } from "react";
import { cardText } from "../data/localizedItem";
import { useLocale } from "../i18n/locale";
import { photoSquare } from "../data/photoSources";
import type { CardItem } from "../types";

// 400 px, or the width of a narrow phone less the dialog's margins (styles/site.css).
const MODAL_IMAGE_SIZES = "(max-width: 27rem) calc(100vw - 2rem), 400px";

interface CardModalProps {
  item: CardItem | null;
  onClose: () => void;
}

/**
 * The selected card in a native modal <dialog>: the browser gives focus
 * handling, Escape to close and an inert page behind it for free.
 */
export function CardModal({ item, onClose }: CardModalProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const { locale, messages } = useLocale();
  const text = item === null ? null : cardText(item, locale);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog === null) return;
    if (item !== null && !dialog.open) dialog.showModal();
    if (item === null && dialog.open) dialog.close();
  }, [item]);

  return (
    <dialog
      ref={dialogRef}
      className="card-modal"
      aria-labelledby="card-modal-title"
      // Escape closes the dialog natively; keep the selection in step.
      onClose={onClose}
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
            <button type="button" className="button button--primary" onClick={onClose} autoFocus>
              {messages.lists.close}
            </button>
          </div>
        </div>
      )}
    </dialog>
  );
}
