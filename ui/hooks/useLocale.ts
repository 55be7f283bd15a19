import { useLocation } from "react-router-dom";
import { CATALOGUES } from "../i18n/messages";
import { localeOf, localized } from "../i18n/locale";
import { type PageKey, pagePath } from "../routes/routes";

/** The page's language, its catalogue, and `to`: a page's path in that language. */
export function useLocale() {
  const locale = localeOf(useLocation().pathname);
  const to = (page: PageKey) => localized(locale, pagePath(page));
  return { locale, messages: CATALOGUES[locale], to };
}
