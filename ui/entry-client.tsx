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
// As a transition, hydration yields to the browser every few milliseconds: a slow phone's first
// tap is not held up by one long task.
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

// Visitors' web vitals, when the server collects them (WEB_VITALS=on: the page names the
// endpoint): loaded after the page is, and not on a page that is none of the site's routes.
function loadVitalsReporter(): void {
  const endpoint = document.querySelector<HTMLMetaElement>('meta[name="vitals-endpoint"]')?.content;
  const { pathname } = window.location;
  const route = routeFor(pathname);
  if (!endpoint || route === undefined) return;
  // The route landed on, whatever it shows when INP and CLS settle (page hidden); a card's
  // page counts as its route (/projects/{item_id}), as the server names it.
  const path = route.path === pathname ? pathname : `${route.path}/{item_id}`;
  void import("./vitals").then(({ reportWebVitals }) => reportWebVitals(endpoint, path));
}

if (document.readyState === "complete") loadVitalsReporter();
else window.addEventListener("load", loadVitalsReporter, { once: true });
