// The page's one script before its first paint, inline (allowed by its CSP
// hash). It starts the site's code once the page has loaded and painted, so on
// a slow network those bytes never compete with the first paint, the largest
// image or the fonts. Until then the server's HTML works on its own: cards and
// menus are links, a card's page opens its dialog, Close is a form.
const LATEST_START_MS = 1000;

let started = false;

function startSiteCode(): void {
  if (started) return;
  started = true;
  // The entry, then the chunks it imports: fetched together, not one after another.
  const [entry, ...chunks] =
    document.querySelector<HTMLMetaElement>('meta[name="site-code"]')?.content.split(" ") ?? [];
  if (!entry) return;
  for (const href of chunks) {
    const preload = document.createElement("link");
    preload.rel = "modulepreload";
    preload.href = href;
    document.head.append(preload);
  }
  const script = document.createElement("script");
  script.type = "module";
  script.src = entry;
  document.head.append(script);
}

// After the frame that follows `load`: the page as loaded is on screen.
function startAfterNextPaint(): void {
  requestAnimationFrame(() => setTimeout(startSiteCode, 0));
}

if (document.readyState === "complete") startAfterNextPaint();
else window.addEventListener("load", startAfterNextPaint, { once: true });
// A page whose photos crawl in still gets its code soon after it is parsed,
// and a visitor who reaches for it gets it at once.
document.addEventListener("DOMContentLoaded", () => setTimeout(startSiteCode, LATEST_START_MS), {
  once: true,
});
for (const type of ["pointerdown", "keydown"]) {
  window.addEventListener(type, startSiteCode, { once: true, passive: true, capture: true });
}
