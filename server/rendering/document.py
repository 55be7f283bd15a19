"""The HTML document around the rendered React tree (a Jinja2 template)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from server.rendering.manifest import AssetManifest
from server.site_facts import THEME

# As Django's json_script: no content can close the element (</script>), open
# a comment (<!--) or be read as markup, and U+2028/U+2029 stay escaped for
# any consumer that treats the text as JavaScript.
_SCRIPT_ESCAPES = {
    ord("<"): "\\u003C",
    ord(">"): "\\u003E",
    ord("&"): "\\u0026",
    ord("\u2028"): "\\u2028",
    ord("\u2029"): "\\u2029",
}


def json_for_script(data: object) -> Markup:
    """`data` as the text of a non-executable JSON script element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.translate(_SCRIPT_ESCAPES))  # noqa: S704 - escaped just above


@dataclass(frozen=True, kw_only=True)
class PageMeta:
    title: str
    description: str
    site_name: str
    lang: str
    dir: str
    og_locale: str
    # (hreflang, absolute URL) of the page in each language, linked when it has a canonical URL.
    alternates: tuple[tuple[str, str], ...]
    canonical_url: str | None
    image_url: str
    # schema.org JSON-LD, already escaped for a script element.
    structured_data: Markup | None


class DocumentTemplate:
    def __init__(self, assets: AssetManifest, *, vitals_endpoint: str | None = None) -> None:
        self._assets = assets
        # Where browsers send web vitals; None: the page tells them not to.
        self._vitals_endpoint = vitals_endpoint
        environment = Environment(
            loader=FileSystemLoader(Path(__file__).resolve().parent.parent / "templates"),
            autoescape=select_autoescape(default=True),
            trim_blocks=True,
            lstrip_blocks=True,
        )
        environment.globals["theme_colour"] = THEME["colour"]
        self._template = environment.get_template("page.html")
        self._fallback = environment.get_template("fallback.html")

    def render(self, *, meta: PageMeta, body_html: str, page_data_json: Markup) -> str:
        return self._template.render(
            meta=meta,
            assets=self._assets,
            # React escaped the body when it rendered it.
            body_html=Markup(body_html),  # noqa: S704
            page_data_json=page_data_json,
            vitals_endpoint=self._vitals_endpoint,
        )

    def render_fallback(self, *, meta: PageMeta, **text: Any) -> str:  # noqa: ANN401
        """A page with no React in it, for when rendering failed: header, headings, way home."""
        return self._fallback.render(meta=meta, assets=self._assets, **text)
