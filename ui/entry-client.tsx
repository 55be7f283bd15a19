import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { App } from "./App";
import { PageDataContext } from "./hooks/usePageData";
import { routeFor } from "./routes/routes";
import type { PageData } from "./types";
import "./styles/site.css";

// ui/boot/boot.ts starts this module once the page has loaded and painted.
const pageData = JSON.parse(document.getElementById("page-data")!.textContent) as PageData;
// The server's HTML is already on screen and its links work: hydration is
// not urgent. As a transition React yields to the browser every few
// milliseconds instead of holding the main thread for the whole tree, which
// on a slow phone is one long task that delays the visitor's first tap.
startTransition(() => {
  hydrateRoot(
    document.getElementById("root")!,
    <StrictMode>
      <PageDataContext.Provider value={pageData}>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </PageDataContext.Provider>
    </StrictMode>,
  );
});

// Visitors' web vitals, when the server collects them (WEB_VITALS=on: the page
// names the endpoint). Never on the critical path: loaded after the page is,
// and not at all when off or on a page that is not one of the site's routes.
function loadVitalsReporter(): void {
  const endpoint = document.querySelector<HTMLMetaElement>('meta[name="vitals-endpoint"]')?.content;
  const { pathname } = window.location;
  const route = routeFor(pathname);
  if (!endpoint || route === undefined) return;
  // The route the visitor landed on: LCP belongs to it, and INP and CLS are
  // settled when the page is hidden, whatever route it shows by then. A
  // card's page counts as its route (/projects/{item_id}), as the server names it.
  const path = route.path === pathname ? pathname : `${route.path}/{item_id}`;
  void import("./vitals").then(({ reportWebVitals }) => reportWebVitals(endpoint, path));
}

if (document.readyState === "complete") loadVitalsReporter();
else window.addEventListener("load", loadVitalsReporter, { once: true });
