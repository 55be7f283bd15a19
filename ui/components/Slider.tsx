import { Suspense } from "react";
// Eager on the server, loaded near the viewport in the browser (build.py aliases it).
import { SlideGalleryLoader } from "@stone/slide-gallery-loader";
import { useLocale } from "../i18n/locale";
import { photoAtWidths } from "../data/photoSources";
import type { SlideImage } from "../types";
import { SLIDE_FALLBACK_WIDTH, SLIDE_SIZES } from "./slideLayout";

interface SliderProps {
  slides: SlideImage[];
}

// Shown after client-side navigation until the gallery's code arrives.
function FirstSlide({ slide }: { slide: SlideImage }) {
  return (
    <img
      className="slider__placeholder"
      {...photoAtWidths(slide, SLIDE_SIZES, SLIDE_FALLBACK_WIDTH)}
      alt=""
      width={1600}
      height={900}
      decoding="async"
    />
  );
}

export function Slider({ slides }: SliderProps) {
  const text = useLocale().messages.slider;
  return (
    <section id="slider" className="slider" aria-labelledby="slider-title">
      <div className="container">
        <h2 id="slider-title" className="section-title">
          {text.title}
        </h2>
        {slides.length > 0 && (
          <Suspense fallback={<FirstSlide slide={slides[0]} />}>
            <SlideGalleryLoader slides={slides} />
          </Suspense>
        )}
      </div>
    </section>
  );
}
