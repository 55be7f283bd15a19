import ImageGallery, { type GalleryItem } from "react-image-gallery";
import { photoAtWidths, photoThumbnail } from "../data/photoSources";
import type { SlideImage } from "../types";
import { SLIDE_FALLBACK_WIDTH, SLIDE_SIZES } from "./slideLayout";

export const SLIDE_INTERVAL_MS = 5000;

export interface SlideGalleryProps {
  slides: SlideImage[];
}

function toGalleryItem(slide: SlideImage, index: number, total: number): GalleryItem {
  const label = `Stone work, photo ${index + 1} of ${total}`;
  const { src, srcSet, sizes } = photoAtWidths(slide, SLIDE_SIZES, SLIDE_FALLBACK_WIDTH);
  return {
    original: src,
    srcSet,
    sizes,
    thumbnail: photoThumbnail(slide),
    originalAlt: label,
    thumbnailAlt: `Show photo ${index + 1}`,
    originalWidth: "1600",
    originalHeight: "900",
    thumbnailWidth: 160,
    thumbnailHeight: 90,
    // The first slide is the one in view; the rest wait until needed.
    loading: index === 0 ? "eager" : "lazy",
    thumbnailLoading: "lazy",
  };
}

/** The slider itself (react-image-gallery): autoplay every 5 s, thumbnails, status. */
export function SlideGallery({ slides }: SlideGalleryProps) {
  const items = slides.map((slide, index) => toGalleryItem(slide, index, slides.length));
  return (
    <ImageGallery
      items={items}
      autoPlay
      slideInterval={SLIDE_INTERVAL_MS}
      showThumbnails
      showIndex
      showPlayButton
      showFullscreenButton={false}
      additionalClass="slider__gallery"
    />
  );
}
