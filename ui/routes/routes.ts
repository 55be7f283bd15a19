// The site's routes, from site.json (the server reads the same table): each page in each
// language (/projects, /ar/projects), a list page's cards one segment below it (/projects/{id}).
import type { MouseEvent } from "react";
import { LOCALES, localized } from "../i18n/locale";
import type { Messages } from "../i18n/messages";
import site from "../site.json";

/** A page of the site, as the catalogues name it: landing, projects, ... */
export type PageKey = keyof Messages["pages"];

const PAGES: ReadonlyArray<{ path: string; page: PageKey; cards: boolean }> = site.pages.map(
  (entry) => ({ path: entry.path, page: entry.page as PageKey, cards: "cards" in entry }),
);

export function pagePath(page: PageKey): string {
  return PAGES.find((candidate) => candidate.page === page)!.path;
}

/** Each page in each language: its own path, and the router's pattern (a list page's takes an
 *  optional card id). */
export const ROUTES = LOCALES.flatMap((locale) =>
  PAGES.map(({ path, page, cards }) => {
    const own = localized(locale, path);
    return { path: own, page, pattern: cards ? `${own}/:itemId?` : own };
  }),
);

/** The route a path shows, matched as the router does (case-sensitive): its own path, or for a
 *  list page one segment below it (a card's page). */
export function routeFor(pathname: string): (typeof ROUTES)[number] | undefined {
  return ROUTES.find((route) => {
    const card = pathname.startsWith(`${route.path}/`) ? pathname.slice(route.path.length + 1) : "";
    return route.path === pathname || (route.pattern !== route.path && /^[^/]+$/.test(card));
  });
}

export function pageFor(pathname: string): PageKey {
  return routeFor(pathname)?.page ?? "notFound";
}

export function itemPath(listPath: string, itemId: string): string {
  return `${listPath}/${encodeURIComponent(itemId)}`;
}

/** A click the page handles itself; others (new tab, new window) go to the link. */
export function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}
