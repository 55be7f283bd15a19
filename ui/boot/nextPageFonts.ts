// Faces a page leaves out of its first view and fetches for the next one (<meta
// name="next-page-fonts">): on a phone's network they would come too late for
// `font-display: optional` anyway. The stylesheet names them only under <html
// data-fonts="cached">, set before the first layout, so text never changes face.
import { appendToHead } from "./head";

const CACHED_KEY = "site-fonts-cached";

function wantedFonts(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="next-page-fonts"]')?.content ?? "";
}

function remembered(): string | null {
  try {
    return localStorage.getItem(CACHED_KEY);
  } catch {
    return null; // Storage off: the system faces, every page.
  }
}

/** Before the first layout: the site's faces, if this visitor has them. */
export function applyCachedFonts(): void {
  const wanted = wantedFonts();
  if (!wanted || remembered() !== wanted) return;
  document.documentElement.dataset.fonts = "cached";
  // `font-display: optional` only uses a face that is there at once.
  for (const href of wanted.split(" ")) {
    const link = { rel: "preload", as: "font", type: "font/woff2", crossOrigin: "anonymous", href };
    appendToHead("link", link);
  }
}

/** After the first paint: fetch the faces into the cache for the next page. */
export function fetchFontsForNextPage(): void {
  const wanted = wantedFonts();
  if (!wanted || remembered() === wanted) return;
  // As a font load asks (CORS, same-origin credentials), so it finds this copy.
  const fetched = wanted.split(" ").map((url) =>
    fetch(url, { mode: "cors", credentials: "same-origin" }).then((response) => {
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      return response.arrayBuffer();
    }),
  );
  Promise.all(fetched).then(
    () => {
      try {
        localStorage.setItem(CACHED_KEY, wanted);
      } catch {
        // Storage off: nothing to remember it in.
      }
    },
    () => undefined, // Not fetched: the next page keeps the system faces.
  );
}
