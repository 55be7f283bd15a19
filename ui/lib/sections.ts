import type { Scroller } from "react-scroll/modules/mixins/scroller";
import { prefersReducedMotion } from "./motion";

/** Landing-page sections the header can scroll to; each is also the element's id. */
export type SectionId = "about" | "contact";

const SCROLL_DURATION_MS = 500;

// react-scroll is only needed once a visitor asks to scroll: it is fetched on
// intent (hovering, focusing or touching About us / Contact) and awaited on
// click. Its scroller alone: the package's index would also bring its React
// components and react-dom. The file is CommonJS, with the scroller as
// `exports.default`; in a package of "type": "module" esbuild imports a
// CommonJS default as Node does, as module.exports itself.
let scrollerModule: Promise<{ default: unknown }> | null = null;

export function prepareScrolling(): void {
  scrollerModule ??= import("react-scroll/modules/mixins/scroller");
}

export async function scrollToSection(section: SectionId): Promise<void> {
  prepareScrolling();
  const module = (await scrollerModule) as { default: { default: Scroller } };
  module.default.default.scrollTo(section, {
    // Visitors who ask for reduced motion go straight there.
    duration: prefersReducedMotion() ? 0 : SCROLL_DURATION_MS,
    smooth: "easeInOutQuad",
    // The sticky header covers the top of the viewport; stop just below it.
    offset: -(document.querySelector<HTMLElement>(".site-header")?.offsetHeight ?? 0),
  });
}
