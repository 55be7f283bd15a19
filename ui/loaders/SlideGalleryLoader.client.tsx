// The gallery's code (react-image-gallery) is below the fold: the browser
// fetches it when the slider comes near the viewport. Until then the server's
// HTML stays in place (React leaves a suspended boundary dehydrated).
import { lazy } from "react";

// The id of the slider's <section> (components/Slider.tsx).
const SLIDER_SECTION_ID = "slider";
// How far below the viewport the slider counts as near.
const NEAR_PX = 400;

function isNear(elementId: string): boolean {
  const element = document.getElementById(elementId);
  // No slider on the page (or no layout yet): nothing to wait for.
  if (element === null) return true;
  const box = element.getBoundingClientRect();
  return box.top < window.innerHeight + NEAR_PX && box.bottom > -NEAR_PX;
}

// Checked on scroll and resize rather than with an IntersectionObserver on one
// element: client-side navigation can replace the section the wait began with.
function whenNearViewport(elementId: string): Promise<void> {
  return new Promise((resolve) => {
    let scheduled = false;
    const check = (): void => {
      scheduled = false;
      if (!isNear(elementId)) return;
      window.removeEventListener("scroll", onChange);
      window.removeEventListener("resize", onChange);
      resolve();
    };
    const onChange = (): void => {
      if (!scheduled) {
        scheduled = true;
        requestAnimationFrame(check);
      }
    };
    window.addEventListener("scroll", onChange, { passive: true });
    window.addEventListener("resize", onChange, { passive: true });
    onChange();
  });
}

export const SlideGalleryLoader = lazy(() =>
  whenNearViewport(SLIDER_SECTION_ID)
    .then(() => import("../components/SlideGallery"))
    .then((module) => ({ default: module.SlideGallery })),
);
