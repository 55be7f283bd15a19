// How wide the slider shows a photo, shared by the gallery and the placeholder
// shown before its code arrives (so neither imports the other's code).
// styles/site.css: .container and .slider__gallery.
export const SLIDE_SIZES = "(max-width: 62.5rem) calc(100vw - 2.5rem), 60rem";
/** What a browser without srcset gets. */
export const SLIDE_FALLBACK_WIDTH = 1280;
