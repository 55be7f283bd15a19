import { useEffect, useRef, useState } from "react";
import ImageGallery, { type GalleryItem, type ImageGalleryRef } from "react-image-gallery";
import { prefersReducedMotion } from "../lib/motion";
import { photoAtWidths, photoThumbnail } from "../data/photoSources";
import { useLocale } from "../i18n/locale";
import { format, type Messages } from "../i18n/messages";
import type { SlideImage } from "../types";
import { SLIDE_FALLBACK_WIDTH, SLIDE_SIZES } from "./slideLayout";

export const SLIDE_INTERVAL_MS = 5000;

export interface SlideGalleryProps {
  slides: SlideImage[];
}

// Stand-ins for the photos the server's HTML leaves out, the size of what they
// hold the place of (a slide fills the 16:9 frame; so does a thumbnail its box).
function SlidePlaceholder() {
  return <div className="slider__slide-placeholder" />;
}

function ThumbnailPlaceholder() {
  return (
    <span className="image-gallery-thumbnail-inner">
      <span className="slider__thumbnail-placeholder" />
    </span>
  );
}

function toGalleryItem(
  slide: SlideImage,
  index: number,
  total: number,
  text: Messages["slider"],
  withPhotos: boolean,
): GalleryItem {
  const { src, srcSet, sizes } = photoAtWidths(slide, SLIDE_SIZES, SLIDE_FALLBACK_WIDTH);
  // Without its photos, the slider names none: a first visit that never
  // scrolls down fetches none, and none competes with the first screen.
  const placeholders = withPhotos
    ? {}
    : { renderItem: SlidePlaceholder, renderThumbInner: ThumbnailPlaceholder };
  return {
    ...placeholders,
    original: src,
    srcSet,
    sizes,
    thumbnail: photoThumbnail(slide),
    originalAlt: format(text.slideAlt, { n: index + 1, total }),
    thumbnailAlt: format(text.thumbnailAlt, { n: index + 1 }),
    originalWidth: "1600",
    originalHeight: "900",
    thumbnailWidth: 160,
    thumbnailHeight: 90,
    // Far below the first screen: the browser fetches it as it comes near.
    loading: "lazy",
    thumbnailLoading: "lazy",
  };
}

/**
 * The slider itself (react-image-gallery): autoplay every 5 s, thumbnails,
 * status. Motion a visitor did not ask for can be stopped (WCAG 2.2.2): the
 * play/pause button, a pause while the pointer or focus is on the slider, and
 * no autoplay at all for visitors who ask for reduced motion.
 */
export function SlideGallery({ slides }: SlideGalleryProps) {
  const gallery = useRef<ImageGalleryRef>(null);
  const playing = useRef(false);
  // Set when hovering or focusing paused a playing slider, so leaving resumes it.
  const resumeOnLeave = useRef(false);
  const { messages } = useLocale();
  // The server's HTML (and so the hydration) has no photo of the slider. This
  // code loads when the slider nears the viewport (split/SlideGalleryLoader), so
  // once it runs the photos are wanted: the slides and the thumbnails.
  const [withPhotos, setWithPhotos] = useState(false);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- as said above
  useEffect(() => setWithPhotos(true), []);
  const items = slides.map((slide, index) =>
    toGalleryItem(slide, index, slides.length, messages.slider, withPhotos),
  );

  function holdStill(): void {
    if (playing.current) {
      resumeOnLeave.current = true;
      gallery.current?.pause();
    }
  }

  function carryOn(): void {
    if (resumeOnLeave.current) {
      resumeOnLeave.current = false;
      gallery.current?.play();
    }
  }

  return (
    <div
      className="slider__frame"
      // react-image-gallery 2.1's own RTL mode (isRTL) leaves the current
      // slide off-screen; the gallery runs left to right on both sites.
      dir="ltr"
      onMouseEnter={holdStill}
      onMouseLeave={carryOn}
      onFocus={holdStill}
      onBlur={(event) => {
        // Focus moving between the slider's own buttons is not leaving it.
        if (!event.currentTarget.contains(event.relatedTarget)) carryOn();
      }}
    >
      <ImageGallery
        ref={gallery}
        items={items}
        autoPlay={!prefersReducedMotion()}
        slideInterval={SLIDE_INTERVAL_MS}
        showThumbnails
        showIndex
        showPlayButton
        showFullscreenButton={false}
        additionalClass="slider__gallery"
        onPlay={() => {
          playing.current = true;
        }}
        onPause={() => {
          playing.current = false;
        }}
      />
    </div>
  );
}
