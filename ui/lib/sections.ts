import type { Scroller } from "react-scroll/modules/mixins/scroller";
import { prefersReducedMotion } from "./motion";

/** Landing-page sections the header can scroll to; each is also the element's id. */
export type SectionId = "about" | "contact";

const SCROLL_DURATION_MS = 500;

// react-scroll's scroller alone (its index would bring React components and react-dom), fetched
// on intent (hovering or focusing About us / Contact) and awaited on click. It is CommonJS: in a
// "type": "module" package esbuild imports its default as Node does, module.exports itself.
let scrollerModule: Promise<{ default: unknown }> | null = null;

export function prepareScrolling(): void {
  scrollerModule ??= import("react-scroll/modules/mixins/scroller");
}

export async function scrollToSection(section: SectionId): Promise<void> {
  prepareScrolling();
  const module = (await scrollerModule) as { default: { default: Scroller } };
  module.default.default.scrollTo(section, {
    duration: prefersReducedMotion() ? 0 : SCROLL_DURATION_MS,
    smooth: "easeInOutQuad",
    // The sticky header covers the top of the viewport; stop just below it.
    offset: -(document.querySelector<HTMLElement>(".site-header")?.offsetHeight ?? 0),
  });
}
