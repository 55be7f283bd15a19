// A card's page (/projects/{id}) comes with its dialog open but not modal, so
// that it shows without JavaScript. Here, before the site's code, it becomes a
// modal as soon as the parser has read it (before the first paint: a
// MutationObserver's callback runs before the browser renders): focus inside,
// the page behind inert, Escape closes. A close before hydration leads to the
// list as the site's code would, and returns focus to the card.
import { hydrationStarted, recordRenderedPath } from "./handover";

// The card whose page this is (components/CardGrid.tsx) and its dialog (CardModal.tsx).
const OPEN_DIALOG = "dialog.card-modal[open]";
const SELECTED_CARD = '.card[aria-current="page"]';
const DIALOG_TITLE = "#card-modal-title";

export function makeCardDialogModal(): void {
  if (takeOver()) return;
  const parsing = new MutationObserver(() => {
    if (takeOver()) parsing.disconnect();
  });
  parsing.observe(document, { childList: true, subtree: true });
  document.addEventListener("DOMContentLoaded", () => parsing.disconnect(), { once: true });
}

/** True once there is nothing left to wait for: the dialog is modal, or the page has none. */
function takeOver(): boolean {
  const dialog = document.querySelector<HTMLDialogElement>(OPEN_DIALOG);
  // Its Close button parsed: showModal() can focus it.
  if (dialog?.querySelector("[autofocus]") == null) return document.readyState !== "loading";
  // A dialog open but not modal cannot be made modal as it is.
  dialog.close();
  dialog.showModal();
  dialog.addEventListener("close", () => closedBeforeHydration(dialog));
  return true;
}

function closedBeforeHydration(dialog: HTMLDialogElement): void {
  // The close from takeOver() itself (it is still open), or React's to handle.
  if (dialog.open || hydrationStarted()) return;
  const cardPath = window.location.pathname;
  recordRenderedPath(cardPath);
  // A card's address is its list's path and its id (routes/routes.ts itemPath).
  history.replaceState(history.state, "", cardPath.slice(0, cardPath.lastIndexOf("/")));
  const name = document.querySelector(DIALOG_TITLE)?.textContent ?? "";
  if (name && document.title.startsWith(`${name} | `)) {
    document.title = document.title.slice(name.length + 3);
  }
  const card = document.querySelector<HTMLElement>(SELECTED_CARD);
  card?.classList.remove("selected");
  card?.removeAttribute("aria-current");
  card?.focus();
}
