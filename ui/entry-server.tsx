// Runs inside the server's embedded V8 (mini-racer), which is bare V8: the
// polyfills must load before React and the router.
import "./server-polyfills";
import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router-dom";
import { App } from "./App";
import { PageDataContext } from "./hooks/usePageData";
import type { PageData } from "./types";

function renderPage(url: string, pageDataJson: string): string {
  const pageData = JSON.parse(pageDataJson) as PageData;
  return renderToString(
    <StrictMode>
      <PageDataContext.Provider value={pageData}>
        <StaticRouter location={url}>
          <App />
        </StaticRouter>
      </PageDataContext.Provider>
    </StrictMode>,
  );
}

(globalThis as { renderPage?: typeof renderPage }).renderPage = renderPage;
