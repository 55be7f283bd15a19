import { useEffect, useRef } from "react";
import { cardText } from "../data/localizedItem";
import { useLocale } from "../i18n/locale";
import type { CardItem } from "../types";

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
            src={item.photoUrl}
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
