import { prefersReducedMotion } from "./motion";

/** Landing-page sections the header can scroll to; each is also the element's id. */
export type SectionId = "about" | "contact";

export const SCROLL_DURATION_MS = 500;

// react-scroll is only needed once a visitor asks to scroll: it is fetched on
// intent (hovering, focusing or touching About us / Contact) and awaited on click.
let scrollerModule: Promise<typeof import("./scroller")> | null = null;

export function prepareScrolling(): void {
  scrollerModule ??= import("./scroller");
}

// The sticky header covers the top of the viewport; stop just below it.
function headerHeight(): number {
  return document.querySelector<HTMLElement>(".site-header")?.offsetHeight ?? 0;
}

export async function scrollToSection(section: SectionId): Promise<void> {
  prepareScrolling();
  const { scroller } = await (scrollerModule as Promise<typeof import("./scroller")>);
  scroller.scrollTo(section, {
    // Visitors who ask for reduced motion go straight there.
    duration: prefersReducedMotion() ? 0 : SCROLL_DURATION_MS,
    smooth: "easeInOutQuad",
    offset: -headerHeight(),
  });
}
