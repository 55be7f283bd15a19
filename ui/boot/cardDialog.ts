// A card's page comes with its dialog open but not modal (so it shows without
// JavaScript). It becomes modal as soon as the parser adds it, before any frame shows
// it (a MutationObserver's callback runs before the browser renders), however the
// parser splits the page; its Close link takes the focus once parsed. Escape follows
// Close, a link to the list.

let modal: HTMLDialogElement | null = null;

export function makeCardDialogModal(): void {
  if (takeOver()) return;
  const parsing = new MutationObserver(() => {
    if (takeOver()) parsing.disconnect();
  });
  parsing.observe(document, { childList: true, subtree: true });
  document.addEventListener("DOMContentLoaded", () => parsing.disconnect(), { once: true });
}

/** True once there is nothing left to wait for: Close is parsed, or the page has no dialog. */
function takeOver(): boolean {
  modal ??= showModal(document.querySelector<HTMLDialogElement>("dialog.card-modal[open]"));
  if (modal === null) return document.readyState !== "loading";
  const close = modal.querySelector<HTMLElement>("[autofocus]");
  if (close === null) return false;
  // showModal() ran before Close was parsed, and focused the dialog itself.
  if (document.activeElement === modal) close.focus();
  return true;
}

function showModal(dialog: HTMLDialogElement | null): HTMLDialogElement | null {
  if (dialog === null) return null;
  // A dialog open but not modal cannot be made modal as it is.
  dialog.close();
  dialog.showModal();
  dialog.addEventListener("close", () => {
    // Not the close from showModal() here (it is open again by then).
    if (!dialog.open) dialog.querySelector<HTMLAnchorElement>(".card-modal__close a")?.click();
  });
  return dialog;
}
