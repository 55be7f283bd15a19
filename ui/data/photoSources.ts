// Photos through the server's image route (server/images/) at site.json's sizes:
// /img/{variant}/{photoKey}. A photo without a key is linked as it is.
import site from "../site.json";
import type { Photo } from "../types";

function variants(photo: Photo, kind: "w" | "s", sides: number[], sizes: string, fallback: number) {
  const { photoKey } = photo;
  if (!photoKey) return { src: photo.photoUrl };
  // In this order: an element built in the browser knows its candidates before its src (for
  // a browser without srcset) would start a download.
  return {
    srcSet: sides.map((side) => `/img/${kind}${side}/${photoKey} ${side}w`).join(", "),
    sizes,
    src: `/img/${kind}${fallback}/${photoKey}`,
  };
}

/** A photo `sizes` wide at its own aspect ratio; `fallbackWidth` for a browser without srcset. */
export function photoAtWidths(photo: Photo, sizes: string, fallbackWidth: number) {
  return variants(photo, "w", site.photoSizes.widths, sizes, fallbackWidth);
}

/** A photo cropped square (the modal's 400 x 400, at 1x and 2x), shown `sizes` wide. */
export function photoSquare(photo: Photo, sizes: string) {
  const squares = site.photoSizes.squares;
  return variants(photo, "s", squares, sizes, squares[0]);
}

/** A slide, as wide as the slider shows it (styles/site.css: .container and .slider__gallery). */
export function photoSlide(photo: Photo) {
  return photoAtWidths(photo, "(max-width: 62.5rem) calc(100vw - 2.5rem), 60rem", 1280);
}

/** A thumbnail (96 px at most: the smallest width covers 3x screens). */
export function photoThumbnail(photo: Photo): string {
  return photo.photoKey ? `/img/w320/${photo.photoKey}` : photo.photoUrl;
}
