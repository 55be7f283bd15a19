// The page's one script before its first paint, inline (allowed by its CSP
// hash). What it starts waits until the page has loaded and painted, so on a
// slow network none of it competes with the first paint, the largest photo
// or the fonts. Until then the server's HTML works on its own: cards and menus
// are links, a card's page opens its dialog as a modal, Close is a form.
import { makeCardDialogModal } from "./cardDialog";
import { fetchFontsForNextPage, applyCachedFonts } from "./nextPageFonts";
import { startSiteCode } from "./siteCode";

// A page whose photos crawl in still gets its code soon after it is parsed.
const LATEST_CODE_START_MS = 1000;

// Once the first paint has happened (`load` can come before it).
function afterFirstPaint(then: () => void): void {
  if (!PerformanceObserver.supportedEntryTypes?.includes("paint")) {
    then();
    return;
  }
  new PerformanceObserver((entries, observer) => {
    if (entries.getEntriesByName("first-contentful-paint").length === 0) return;
    observer.disconnect();
    then();
  }).observe({ type: "paint", buffered: true });
}

// After the frame that follows both `load` and the first paint: the page as
// loaded, its photos among it, is on screen.
function afterLoadIsPainted(): void {
  afterFirstPaint(() =>
    requestAnimationFrame(() =>
      setTimeout(() => {
        startSiteCode();
        setTimeout(fetchFontsForNextPage, 0); // a task of its own, after the code's
      }, 0),
    ),
  );
}

makeCardDialogModal();
applyCachedFonts();
if (document.readyState === "complete") afterLoadIsPainted();
else window.addEventListener("load", afterLoadIsPainted, { once: true });
document.addEventListener("DOMContentLoaded", () => setTimeout(startSiteCode, LATEST_CODE_START_MS), {
  once: true,
});
// A visitor who reaches for the page gets its code at once.
for (const type of ["pointerdown", "keydown"]) {
  window.addEventListener(type, startSiteCode, { once: true, passive: true, capture: true });
}
