import type { MouseEvent } from "react";
import { Link, NavLink, useLocation, useNavigate } from "react-router-dom";
import { prepareScrolling, scrollToSection, type SectionId } from "../data/sections";
import { Logo } from "./Logo";

interface HeaderProps {
  companyName: string;
}

export interface ScrollRequest {
  scrollTo: SectionId;
}

export function Header({ companyName }: HeaderProps) {
  const { pathname } = useLocation();
  const navigate = useNavigate();

  // Real hrefs (/#about, /#contact) keep the links crawlable and working
  // without JavaScript; with it, the landing page scrolls smoothly instead.
  function goToSection(event: MouseEvent<HTMLAnchorElement>, section: SectionId): void {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    if (pathname === "/") {
      void scrollToSection(section);
    } else {
      const request: ScrollRequest = { scrollTo: section };
      navigate("/", { state: request });
    }
  }

  return (
    <header className="site-header">
      <div className="site-header__inner">
        <Link to="/" className="site-header__logo" aria-label={`${companyName}: home`}>
          <Logo name={companyName} />
        </Link>
        <nav className="site-nav" aria-label="Main">
          <NavLink to="/projects" className="site-nav__link">
            Projects
          </NavLink>
          <NavLink to="/Collabrations" className="site-nav__link">
            Collabrations
          </NavLink>
          <a
            href="/#about"
            className="site-nav__link"
            onPointerEnter={prepareScrolling}
            onFocus={prepareScrolling}
            onClick={(e) => goToSection(e, "about")}
          >
            About us
          </a>
          <a
            href="/#contact"
            className="site-nav__link"
            onPointerEnter={prepareScrolling}
            onFocus={prepareScrolling}
            onClick={(e) => goToSection(e, "contact")}
          >
            Contact
          </a>
        </nav>
      </div>
    </header>
  );
}
