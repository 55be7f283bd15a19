"""robots.txt and sitemap.xml, from the routes and the public base URL."""

from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import escape

from server.i18n import LOCALES
from server.site_map import ItemPage, SitePage


def robots_txt(base_url: str) -> str:
    # The staff studio is no page for search engines (it also says noindex).
    return f"User-agent: *\nAllow: /\nDisallow: /studio\n\nSitemap: {base_url}/sitemap.xml\n"


def sitemap_xml(base_url: str, pages: Iterable[SitePage | ItemPage]) -> str:
    """Every page in every language, each naming its translations (hreflang)."""
    entries = []
    for page in pages:
        alternates = "".join(
            f'    <xhtml:link rel="alternate" hreflang="{locale.code}"'
            f' href="{escape(base_url + page.in_locale(locale).path)}"/>\n'
            for locale in LOCALES
        )
        entries.append(
            f"  <url>\n    <loc>{escape(base_url + page.path)}</loc>\n{alternates}  </url>\n"
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
        ' xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
        f"{''.join(entries)}</urlset>\n"
    )
