import { useEffect } from "react";
import { useLocation } from "react-router-dom";
import { About } from "../components/About";
import { BookingPromo } from "../components/BookingPromo";
import { ContactFooter } from "../components/ContactFooter";
import type { ScrollRequest } from "../components/Header";
import { Hero } from "../components/Hero";
import { Services } from "../components/Services";
import { Slider } from "../components/Slider";
import { VideoSection } from "../components/VideoSection";
import { usePageData } from "../data/PageDataContext";
import { scrollToSection } from "../lib/sections";
import { useCollection } from "../hooks/useCollection";

export function LandingPage() {
  const { company } = usePageData();
  const slides = useCollection("slider");
  const location = useLocation();
  const scrollRequest = location.state as ScrollRequest | null;

  // Arriving from another page through "About us" or "Contact".
  useEffect(() => {
    if (scrollRequest?.scrollTo) void scrollToSection(scrollRequest.scrollTo);
  }, [scrollRequest, location.key]);

  return (
    <>
      <main id="main">
        <Hero />
        <VideoSection videoId={company.videoId} title={company.videoTitle} />
        <Services />
        <About />
        <Slider slides={slides} />
        <BookingPromo bookingUrl={company.bookingUrl} />
      </main>
      <ContactFooter companyName={company.name} branches={company.branches} />
    </>
  );
}
