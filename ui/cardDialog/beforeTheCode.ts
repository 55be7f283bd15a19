// The card dialog until the site's code runs (then ./CardDialog.tsx; docs/architecture.md,
// "The card dialog", tells why each step).

let modal: HTMLDialogElement | null = null;

export function ownCardDialogBeforeTheCode(): void {
  const parsing = new MutationObserver(() => {
    if (takeOver()) parsing.disconnect();
  });
  parsing.observe(document, { childList: true, subtree: true });
  document.addEventListener(
    "DOMContentLoaded",
    () => {
      parsing.disconnect();
      if (modal === null) focusTheCardLeft();
    },
    { once: true },
  );
}

/** True once Close is parsed and focused. */
function takeOver(): boolean {
  modal ??= showModal(document.querySelector<HTMLDialogElement>("dialog.card-modal[open]"));
  const close = modal?.querySelector<HTMLElement>(".card-modal__close");
  if (!modal || !close) return false;
  // showModal() ran before Close was parsed, and focused the dialog itself or what of it
  // was parsed by then (a language link, a stone's link): Close is where focus belongs.
  if (modal.contains(document.activeElement)) close.focus();
  return true;
}

function showModal(dialog: HTMLDialogElement | null): HTMLDialogElement | null {
  if (dialog === null) return null;
  // A dialog open but not modal cannot be made modal as it is.
  dialog.close();
  dialog.showModal();
  dialog.addEventListener("close", () => {
    // Not the close from just above (it is open again by then); and once the code
    // has run, Close is a button and the code does the rest.
    if (!dialog.open) dialog.querySelector<HTMLAnchorElement>("a.card-modal__close")?.click();
  });
  return dialog;
}

/** Arrived from one of this list's cards (its Close, before the code ran): that card. */
function focusTheCardLeft(): void {
  for (const card of document.querySelectorAll<HTMLAnchorElement>("a.card")) {
    if (card.href === document.referrer) card.focus();
  }
}
