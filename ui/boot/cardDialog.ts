// A card's page comes with its dialog open but not modal (so it shows without
// JavaScript); it becomes modal as the parser adds it, since a MutationObserver's
// callback runs before the browser renders. Escape follows Close, a link to the list.

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
  const dialog = document.querySelector<HTMLDialogElement>("dialog.card-modal[open]");
  // Its Close link parsed: showModal() can focus it.
  if (dialog?.querySelector("[autofocus]") == null) return document.readyState !== "loading";
  // A dialog open but not modal cannot be made modal as it is.
  dialog.close();
  dialog.showModal();
  dialog.addEventListener("close", () => {
    // Not the close from takeOver() itself (it is still open then).
    if (!dialog.open) dialog.querySelector<HTMLAnchorElement>(".card-modal__close a")?.click();
  });
  return true;
}
