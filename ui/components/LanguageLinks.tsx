import { Link, useLocation } from "react-router-dom";
import { LOCALES, localized, unlocalized } from "../i18n/locale";
import { useLocale } from "../hooks/useLocale";
import { CATALOGUES } from "../i18n/messages";

/** The same page in each other language, named in its own words; in the header, and in a
 *  card's dialog, which makes the header inert. */
export function LanguageLinks() {
  const { pathname } = useLocation();
  const { locale, messages } = useLocale();
  return (
    <nav className="site-languages" aria-label={messages.header.languages}>
      <ul>
        {LOCALES.filter((other) => other !== locale).map((other) => {
          const { meta } = CATALOGUES[other];
          return (
            <li key={other}>
              <Link
                to={localized(other, unlocalized(pathname))}
                className="site-languages__link"
                lang={meta.lang}
                hrefLang={meta.lang}
                title={meta.readThisPage}
                aria-label={meta.readThisPage}
              >
                {meta.shortName}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
