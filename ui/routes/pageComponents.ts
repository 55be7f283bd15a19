// Every page is in the entry bundle, server and browser alike: together they
// weigh less than the round trip a page chunk of its own would cost before
// hydration. The heavy parts below the fold (the slider's gallery,
// smooth scrolling, web vitals) are what the browser loads later.
import type { ComponentType } from "react";
import { CollabrationsPage } from "../pages/CollabrationsPage";
import { LandingPage } from "../pages/LandingPage";
import { NotFoundPage } from "../pages/NotFoundPage";
import { ProjectsPage } from "../pages/ProjectsPage";
import type { PageKey } from "./routes";

export const PAGE_COMPONENTS: Record<PageKey, ComponentType> = {
  landing: LandingPage,
  projects: ProjectsPage,
  collabrations: CollabrationsPage,
  notFound: NotFoundPage,
};
