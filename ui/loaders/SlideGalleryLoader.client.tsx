// The gallery's code is fetched when the slider comes near the viewport; until then the
// server's HTML stays (React leaves a suspended boundary dehydrated).
import { lazy } from "react";

// How far below the viewport the slider counts as near.
const NEAR_PX = 400;

// Not an IntersectionObserver on one element: client-side navigation can replace the section.
function whenSliderIsNear(): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      // None on the page: nothing to wait for.
      const box = document.getElementById("slider")?.getBoundingClientRect();
      if (box && (box.top >= window.innerHeight + NEAR_PX || box.bottom <= -NEAR_PX)) return;
      window.removeEventListener("scroll", check);
      window.removeEventListener("resize", check);
      resolve();
    };
    window.addEventListener("scroll", check, { passive: true });
    window.addEventListener("resize", check, { passive: true });
    // Not during hydration's render: at the next frame, when layout is due anyway.
    requestAnimationFrame(check);
  });
}

export const SlideGalleryLoader = lazy(async () => {
  await whenSliderIsNear();
  return { default: (await import("../components/SlideGallery")).SlideGallery };
});
