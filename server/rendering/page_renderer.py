"""Fetch a page's content, render it in V8, wrap it in the HTML document.

A page is rendered once per change of what it shows (page_cache.py); a request
answered from that cache does nothing that grows with the number of items.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

from server.compression import compress, encoding_for
from server.content.cache import ContentCache
from server.rendering.document import DocumentTemplate, json_for_script
from server.rendering.page_cache import RenderedPage, RenderedPageCache
from server.rendering.page_content import PageContent, shown_item
from server.rendering.render_pool import RenderPool
from server.site_map import Page, SitePage


@dataclass(frozen=True)
class PageRender:
    page: RenderedPage
    # The page's HTML in `encoding` (None: as it is), the one asked for when it is worth it.
    body: bytes
    encoding: str | None
    # The page came from the cache of rendered pages, without a render in V8.
    from_cache: bool


class PageRenderer:
    def __init__(
        self,
        *,
        content: ContentCache,
        pool: RenderPool,
        document: DocumentTemplate,
        page_content: PageContent,
        cache_bytes: int,
    ) -> None:
        self._content = content
        self._pool = pool
        self._document = document
        self._page_content = page_content
        self._photo_keys = page_content.photo_keys
        # With a bound of 0 (HTML_CACHE=off), no page is kept.
        self._pages = RenderedPageCache(max_bytes=cache_bytes)

    async def render(self, page: Page, *, encoding: str | None = None) -> PageRender:
        """The page's HTML in `encoding` (br, gzip or None). An item page (its list
        page with the card's modal open) raises UnknownItem when the collection has
        no such id, ContentUnavailable when it cannot be read; RenderError when
        React fails in V8."""
        snapshots = await asyncio.gather(*(self._content.get(c) for c in page.collections))
        versions = tuple(snapshot.version for snapshot in snapshots)
        # Consumed once, by whichever keys_for runs.
        items = (item for snapshot in snapshots for item in snapshot.items)
        photo_urls = (url for item in items for url in item.photo_urls)
        # A page is what it was made from: the content's versions, and the photos'
        # keys, which change with the image files. Without a generation of the
        # image folder, the keys (a stat per local photo) come before the lookup.
        generation = self._photo_keys.generation
        keys = None if generation is not None else await self._photo_keys.keys_for(photo_urls)
        identity = (versions, generation if keys is None else keys)
        cached = self._pages.get(page.path, identity)
        if cached is not None:
            return self._answer(page.path, cached, encoding, from_cache=True)
        item = shown_item(page, snapshots)
        if keys is None:
            keys = await self._photo_keys.keys_for(photo_urls)
        data = self._page_content.data(page, snapshots, keys)
        # The path tells the React router which card, if any, is open.
        body_html = await self._pool.render(page.path, json.dumps(data, ensure_ascii=False))
        rendered = RenderedPage.from_html(
            self._document.render(
                meta=self._page_content.meta(page, snapshots, keys, item),
                body_html=body_html,
                page_data_json=json_for_script(data),
            )
        )
        self._pages.put(page.path, identity, rendered)
        return self._answer(page.path, rendered, encoding, from_cache=False)

    async def render_form(
        self, page: Page, form: dict[str, Any], *, encoding: str | None = None
    ) -> PageRender:
        """A page holding a form (the enquiry page): its values, problems and token in the page
        data, so it is rendered for each request and never kept."""
        data = {**self._page_content.data(page, [], {}), "enquiry": form}
        body_html = await self._pool.render(page.path, json.dumps(data, ensure_ascii=False))
        html = self._document.render(
            meta=self._page_content.meta(page, [], {}),
            body_html=body_html,
            page_data_json=json_for_script(data),
        )
        rendered = RenderedPage.from_html(html)
        encoding = encoding_for(rendered.html, encoding)
        body = rendered.html if encoding is None else compress(rendered.html, encoding, once=True)
        return PageRender(rendered, body, encoding, from_cache=False)

    def _answer(
        self, path: str, page: RenderedPage, encoding: str | None, *, from_cache: bool
    ) -> PageRender:
        body, encoded_as = self._pages.encoded(path, page, encoding)
        return PageRender(page, body, encoded_as, from_cache=from_cache)

    def render_fallback(self, page: SitePage, *, encoding: str | None = None) -> PageRender:
        """The plain page for when React failed: no V8, no content, never cached."""
        content = self._page_content
        fallback = RenderedPage.from_html(
            self._document.render_fallback(
                meta=content.meta(page, [], {}),
                page=page,
                company_name=content.company.text("short_name", page.locale),
            )
        )
        return self._answer(page.path, fallback, encoding, from_cache=False)
