import type { MouseEvent } from "react";
import { Link, NavLink, useLocation, useNavigate } from "react-router-dom";
import { prepareScrolling, scrollToSection, type SectionId } from "../lib/sections";
import { LOCALES, localized, unlocalized, useLocale } from "../i18n/locale";
import { CATALOGUES, format } from "../i18n/messages";
import { Logo } from "./Logo";
import { pagePath, sectionPath } from "../routes/routes";

interface HeaderProps {
  companyName: string;
}

export interface ScrollRequest {
  scrollTo: SectionId;
}

export function Header({ companyName }: HeaderProps) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { locale, messages, to } = useLocale();
  const text = messages.header;
  const home = to(pagePath("landing"));
  const here = unlocalized(pathname);

  // Real hrefs (/#about, /#contact) keep the links crawlable and working
  // without JavaScript; with it, the landing page scrolls smoothly instead.
  function goToSection(event: MouseEvent<HTMLAnchorElement>, section: SectionId): void {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    if (pathname === home) {
      void scrollToSection(section);
    } else {
      const request: ScrollRequest = { scrollTo: section };
      void navigate(home, { state: request });
    }
  }

  return (
    <header className="site-header">
      <div className="site-header__inner">
        <Link
          to={home}
          className="site-header__logo"
          aria-label={format(text.homeLabel, { name: companyName })}
        >
          <Logo name={companyName} />
        </Link>
        <nav className="site-nav" aria-label={text.menuLabel}>
          <NavLink to={to(pagePath("projects"))} className="site-nav__link">
            {text.projects}
          </NavLink>
          <NavLink to={to(pagePath("collabrations"))} className="site-nav__link">
            {text.collabrations}
          </NavLink>
          <a
            href={to(sectionPath("about"))}
            className="site-nav__link"
            onPointerEnter={prepareScrolling}
            onFocus={prepareScrolling}
            onClick={(e) => goToSection(e, "about")}
          >
            {text.about}
          </a>
          <a
            href={to(sectionPath("contact"))}
            className="site-nav__link"
            onPointerEnter={prepareScrolling}
            onFocus={prepareScrolling}
            onClick={(e) => goToSection(e, "contact")}
          >
            {text.contact}
          </a>
        </nav>
        {/* The same page in each other language, each named in its own
            words; never chosen for the visitor. */}
        <nav className="site-languages" aria-label={text.languages}>
          <ul>
            {LOCALES.filter((other) => other !== locale).map((other) => {
              const { meta } = CATALOGUES[other];
              return (
                <li key={other}>
                  <Link
                    to={localized(other, here)}
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
      </div>
    </header>
  );
}
