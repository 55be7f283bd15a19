import site from "../site.json";
import type { Locale } from "./messages";

// Where each language's pages live (site.json): English at the root, the others under their prefix.
const LANGUAGES: Record<Locale, { prefix: string }> = site.languages;

export const LOCALES = Object.keys(LANGUAGES) as Locale[];
// The first of the table, at the root: the language others fall back to.
export const DEFAULT_LOCALE = LOCALES[0];

export function localeOf(pathname: string): Locale {
  const prefixed = LOCALES.find((locale) => {
    const { prefix } = LANGUAGES[locale];
    return prefix !== "" && (pathname === prefix || pathname.startsWith(`${prefix}/`));
  });
  return prefixed ?? DEFAULT_LOCALE;
}

/** The path without its language prefix: /ar/projects -> /projects, /ar -> /. */
export function unlocalized(pathname: string): string {
  return pathname.slice(LANGUAGES[localeOf(pathname)].prefix.length) || "/";
}

/** `path` (an English path such as / or /projects) in `locale`. */
export function localized(locale: Locale, path: string): string {
  const { prefix } = LANGUAGES[locale];
  return path === "/" ? prefix || "/" : `${prefix}${path}`;
}
