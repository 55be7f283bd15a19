import { type ComponentType, Suspense, useEffect, useRef } from "react";
import { Route, Routes, useLocation } from "react-router-dom";
import { CardListPage } from "./pages/CardListPage";
import { Header } from "./components/Header";
import { usePageData } from "./hooks/usePageData";
import { useLocale } from "./hooks/useLocale";
import { pageTitle } from "./lib/documentTitle";
import { LandingPage } from "./pages/LandingPage";
import { EnquiryPage } from "./pages/EnquiryPage";
import { NotFoundPage } from "./pages/NotFoundPage";
import { StonesPage } from "./pages/StonesPage";
import { type PageKey, pageFor, ROUTES, routeFor } from "./routes/routes";

// Every page is in the entry bundle: together they weigh less than the round trip a chunk of its
// own would cost before hydration. The heavy parts below the fold load later.
const PAGE_COMPONENTS: Record<PageKey, ComponentType> = {
  landing: LandingPage,
  projects: () => <CardListPage collection="projects" />,
  collabrations: () => <CardListPage collection="collabrations" />,
  stones: StonesPage,
  enquiry: EnquiryPage,
  notFound: NotFoundPage,
};

export function App() {
  const location = useLocation();
  const { pathname } = location;
  const state: unknown = location.state;
  const { company } = usePageData();
  const { messages } = useLocale();
  // A new page starts at the top, as a full page load would; not the first render, which may be a
  // deep link (/#about). Opening or closing a card stays on the page; a stone's is a page.
  const pagePath = pageFor(pathname) === "stones" ? pathname : (routeFor(pathname)?.path ?? pathname);
  const shownPath = useRef(pagePath);
  useEffect(() => {
    if (shownPath.current === pagePath) return;
    shownPath.current = pagePath;
    if (state === null) window.scrollTo(0, 0);
    // Only a change of page counts; `state` is read as it is then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pagePath]);
  // After client-side navigation the document follows the page (the server sets the first).
  // <html data-hydrated>: from now a click opens a card in place (tests wait for it).
  useEffect(() => {
    const root = document.documentElement;
    root.lang = messages.meta.lang;
    root.dir = messages.meta.dir;
    root.dataset.hydrated = "";
    const page = pageFor(pathname);
    // A card's page is titled by its list page (CardListPage), which knows the card.
    if (routeFor(pathname)?.path !== pathname && page !== "notFound") return;
    document.title = pageTitle(page === "landing", messages.pages[page].title, company.name);
  }, [pathname, messages, company.name]);
  return (
    <>
      <a className="skip-link" href="#main">
        {messages.header.skipLink}
      </a>
      <Header companyName={company.shortName} />
      {/* Anything that suspends outside its own boundary cannot hold up the whole page. */}
      <Suspense fallback={null}>
        <Routes>
          {ROUTES.map(({ path, page, pattern }) => {
            const Page = PAGE_COMPONENTS[page];
            // Keyed by path: /projects and /ar/projects mount fresh trees, which a
            // still-dehydrated boundary (the slider before its code) cannot hold up.
            return <Route key={path} path={pattern} caseSensitive element={<Page key={path} />} />;
          })}
          <Route path="*" element={<PAGE_COMPONENTS.notFound />} />
        </Routes>
      </Suspense>
    </>
  );
}
