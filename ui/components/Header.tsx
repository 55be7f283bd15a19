import { Link, NavLink, useLocation, useNavigate } from "react-router-dom";
import { prepareScrolling, scrollToSection } from "../lib/sections";
import { useLocale } from "../hooks/useLocale";
import { format } from "../i18n/messages";
import { isPlainClick } from "../routes/routes";
import { LanguageLinks } from "./LanguageLinks";

export function Header({ companyName }: { companyName: string }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { messages, to } = useLocale();
  const text = messages.header;
  const home = to("landing");

  return (
    <header className="site-header">
      <div className="site-header__inner">
        <Link
          to={home}
          className="site-header__logo"
          aria-label={format(text.homeLabel, { name: companyName })}
        >
          <span className="logo">
            <svg className="logo__mark" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true">
              <path d="M4 11 16 4l12 7-12 7z" fill="#e9e1d3" />
              <path d="M4 11v10l12 7V18z" fill="#b9a98e" />
              <path d="M28 11v10l-12 7V18z" fill="#8c7b61" />
            </svg>
            <span className="logo__name">{companyName}</span>
          </span>
        </Link>
        <nav className="site-nav" aria-label={text.menuLabel}>
          {(["projects", "collabrations", "stones"] as const).map((page) => (
            <NavLink key={page} to={to(page)} className="site-nav__link">
              {text[page]}
            </NavLink>
          ))}
          {/* Real hrefs (/#about) work without JavaScript; with it, the landing page scrolls. */}
          {(["about", "contact"] as const).map((section) => (
            <a
              key={section}
              href={`${home}#${section}`}
              className="site-nav__link"
              onPointerEnter={prepareScrolling}
              onFocus={prepareScrolling}
              onClick={(event) => {
                if (!isPlainClick(event)) return;
                event.preventDefault();
                if (pathname === home) void scrollToSection(section);
                else void navigate(home, { state: { scrollTo: section } });
              }}
            >
              {text[section]}
            </a>
          ))}
        </nav>
        <LanguageLinks />
      </div>
    </header>
  );
}
