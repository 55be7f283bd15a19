// The site's routes, from site.json (the server reads the same table): the
// router (App.tsx) and the page components (pageComponents.ts) both read them.
// Every page exists in English at its path and in Arabic under /ar. Each card
// of a list page has its own address one segment below it (/projects/{id}):
// the list with that card open.
import type { MouseEvent } from "react";
import { LOCALES, localized } from "../i18n/locale";
import type { Messages } from "../i18n/messages";
import site from "../site.json";

/** A page of the site, as the catalogues name it: landing, projects, ... */
export type PageKey = keyof Messages["pages"];

const PAGES: ReadonlyArray<{ path: string; page: PageKey; cards: boolean }> = site.pages.map(
  (entry) => ({ path: entry.path, page: entry.page as PageKey, cards: "cards" in entry }),
);

/** A page's English path: pagePath("projects") is /projects. */
export function pagePath(page: PageKey): string {
  const entry = PAGES.find((candidate) => candidate.page === page);
  if (entry === undefined) throw new Error(`no route for the ${page} page`);
  return entry.path;
}

/** A section of the landing page, as an English path: /#about. */
export function sectionPath(sectionId: string): string {
  return `${pagePath("landing")}#${sectionId}`;
}

export interface SiteRoute {
  /** The page's own path, in its language. */
  path: string;
  page: PageKey;
  /** The router's pattern: list pages take an optional card id. */
  pattern: string;
}

export const ROUTES: readonly SiteRoute[] = LOCALES.flatMap((locale) =>
  PAGES.map(({ path, page, cards }) => {
    const own = localized(locale, path);
    return { path: own, page, pattern: cards ? `${own}/:itemId?` : own };
  }),
);

/** The route a path shows, matched as the router does (paths are case-sensitive). */
export function routeFor(pathname: string): SiteRoute | undefined {
  return ROUTES.find(
    (route) =>
      route.path === pathname ||
      (route.pattern !== route.path && itemIdIn(route.path, pathname) !== undefined),
  );
}

/** The page a path shows. */
export function pageFor(pathname: string): PageKey {
  return routeFor(pathname)?.page ?? "notFound";
}

/** The card id in `pathname` below the list page at `listPath`, decoded; else undefined. */
function itemIdIn(listPath: string, pathname: string): string | undefined {
  if (!pathname.startsWith(`${listPath}/`)) return undefined;
  const segment = pathname.slice(listPath.length + 1);
  return segment === "" || segment.includes("/") ? undefined : segment;
}

/** A card's address: its list page's path and its id, escaped. */
export function itemPath(listPath: string, itemId: string): string {
  return `${listPath}/${encodeURIComponent(itemId)}`;
}

/** The path as the server's routes name it: a card's page as /projects/{item_id}. */
export function routePattern(pathname: string): string {
  const route = routeFor(pathname);
  if (route === undefined || route.path === pathname) return pathname;
  return `${route.path}/{item_id}`;
}

/** A click the page handles itself; others (new tab, new window) go to the link. */
export function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}
