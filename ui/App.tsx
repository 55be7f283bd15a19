import { useEffect, useRef } from "react";
import { Route, Routes, useLocation } from "react-router-dom";
import { Header } from "./components/Header";
import { usePageData } from "./data/PageDataContext";
import { CollabrationsPage } from "./pages/CollabrationsPage";
import { LandingPage } from "./pages/LandingPage";
import { NotFoundPage } from "./pages/NotFoundPage";
import { ProjectsPage } from "./pages/ProjectsPage";

// A new page starts at the top, as a full page load would. Not on the first
// render: that is the page load itself, which may be a deep link (/#about).
function useScrollToTopOnNavigation(): void {
  const { pathname, state } = useLocation();
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    if (state === null) window.scrollTo(0, 0);
  }, [pathname, state]);
}

export function App() {
  const { company } = usePageData();
  useScrollToTopOnNavigation();
  return (
    <>
      <Header companyName={company.shortName} />
      <Routes>
        <Route path="/" element={<LandingPage />} />
        <Route path="/projects" caseSensitive element={<ProjectsPage />} />
        <Route path="/Collabrations" caseSensitive element={<CollabrationsPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </>
  );
}
