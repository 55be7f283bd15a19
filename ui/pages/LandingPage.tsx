import { useEffect } from "react";
import { useLocation } from "react-router-dom";
import { ContactFooter } from "../components/ContactFooter";
import { Hero } from "../components/Hero";
import { Services } from "../components/Services";
import { Slider } from "../components/Slider";
import { VideoSection } from "../components/VideoSection";
import { usePageData } from "../hooks/usePageData";
import { useLocale } from "../hooks/useLocale";
import { scrollToSection, type SectionId } from "../lib/sections";

export function LandingPage() {
  const { company } = usePageData();
  const { messages, to } = useLocale();
  const location = useLocation();
  // Arriving from another page through "About us" or "Contact" (components/Header.tsx).
  const scrollRequest = location.state as { scrollTo?: SectionId } | null;
  useEffect(() => {
    if (scrollRequest?.scrollTo) void scrollToSection(scrollRequest.scrollTo);
  }, [scrollRequest, location.key]);

  return (
    <>
      <main id="main">
        <Hero />
        <VideoSection />
        <Services />
        {/* react-scroll finds scroll targets by element id, so a plain section will do. */}
        <section id="about" className="about" aria-labelledby="about-title">
          <div className="container">
            <h2 id="about-title" className="section-title">
              {messages.about.title}
            </h2>
            <div className="about__text">
              <p>{messages.about.founder}</p>
              <p>{messages.about.equipment}</p>
              <p>{messages.about.innovation}</p>
            </div>
          </div>
        </section>
        <Slider />
        <section className="booking" aria-labelledby="booking-title">
          <div className="container booking__inner">
            <div>
              <h2 id="booking-title" className="booking__title">
                {messages.booking.title}
              </h2>
              <p className="booking__text">{messages.booking.text}</p>
              <p className="booking__enquiry">
                <a href={to("enquiry")}>{messages.booking.enquiry}</a>
              </p>
            </div>
            <a
              className="button button--primary button--large"
              href={company.bookingUrl}
              target="_blank"
              rel="noopener noreferrer"
            >
              {messages.booking.button}
            </a>
          </div>
        </section>
      </main>
      <ContactFooter />
    </>
  );
}
