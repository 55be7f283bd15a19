import { useLocation } from "react-router-dom";
import { CATALOGUES } from "../i18n/messages";
import { localeOf, localized } from "../i18n/locale";

/** The page's language, its catalogue, and `to`: an English path as a link in that language. */
export function useLocale() {
  const locale = localeOf(useLocation().pathname);
  return { locale, messages: CATALOGUES[locale], to: (path: string) => localized(locale, path) };
}
