// The site's routes, once: the router (App.tsx) and the client's page loader
// (pages.ts) both read this table. Every page exists in English at
// its path and in Arabic under /ar.
import { localized } from "../i18n/locale";
import type { Locale } from "../i18n/messages";

export type PageKey = "landing" | "projects" | "collabrations" | "notFound";

const PAGES: ReadonlyArray<{ path: string; page: PageKey }> = [
  { path: "/", page: "landing" },
  { path: "/projects", page: "projects" },
  { path: "/Collabrations", page: "collabrations" },
];

const LOCALES: readonly Locale[] = ["en", "ar"];

export const ROUTES: ReadonlyArray<{ path: string; page: PageKey }> = LOCALES.flatMap((locale) =>
  PAGES.map(({ path, page }) => ({ path: localized(locale, path), page })),
);

/** The page a path shows, matched as the router does (paths are case-sensitive). */
export function pageFor(pathname: string): PageKey {
  return ROUTES.find((route) => route.path === pathname)?.page ?? "notFound";
}
