// The gallery's code (react-image-gallery) is below the fold: the browser
// fetches it when the slider comes near the viewport. Until then the server's
// HTML stays in place (React leaves a suspended boundary dehydrated).
import { lazy } from "react";

// The id of the slider's <section> (components/Slider.tsx).
const SLIDER_SECTION_ID = "slider";

function whenNearViewport(elementId: string): Promise<void> {
  return new Promise((resolve) => {
    // A frame later: after client-side navigation the section is in the DOM by then.
    requestAnimationFrame(() => {
      const element = document.getElementById(elementId);
      if (element === null || !("IntersectionObserver" in window)) {
        resolve();
        return;
      }
      const observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) {
            observer.disconnect();
            resolve();
          }
        },
        { rootMargin: "400px 0px" },
      );
      observer.observe(element);
    });
  });
}

export const SliderGallery = lazy(() =>
  whenNearViewport(SLIDER_SECTION_ID)
    .then(() => import("../components/SlideGallery"))
    .then((module) => ({ default: module.SlideGallery })),
);
