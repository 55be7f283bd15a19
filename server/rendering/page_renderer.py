"""Fetch a page's content, render it in V8, wrap it in the HTML document. A page is rendered once
per change of what it shows (page_cache.py); a request answered from that cache does nothing that
grows with the number of items."""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from typing import Any

from server.content.cache import ContentCache
from server.rendering.document import DocumentTemplate
from server.rendering.page_cache import RenderedPage, RenderedPageCache
from server.rendering.page_content import PageContent, PageMeta, shown_item
from server.rendering.render_pool import RenderError, RenderPool
from server.site.pages import Page

logger = logging.getLogger(__name__)


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
