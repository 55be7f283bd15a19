import { StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { preloadPage } from "@stone/pages";
import { App } from "./App";
import { PageDataContext } from "./data/PageDataContext";
import { pageFor } from "./split/routes";
import type { PageData } from "./types";
import "./styles/site.css";

function readPageData(): PageData {
  const element = document.getElementById("page-data");
  if (element?.textContent == null) {
    throw new Error("The server did not inline #page-data");
  }
  return JSON.parse(element.textContent) as PageData;
}

async function hydrate(): Promise<void> {
  const pageData = readPageData();
  const root = document.getElementById("root");
  if (root === null) throw new Error("No #root element to hydrate");
  // The server modulepreloads this page's chunk; have it in hand before
  // hydrating so the page hydrates in one pass.
  await preloadPage(pageFor(window.location.pathname));
  hydrateRoot(
    root,
    <StrictMode>
      <PageDataContext.Provider value={pageData}>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </PageDataContext.Provider>
    </StrictMode>,
  );
}

void hydrate();

// Visitors' web vitals, when the server collects them (WEB_VITALS=on: the page
// names the endpoint). Never on the critical path: loaded after the page is,
// and not at all when off or on a page that is not one of the site's routes.
function loadVitalsReporter(): void {
  const endpoint = document.querySelector<HTMLMetaElement>('meta[name="vitals-endpoint"]')?.content;
  if (!endpoint || pageFor(window.location.pathname) === "notFound") return;
  void import("./vitals").then(({ reportWebVitals }) => reportWebVitals(endpoint));
}
if (document.readyState === "complete") loadVitalsReporter();
else window.addEventListener("load", loadVitalsReporter, { once: true });
