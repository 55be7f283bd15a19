"""The files crawlers and browsers ask the site root for: robots, sitemap, icons, manifest."""

from __future__ import annotations

import json
from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response

from server.company import Company
from server.http.caching import SITE_FILE
from server.seo.crawlers import robots_txt, sitemap_xml
from server.site_map import PAGES

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
ICONS = ("favicon.ico", "icon.svg", "apple-touch-icon.png", "icon-192.png", "icon-512.png")


class SiteFiles:
    def __init__(self, company: Company, base_url: str) -> None:
        self._robots = robots_txt(base_url)
        self._sitemap = sitemap_xml(base_url, PAGES)
        self._manifest = json.dumps(
            {
                "name": company.name,
                "short_name": company.short_name,
                "start_url": "/",
                "display": "standalone",
                "background_color": "#f8f5f0",
                "theme_color": "#1b1916",
                "icons": [
                    {"src": "/icon-192.png", "sizes": "192x192", "type": "image/png"},
                    {"src": "/icon-512.png", "sizes": "512x512", "type": "image/png"},
                    {
                        "src": "/icon-512.png",
                        "sizes": "512x512",
                        "type": "image/png",
                        "purpose": "maskable",
                    },
                ],
            },
            indent=2,
        )

    async def robots(self, _request: Request) -> Response:
        return Response(self._robots, media_type="text/plain", headers=_cached())

    async def sitemap(self, _request: Request) -> Response:
        return Response(self._sitemap, media_type="application/xml", headers=_cached())

    async def manifest(self, _request: Request) -> Response:
        return Response(self._manifest, media_type="application/manifest+json", headers=_cached())

    async def icon(self, request: Request) -> Response:
        name = request.url.path.lstrip("/")
        if name not in ICONS:
            raise HTTPException(status_code=404)
        return FileResponse(STATIC_DIR / name, headers=_cached())


def _cached() -> dict[str, str]:
    return {"Cache-Control": SITE_FILE}
