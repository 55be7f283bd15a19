"""The HTML document around the rendered React tree (a Jinja2 template)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from server.rendering.manifest import AssetManifest
from server.seo.page_meta import PageMeta
from server.site.facts import THEME
from server.site.languages import messages
from server.site.pages import COLLABRATIONS, LANDING, PROJECTS, STONES, SitePage

# As Django's json_script: no content can close the element (</script>), open
# a comment (<!--) or be read as markup, and U+2028/U+2029 stay escaped for
# any consumer that treats the text as JavaScript.
_SCRIPT_ESCAPES = {ord(c): f"\\u{ord(c):04X}" for c in "<>&\u2028\u2029"}


def json_for_script(data: object) -> Markup:
    """`data` as the text of a non-executable JSON script element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.translate(_SCRIPT_ESCAPES))  # noqa: S704 - escaped just above


# The header's links, as English paths, for the plain fallback page.
_NAV_PATHS = {
    "projects": PROJECTS.english_path,
    "collabrations": COLLABRATIONS.english_path,
    "stones": STONES.english_path,
    "about": LANDING.english_path + "#about",
    "contact": LANDING.english_path + "#contact",
}


class DocumentTemplate:
    def __init__(self, assets: AssetManifest, *, vitals_endpoint: str | None = None) -> None:
        environment = Environment(
            loader=FileSystemLoader(Path(__file__).resolve().parent.parent / "templates"),
            autoescape=select_autoescape(default=True),
            trim_blocks=True,
            lstrip_blocks=True,
        )
        environment.filters["json_script"] = json_for_script
        environment.globals.update(
            theme_colour=THEME["colour"],
            assets=assets,
            # Where browsers send web vitals; None: the page tells them not to.
            vitals_endpoint=vitals_endpoint,
        )
        self._template = environment.get_template("page.html")
        self._fallback = environment.get_template("fallback.html")

    def render(self, *, meta: PageMeta, body_html: str, page_data: dict[str, Any]) -> str:
        # React escaped the body when it rendered it.
        body = Markup(body_html)  # noqa: S704
        return self._template.render(meta=meta, body_html=body, page_data=page_data)

    def render_fallback(self, *, meta: PageMeta, page: SitePage, company_name: str) -> str:
        """A page with no React in it, for when rendering failed: header, headings, way home."""
        locale = page.locale
        return self._fallback.render(
            meta=meta,
            company_name=company_name,
            headings=page.headings,
            text=messages(locale),
            home_path=locale.path("/"),
            paths={key: locale.path(path) for key, path in _NAV_PATHS.items()},
        )
