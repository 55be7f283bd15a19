// A card's page (/projects/{id}) comes with its dialog (components/CardModal.tsx)
// open but not modal, so that it shows without JavaScript. Here, before the
// site's code, it becomes a modal as soon as the parser has read it (a
// MutationObserver's callback runs before the browser renders). A close by
// Escape follows Close, a link to the list: before hydration the browser loads
// the list; after it, the site's code handles the click.

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
