// Photos through the server's image route (server/images/): the same photo at
// a few fixed sizes, in the best format the browser takes, for `srcset`.
// The server names each photo's `photoKey` in the page data and the content
// API; its variants are /img/{variant}/{photoKey}. A photo without a key (the
// route is off, or does not take that photo) is linked as it is.
//
// Deterministic from the page data, so the server's markup and the hydrating
// browser's agree. The sizes are site.json's, which server/images/variants.py serves.
import site from "../site.json";

/** Widths for photos shown at their own aspect ratio. */
const PHOTO_WIDTHS = site.photoSizes.widths;
/** Square crops for the modal's 400 x 400, at 1x and 2x. */
const MODAL_SQUARES = site.photoSizes.squares;
/** Thumbnails show at 96 px at most: the smallest width covers 3x screens. */
const THUMBNAIL_WIDTH = 320;

export interface Photo {
  photoUrl: string;
  photoKey?: string;
}

/**
 * What an <img> needs: the candidates and the layout, then `src` for a browser
 * without srcset. In that order, so an element built in the browser knows its
 * candidates before its src would start a download.
 */
export interface PhotoSources {
  srcSet?: string;
  sizes?: string;
  src: string;
}

function variantUrl(photoKey: string, variant: string): string {
  return `/img/${variant}/${photoKey}`;
}

/**
 * A photo shown `sizes` wide at its own aspect ratio (cropped by CSS, if at all).
 * `fallbackWidth` is what a browser without srcset gets.
 */
export function photoAtWidths(photo: Photo, sizes: string, fallbackWidth: number): PhotoSources {
  const { photoKey } = photo;
  if (!photoKey) return { src: photo.photoUrl };
  return {
    srcSet: PHOTO_WIDTHS.map((width) => `${variantUrl(photoKey, `w${width}`)} ${width}w`).join(", "),
    sizes,
    src: variantUrl(photoKey, `w${fallbackWidth}`),
  };
}

/** A photo cropped square, shown `sizes` wide (400 px at most). */
export function photoSquare(photo: Photo, sizes: string): PhotoSources {
  const { photoKey } = photo;
  if (!photoKey) return { src: photo.photoUrl };
  return {
    srcSet: MODAL_SQUARES.map((side) => `${variantUrl(photoKey, `s${side}`)} ${side}w`).join(", "),
    sizes,
    src: variantUrl(photoKey, `s${MODAL_SQUARES[0]}`),
  };
}

/** One small image for a thumbnail. */
export function photoThumbnail(photo: Photo): string {
  return photo.photoKey ? variantUrl(photo.photoKey, `w${THUMBNAIL_WIDTH}`) : photo.photoUrl;
}
