import { useRef } from "react";
import ImageGallery, { type GalleryItem, type ImageGalleryRef } from "react-image-gallery";
import { photoSlide, photoThumbnail } from "../data/photoSources";
import { useLocale } from "../hooks/useLocale";
import { format } from "../i18n/messages";
import { prefersReducedMotion } from "../lib/motion";
import type { Photo } from "../types";

/** Motion a visitor did not ask for can be stopped (WCAG 2.2.2): play/pause, a pause while
 *  the pointer or focus is on the slider, no autoplay for those who ask for reduced motion. */
export function SlideGallery({ slides }: { slides: Photo[] }) {
  const gallery = useRef<ImageGalleryRef>(null);
  const playing = useRef(false);
  // Set when hovering or focusing paused a playing slider, so leaving resumes it.
  const resumeOnLeave = useRef(false);
  const text = useLocale().messages.slider;
  const items = slides.map((slide, index): GalleryItem => {
    const { src, srcSet, sizes } = photoSlide(slide);
    return {
      original: src,
      srcSet,
      sizes,
      thumbnail: photoThumbnail(slide),
      originalAlt: format(text.slideAlt, { n: index + 1, total: slides.length }),
      thumbnailAlt: format(text.thumbnailAlt, { n: index + 1 }),
      originalWidth: "1600",
      originalHeight: "900",
      thumbnailWidth: 160,
      thumbnailHeight: 90,
      // Far below the first screen, in the server's HTML too.
      loading: "lazy",
      thumbnailLoading: "lazy",
    };
  });

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
        slideInterval={5000}
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
