// The server bundle renders every page synchronously in V8: no lazy loading.
// The client build swaps this module for pages.client.tsx (build.py: --alias).
import type { ComponentType } from "react";
import { CollabrationsPage } from "../pages/CollabrationsPage";
import { LandingPage } from "../pages/LandingPage";
import { NotFoundPage } from "../pages/NotFoundPage";
import { ProjectsPage } from "../pages/ProjectsPage";
import type { PageKey } from "./routes";

export const pages: Record<PageKey, ComponentType> = {
  landing: LandingPage,
  projects: ProjectsPage,
  collabrations: CollabrationsPage,
  notFound: NotFoundPage,
};

export async function preloadPage(_page: PageKey): Promise<void> {}
