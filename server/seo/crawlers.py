"""robots.txt and sitemap.xml, from the routes and the public base URL."""

from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import escape

from server.site_map import SitePage


def robots_txt(base_url: str) -> str:
    return f"User-agent: *\nAllow: /\n\nSitemap: {base_url}/sitemap.xml\n"


def sitemap_xml(base_url: str, pages: Iterable[SitePage]) -> str:
    urls = "".join(f"  <url><loc>{escape(base_url + page.path)}</loc></url>\n" for page in pages)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{urls}</urlset>\n"
    )
