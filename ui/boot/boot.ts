// The page's one script before its first paint, inline (docs/architecture.md, "What a
// first visit loads"): what it starts waits until the page has loaded and painted.
import { ownCardDialogBeforeTheCode } from "../cardDialog/beforeTheCode";
import { appendToHead } from "./head";
import { fetchFontsForNextPage, applyCachedFonts } from "./nextPageFonts";

// A page whose photos crawl in still gets its code soon after it is parsed.
const LATEST_CODE_START_MS = 1000;

let started = false;

// The entry module and the chunks it imports, named in <meta name="site-code"> (entry first).
function startSiteCode(): void {
  if (started) return;
  started = true;
  const [entry, ...chunks] =
    document.querySelector<HTMLMetaElement>('meta[name="site-code"]')?.content.split(" ") ?? [];
  if (!entry) return;
  appendToHead("script", { type: "module", src: entry });
  // The chunks are fetched alongside the entry, not a round trip later once it is parsed.
  for (const href of chunks) appendToHead("link", { rel: "modulepreload", href });
}

// Once the page has loaded and painted (`load` can come before the first paint).
function afterLoadAndFirstPaint(): void {
  const start = (): void => {
    startSiteCode();
    fetchFontsForNextPage();
  };
  if (!PerformanceObserver.supportedEntryTypes?.includes("paint")) {
    start();
    return;
  }
  new PerformanceObserver((entries, observer) => {
    if (entries.getEntriesByName("first-contentful-paint").length === 0) return;
    observer.disconnect();
    start();
  }).observe({ type: "paint", buffered: true });
}

ownCardDialogBeforeTheCode();
applyCachedFonts();
if (document.readyState === "complete") afterLoadAndFirstPaint();
else window.addEventListener("load", afterLoadAndFirstPaint, { once: true });
document.addEventListener("DOMContentLoaded", () => setTimeout(startSiteCode, LATEST_CODE_START_MS), {
  once: true,
});
// A visitor who reaches for the page gets its code at once.
for (const type of ["pointerdown", "keydown"]) {
  window.addEventListener(type, startSiteCode, { once: true, passive: true, capture: true });
}
