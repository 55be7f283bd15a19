"""The studio's pages as HTML (Jinja2, on the server: every form works without any script), in the
staff member's language (a cookie the links at the top set), with the studio's own headers."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from functools import partial, reduce
from operator import getitem
from pathlib import Path
from typing import Any
from urllib.parse import quote

from babel.dates import format_skeleton
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse

from server.enquiries.fields import countries
from server.http.security_headers import content_security_policy
from server.site.facts import PALETTE_FILE
from server.site.languages import DEFAULT_LOCALE, LOCALES, Locale, locale_named, messages
from server.studio.forms import TABS

TEMPLATES = Path(__file__).resolve().parent / "templates"
STYLESHEET = Path(__file__).resolve().parent / "static" / "studio.css"
LANGUAGE_COOKIE = "studio_lang"


class StudioTemplates:
    def __init__(self, *, image_hosts: tuple[str, ...], **shared: object) -> None:
        """`shared`: what every template may read besides its own context."""
        self.image_hosts = image_hosts
        self._templates = Environment(
            loader=FileSystemLoader(TEMPLATES),
            autoescape=select_autoescape(default=True),
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self._templates.globals.update(
            tabs=TABS,
            locales=LOCALES,
            language_name=partial(say, key="meta.languageName"),  # in its own words
            shown_name=shown_name,
            country_name=country_name,
            received=received,
            **shared,
        )
        self.stylesheet = PALETTE_FILE.read_bytes() + STYLESHEET.read_bytes()

    def render(
        self,
        request: Request,
        template: str,
        *,
        status: int = 200,
        scripts: Mapping[str, str] | None = None,
        **context: object,
    ) -> HTMLResponse:
        """The page; `scripts`: its script directives, where it has any. Its tab is the
        collection the address names, unless the context says."""
        locale = staff_locale(request)
        page: dict[str, Any] = {"tab": request.path_params.get("collection"), **context}
        html = self._templates.get_template(template).render(
            page,
            t=partial(say, locale),
            url=partial(url, request),
            locale=locale,
            request=request,
            id=request.path_params.get("id"),
        )
        return HTMLResponse(html, status, headers=studio_headers(self.image_hosts, scripts))


def studio_headers(
    image_hosts: tuple[str, ...], scripts: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Its CSP (`scripts`: a page's script directives), no indexing, no caching (the security
    headers middleware keeps a header a response has)."""
    directives = {
        # No script elsewhere: the studio is plain forms, working without any.
        "default-src": "'none'",
        **(scripts or {}),
        "style-src": "'self'",
        "img-src": "'self' data:",
        "form-action": "'self'",
        "frame-ancestors": "'none'",
        "base-uri": "'none'",
    }
    headers = {
        "Content-Security-Policy": content_security_policy(directives, image_hosts),
        "X-Robots-Tag": "noindex, nofollow",
        "Cache-Control": "no-store",
        "Referrer-Policy": "same-origin",
    }
    if scripts and "frame-src" in scripts:
        # The Google sign-in popup reports back to this page through window.opener.
        headers["Cross-Origin-Opener-Policy"] = "same-origin-allow-popups"
    return headers


def staff_locale(request: Request) -> Locale:
    """The studio's language for this staff member: the cookie's, else English."""
    return locale_named(request.cookies.get(LANGUAGE_COOKIE, "")) or DEFAULT_LOCALE


def say(locale: Locale, key: str, **values: object) -> str:
    """A studio message in `locale`, or with a dotted key the site's own ("stones.finish.honed")."""
    catalogue = messages(locale)
    words = reduce(getitem, key.split("."), catalogue) if "." in key else catalogue["studio"][key]
    return str(words).format(**values)


def url(request: Request, name: str, **params: str) -> str:
    """The path of a named studio route (routes.py), each value quoted as a path segment."""
    quoted = {key: quote(value, safe="") for key, value in params.items()}
    return str(request.app.url_path_for(name, **quoted))


def to_list(request: Request, tab: str, then: str) -> RedirectResponse:
    """Back to a tab's list after a write; `then`: ?saved=<id> or ?deleted=<id> (is it live
    yet?), ?handled=<id>, #item-<id>."""
    return RedirectResponse(url(request, "studio_list", collection=tab) + then, 303)


def back_to(request: Request, fallback: str) -> str:
    """The studio page the query's `next` names (where to go back after signing in or choosing
    a language), else `fallback`: never another site."""
    back = request.query_params.get("next", "")
    ours = back.startswith(url(request, "studio_home")) and "//" not in back and "\\" not in back
    return back if ours else fallback


def country_name(code: str, locale: Locale) -> str:
    return dict(countries(locale.code)).get(code, code)


def received(created: float, locale: Locale) -> str:
    """When an enquiry came, in UTC as the branch's mail says it: one inbox, three countries."""
    at = datetime.fromtimestamp(created, UTC)
    date, time = (format_skeleton(s, at, tzinfo=UTC, locale=locale.code) for s in ("yMMMd", "Hm"))
    # In Arabic, "19:00 UTC" isolated left to right, else it reads "UTC 19:00" inside the date.
    return f"{date} \u2066{time} UTC\u2069" if locale.dir == "rtl" else f"{date} {time} UTC"


def shown_name(document_id: str, fields: Mapping[str, Any], locale: Locale) -> str:
    """The entry's name as staff in the studio's language call it, else the English one."""
    name = fields.get(locale.field("name")) or fields.get("name")
    return name if isinstance(name, str) and name else document_id
