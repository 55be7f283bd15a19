// In the browser each page is its own chunk, so a visitor downloads only the
// page in front of them. The page the server rendered is loaded before
// hydration (preloadPage), the others when a link leads to them.
import { type ComponentType, lazy } from "react";
import type { PageKey } from "./routes";

const loaders: Record<PageKey, () => Promise<ComponentType>> = {
  landing: () => import("../pages/LandingPage").then((m) => m.LandingPage),
  projects: () => import("../pages/ProjectsPage").then((m) => m.ProjectsPage),
  collabrations: () => import("../pages/CollabrationsPage").then((m) => m.CollabrationsPage),
  notFound: () => import("../pages/NotFoundPage").then((m) => m.NotFoundPage),
};

const loaded: Partial<Record<PageKey, ComponentType>> = {};

export async function preloadPage(page: PageKey): Promise<void> {
  loaded[page] = await loaders[page]();
}

function pageComponent(page: PageKey): ComponentType {
  const Lazy = lazy(() => loaders[page]().then((component) => ({ default: component })));
  // A loaded page renders at once, so hydration never waits on a chunk.
  function Page() {
    const Loaded = loaded[page];
    return Loaded ? <Loaded /> : <Lazy />;
  }
  Page.displayName = `Page(${page})`;
  return Page;
}

export const pages: Record<PageKey, ComponentType> = {
  landing: pageComponent("landing"),
  projects: pageComponent("projects"),
  collabrations: pageComponent("collabrations"),
  notFound: pageComponent("notFound"),
};
