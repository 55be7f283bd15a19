import { scroller } from "react-scroll";

/** Landing-page sections the header can scroll to; each is also the element's id. */
export type SectionId = "about" | "contact";

export const SCROLL_DURATION_MS = 500;

// The sticky header covers the top of the viewport; stop just below it.
function headerHeight(): number {
  return document.querySelector<HTMLElement>(".site-header")?.offsetHeight ?? 0;
}

export function scrollToSection(section: SectionId): void {
  scroller.scrollTo(section, {
    duration: SCROLL_DURATION_MS,
    smooth: "easeInOutQuad",
    offset: -headerHeight(),
  });
}
