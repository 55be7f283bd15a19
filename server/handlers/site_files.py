"""The files crawlers and browsers ask the site root for: robots, sitemap, icons, manifest."""

from __future__ import annotations

import json
from pathlib import Path
from xml.sax.saxutils import escape

from starlette.requests import Request
from starlette.responses import FileResponse, Response

from server.content.cache import ContentCache
from server.content.models import CardItem
from server.http.caching import PAGE, SITE_FILE
from server.site.company import Company
from server.site.facts import THEME
from server.site.languages import LOCALES
from server.site.pages import LANDING, LIST_PAGES, PAGES, ItemPage, SitePage

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
_SITE_FILE = {"Cache-Control": SITE_FILE}
ICONS = ("favicon.ico", "icon.svg", "apple-touch-icon.png", "icon-192.png", "icon-512.png")


class SiteFiles:
    def __init__(self, company: Company, base_url: str) -> None:
        self._base_url = base_url
        # The staff studio is no page for search engines (it also says noindex).
        self._robots = (
            f"User-agent: *\nAllow: /\nDisallow: /studio\n\nSitemap: {base_url}/sitemap.xml\n"
        )
        # The content versions the sitemap was made from, and the sitemap.
        self._sitemap: tuple[tuple[int, ...], str] | None = None
        icons = [
            {"src": f"/icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png"} for n in (192, 512)
        ]
        self._manifest = json.dumps(
            {
                "name": company.name,
                "short_name": company.short_name,
                "start_url": LANDING.path,
                "display": "standalone",
                "background_color": THEME["background"],
                "theme_color": THEME["colour"],
                "icons": [*icons, {**icons[1], "purpose": "maskable"}],
            },
            indent=2,
        )

    async def robots(self, _request: Request) -> Response:
        return Response(self._robots, media_type="text/plain", headers=_SITE_FILE)

    async def sitemap(self, request: Request) -> Response:
        content: ContentCache = request.state.content
        collections = dict.fromkeys(page.cards for page in LIST_PAGES if page.cards)
        snapshots = {collection: await content.get(collection) for collection in collections}
        versions = tuple(snapshot.version for snapshot in snapshots.values())
        if self._sitemap is None or self._sitemap[0] != versions:
            # Every page in every language, each list page followed by its cards' pages.
            pages: list[SitePage | ItemPage] = []
            for page in PAGES:
                items = snapshots[page.cards].items if page.cards else ()
                pages += [page, *(ItemPage(page, i.id) for i in items if isinstance(i, CardItem))]
            self._sitemap = (versions, self._sitemap_xml(pages))
        # Cached as the pages are: it changes when they do.
        headers = {"Cache-Control": PAGE}
        return Response(self._sitemap[1], media_type="application/xml", headers=headers)

    async def manifest(self, _request: Request) -> Response:
        return Response(self._manifest, media_type="application/manifest+json", headers=_SITE_FILE)

    async def icon(self, request: Request) -> Response:
        # Routed for the names in ICONS only.
        return FileResponse(STATIC_DIR / request.url.path.lstrip("/"), headers=_SITE_FILE)

    def _sitemap_xml(self, pages: list[SitePage | ItemPage]) -> str:
        entries = []
        for page in pages:
            alternates = "".join(
                f'    <xhtml:link rel="alternate" hreflang="{locale.code}"'
                f' href="{escape(self._base_url + page.in_locale(locale).path)}"/>\n'
                for locale in LOCALES
            )
            loc = escape(self._base_url + page.path)
            entries.append(f"  <url>\n    <loc>{loc}</loc>\n{alternates}  </url>\n")
        return (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
            ' xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
            f"{''.join(entries)}</urlset>\n"
        )
