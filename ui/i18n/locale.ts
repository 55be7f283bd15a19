import { useLocation } from "react-router-dom";
import { CATALOGUES, type Locale, type Messages } from "./messages";

// English lives at the root, Arabic under /ar: /projects <-> /ar/projects.
const ARABIC_PREFIX = "/ar";

export function localeOf(pathname: string): Locale {
  return pathname === ARABIC_PREFIX || pathname.startsWith(`${ARABIC_PREFIX}/`) ? "ar" : "en";
}

/** The path without its language prefix: /ar/projects -> /projects, /ar -> /. */
export function unlocalized(pathname: string): string {
  if (localeOf(pathname) === "en") return pathname;
  return pathname.slice(ARABIC_PREFIX.length) || "/";
}

/** `path` (an English path such as /projects or /#about) in `locale`. */
export function localized(locale: Locale, path: string): string {
  if (locale === "en") return path;
  if (path === "/") return ARABIC_PREFIX;
  if (path.startsWith("/#")) return `${ARABIC_PREFIX}${path.slice(1)}`;
  return `${ARABIC_PREFIX}${path}`;
}

export interface LocaleTools {
  locale: Locale;
  messages: Messages;
  /** An English path as a link in the current language. */
  to: (path: string) => string;
}

export function useLocale(): LocaleTools {
  const locale = localeOf(useLocation().pathname);
  return { locale, messages: CATALOGUES[locale], to: (path) => localized(locale, path) };
}
