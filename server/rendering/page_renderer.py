"""Fetch a page's content, render it in V8, wrap it in the HTML document. A page is rendered once
per change of what it shows, and kept in memory: at most HTML_CACHE_MB, the compressed copies made
of it since included, least recently used out. A request answered from that cache does nothing
that grows with the number of items."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from server.content.cache import ContentCache
from server.rendering.document import DocumentTemplate
from server.rendering.page_content import PageContent, PageMeta, shown_item
from server.rendering.render_pool import RenderError, RenderPool
from server.site.pages import Page

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RenderedPage:
    html: bytes
    etag: str
    # The page's HTML in each encoding asked for so far (server/http/compression.py).
    copies: dict[str, bytes] = field(default_factory=dict, compare=False)

    @classmethod
    def from_html(cls, html: str) -> RenderedPage:
        body = html.encode("utf-8")
        tag = base64.urlsafe_b64encode(hashlib.sha256(body).digest()[:16]).decode().rstrip("=")
        return cls(html=body, etag=f'"{tag}"')

    @property
    def size_bytes(self) -> int:
        return len(self.html) + sum(len(body) for body in self.copies.values())


class RenderedPageCache:
    def __init__(self, *, max_bytes: int) -> None:
        self._max_bytes = max_bytes
        # Path -> (what the page was made from, the page), least recently used first.
        self._entries: OrderedDict[str, tuple[object, RenderedPage]] = OrderedDict()

    def get(self, path: str, made_from: object) -> RenderedPage | None:
        entry_made_from, page = self._entries.get(path, (None, None))
        if page is None or entry_made_from != made_from:
            return None
        self._entries.move_to_end(path)
        return page

    def put(self, path: str, made_from: object, page: RenderedPage) -> None:
        self._entries.pop(path, None)
        if page.size_bytes > self._max_bytes:
            return
        self._entries[path] = (made_from, page)
        # Copies made since the last put count now; the page just made stays.
        while self.size_bytes > self._max_bytes and next(iter(self._entries)) != path:
            self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def size_bytes(self) -> int:
        return sum(page.size_bytes for _made_from, page in self._entries.values())


@dataclass(frozen=True)
class PageRender:
    page: RenderedPage
    from_cache: bool = False  # from the cache of rendered pages, without a render in V8
    failed: bool = False  # React failed: `page` is the plain page (never cached)


@dataclass(frozen=True, kw_only=True)
class PageRenderer:
    content: ContentCache
    pool: RenderPool
    document: DocumentTemplate
    page_content: PageContent
    pages: RenderedPageCache  # bounded by HTML_CACHE_MB; 0 (HTML_CACHE=off) keeps no page

    async def render(self, page: Page) -> PageRender:
        """The page. An item page (its list page with the card's modal open) raises
        UnknownItem when the collection has no such id, ContentUnavailable when it cannot
        be read; when React fails in V8, the plain page is the answer."""
        snapshots = await asyncio.gather(*(self.content.get(c) for c in page.reads))
        versions = tuple(snapshot.version for snapshot in snapshots)
        # Consumed once, by whichever keys_for runs.
        items = (item for snapshot in snapshots for item in snapshot.items)
        photo_urls = (url for item in items for url in item.photo_urls)
        # A page is what it was made from: the content's versions, and the photos'
        # keys, which change with the image files. Without a generation of the
        # image folder, the keys (a stat per local photo) come before the lookup.
        content = self.page_content
        photo_keys = content.photo_keys
        generation = photo_keys.generation
        keys = None if generation is not None else await photo_keys.keys_for(photo_urls)
        identity = (versions, generation if keys is None else keys)
        cached = self.pages.get(page.path, identity)
        if cached is not None:
            return PageRender(cached, from_cache=True)
        item = shown_item(page, snapshots)
        if keys is None:
            keys = await photo_keys.keys_for(photo_urls)
        data = content.data(page, snapshots, keys)
        rendered = await self._rendered(page, data, content.meta(page, snapshots, keys, item))
        if not rendered.failed:
            self.pages.put(page.path, identity, rendered.page)
        return rendered

    async def render_form(self, page: Page, form: dict[str, Any]) -> PageRender:
        """A page holding a form (the enquiry page): its values, problems and token in the page
        data, so it is rendered for each request and never kept."""
        content = self.page_content
        data = {**content.data(page, [], {}), "enquiry": form}
        return await self._rendered(page, data, content.meta(page, [], {}))

    async def _rendered(self, page: Page, data: dict[str, Any], meta: PageMeta) -> PageRender:
        """React's HTML in the document; the plain page when React fails."""
        try:
            # The path tells the React router which card, if any, is open.
            body_html = await self.pool.render(page.path, json.dumps(data, ensure_ascii=False))
        except RenderError as error:
            logger.error("%s: %s", page.path, error)
            content = self.page_content
            fallback = self.document.render_fallback(
                meta=content.meta(page.list_page, [], {}),
                page=page.list_page,
                company_name=content.company.text("short_name", page.list_page.locale),
            )
            return PageRender(RenderedPage.from_html(fallback), failed=True)
        html = self.document.render(meta=meta, body_html=body_html, page_data=data)
        return PageRender(RenderedPage.from_html(html))
