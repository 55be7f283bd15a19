// What the inline boot script and the site's code tell each other through the
// document. From the moment hydration begins React owns the page; before it,
// the boot script may have closed a card and moved the address to its list, so
// hydration must know which path the server's HTML shows.
const root = (): HTMLElement => document.documentElement;

export function markHydrationStarted(): void {
  root().dataset.hydrationStarted = "";
}

export function hydrationStarted(): boolean {
  return root().dataset.hydrationStarted !== undefined;
}

/** Before the boot script moves the address: the path the server rendered. */
export function recordRenderedPath(path: string): void {
  root().dataset.renderedPath = path;
}

/** The path the server's HTML was rendered for. */
export function renderedPath(): string {
  return root().dataset.renderedPath ?? window.location.pathname;
}
