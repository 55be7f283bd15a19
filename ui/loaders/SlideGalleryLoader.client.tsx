// The gallery's code (react-image-gallery) is below the fold: the browser
// fetches it when the slider comes near the viewport. Until then the server's
// HTML stays in place (React leaves a suspended boundary dehydrated).
import { lazy } from "react";

// How far below the viewport the slider counts as near.
const NEAR_PX = 400;

function sliderIsNear(): boolean {
  // The slider's <section> (components/Slider.tsx).
  const box = document.getElementById("slider")?.getBoundingClientRect();
  // No slider on the page: nothing to wait for.
  return box === undefined || (box.top < window.innerHeight + NEAR_PX && box.bottom > -NEAR_PX);
}

// Checked on scroll and resize rather than with an IntersectionObserver on one
// element: client-side navigation can replace the section the wait began with.
function whenSliderIsNear(): Promise<void> {
  return new Promise((resolve) => {
    let scheduled = false;
    const check = (): void => {
      scheduled = false;
      if (!sliderIsNear()) return;
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

export const SlideGalleryLoader = lazy(async () => {
  await whenSliderIsNear();
  return { default: (await import("../components/SlideGallery")).SlideGallery };
});
