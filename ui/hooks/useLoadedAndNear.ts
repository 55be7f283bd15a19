import { type RefObject, useEffect, useState } from "react";

/**
 * True once the page has finished loading and the element is within
 * `marginPx` of the viewport. For heavy embeds (the video player): they start
 * after everything the first screen needs, never competing with it.
 */
export function useLoadedAndNear(ref: RefObject<Element | null>, marginPx: number): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (element === null || ready) return;
    let observer: IntersectionObserver | null = null;
    const observe = (): void => {
      observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) {
            observer?.disconnect();
            setReady(true);
          }
        },
        { rootMargin: `${marginPx}px 0px` },
      );
      observer.observe(element);
    };
    // After a client-side navigation the document has long finished loading.
    if (document.readyState === "complete") observe();
    else window.addEventListener("load", observe, { once: true });
    return () => {
      window.removeEventListener("load", observe);
      observer?.disconnect();
    };
  }, [ref, marginPx, ready]);
  return ready;
}
