import { Suspense } from "react";
// Eager on the server, loaded near the viewport in the browser (build.py aliases it).
import { SlideGalleryLoader } from "@stone/slide-gallery-loader";
import { useLocale } from "../hooks/useLocale";
import { photoSlide } from "../data/photoSources";
import { useCollection } from "../hooks/useCollection";

export function Slider() {
  const slides = useCollection("slider");
  const text = useLocale().messages.slider;
  // Shown after client-side navigation until the gallery's code arrives.
  const firstSlide = slides.length > 0 && (
    <img
      className="slider__placeholder"
      {...photoSlide(slides[0])}
      alt=""
      width={1600}
      height={900}
      decoding="async"
    />
  );
  return (
    <section id="slider" className="slider" aria-labelledby="slider-title">
      <div className="container">
        <h2 id="slider-title" className="section-title">
          {text.title}
        </h2>
        {slides.length > 0 && (
          <Suspense fallback={firstSlide}>
            <SlideGalleryLoader slides={slides} />
          </Suspense>
        )}
      </div>
    </section>
  );
}
