"""Fetch a page's content, render it in V8, wrap it in the HTML document.

Rendered pages are cached by route and content version: a page is rendered
once per change of the collections it shows, not once per request.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from server.company import Company
from server.content.cache import ContentCache, Snapshot
from server.content.models import ContentItem
from server.images.urls import PhotoKeys
from server.rendering.document import DocumentTemplate, PageMeta
from server.rendering.inline_data import json_for_script
from server.rendering.render_pool import RenderPool
from server.site_map import LANDING, SitePage


@dataclass(frozen=True)
class RenderedPage:
    html: bytes
    etag: str
    # Compressed copies, filled by the HTTP layer the first time each is asked for.
    encoded: dict[str, bytes] = field(default_factory=dict, compare=False)

    @classmethod
    def from_html(cls, html: str) -> RenderedPage:
        body = html.encode("utf-8")
        digest = hashlib.sha256(body).digest()[:16]
        return cls(
            html=body, etag='"' + base64.urlsafe_b64encode(digest).decode().rstrip("=") + '"'
        )


class PageRenderer:
    def __init__(
        self,
        *,
        content: ContentCache,
        pool: RenderPool,
        document: DocumentTemplate,
        company: Company,
        photo_keys: PhotoKeys | None = None,
        cache_pages: bool = True,
    ) -> None:
        self._content = content
        self._pool = pool
        self._document = document
        self._company = company
        self._photo_keys = photo_keys or PhotoKeys.off()
        self._cache_pages = cache_pages
        # One entry per page: what it was rendered from (the content versions
        # and the photos' keys, which change with the image files), and the result.
        self._pages: dict[str, tuple[object, RenderedPage]] = {}

    async def render(self, page: SitePage) -> RenderedPage:
        """The page's HTML; raises RenderError when React fails in V8."""
        snapshots = await asyncio.gather(*(self._content.get(c) for c in page.collections))
        keys = await self._photo_keys.keys_for(
            item.photoUrl for snapshot in snapshots for item in snapshot.items
        )
        made_from = (tuple(snapshot.version for snapshot in snapshots), keys)
        cached = self._pages.get(page.path)
        if cached is not None and cached[0] == made_from:
            return cached[1]
        data = self._page_data(page, snapshots, keys)
        body_html = await self._pool.render(page.path, json.dumps(data, ensure_ascii=False))
        rendered = RenderedPage.from_html(
            self._document.render(
                meta=self.meta(page), body_html=body_html, page_data_json=json_for_script(data)
            )
        )
        if self._cache_pages:
            self._pages[page.path] = (made_from, rendered)
        return rendered

    def render_fallback(self, page: SitePage) -> RenderedPage:
        """The plain page for when React failed: no V8, no content, never cached."""
        return RenderedPage.from_html(
            self._document.render_fallback(
                title=self.meta(page).title,
                company_name=self._company.short_name,
                headings=page.headings,
            )
        )

    def _page_data(
        self, page: SitePage, snapshots: list[Snapshot], photo_keys: Mapping[str, str]
    ) -> dict[str, Any]:
        """What the page shows and the browser hydrates with (ui/types.ts: PageData)."""
        return {
            "company": self._company.for_page(),
            "content": {
                collection.page_key: items_for_page(snapshot.items, photo_keys)
                for collection, snapshot in zip(page.collections, snapshots, strict=True)
            },
        }

    def meta(self, page: SitePage) -> PageMeta:
        name = self._company.name
        title = f"{name}: {page.title}" if page is LANDING else f"{page.title} | {name}"
        return PageMeta(title=title, description=page.description, ui_module=page.ui_module)


def empty_page_data(company: Company) -> dict[str, Any]:
    """Page data with no content: what a page shows when every read failed."""
    return {"company": company.for_page(), "content": {}}


def items_for_page(
    items: tuple[ContentItem, ...] | list[ContentItem],
    photo_keys: Mapping[str, str] | None = None,
) -> list[dict[str, str]]:
    """The items as the page shows them: their fields, and `photoKey` for the image
    route (server/images/urls.py) when the photo has one."""
    keys = photo_keys or {}
    return [
        {**asdict(item), "photoKey": keys[item.photoUrl]} if item.photoUrl in keys else asdict(item)
        for item in items
    ]
