"""Fetch a page's content, render it in V8, wrap it in the HTML document."""

from __future__ import annotations

import asyncio
import json
from dataclasses import asdict
from typing import Any

from server.company import Company
from server.content.loading import load_collection
from server.content.models import ContentItem
from server.content.store import ContentStore
from server.rendering.document import DocumentTemplate, PageMeta
from server.rendering.inline_data import json_for_script
from server.rendering.render_pool import RenderPool
from server.site_map import LANDING, SitePage


class PageRenderer:
    def __init__(
        self,
        *,
        store: ContentStore,
        pool: RenderPool,
        document: DocumentTemplate,
        company: Company,
    ) -> None:
        self._store = store
        self._pool = pool
        self._document = document
        self._company = company

    async def page_data(self, page: SitePage) -> dict[str, Any]:
        """What the page shows and the browser hydrates with (ui/types.ts: PageData)."""
        lists = await asyncio.gather(
            *(load_collection(self._store, collection) for collection in page.collections)
        )
        return {
            "company": self._company.for_page(),
            "content": {
                collection.page_key: items_for_page(items)
                for collection, items in zip(page.collections, lists, strict=True)
            },
        }

    async def render(self, page: SitePage, url: str) -> str:
        data = await self.page_data(page)
        body_html = await self._pool.render(url, json.dumps(data, ensure_ascii=False))
        return self._document.render(
            meta=self.meta(page), body_html=body_html, page_data_json=json_for_script(data)
        )

    def meta(self, page: SitePage) -> PageMeta:
        name = self._company.name
        title = f"{name}: {page.title}" if page is LANDING else f"{page.title} | {name}"
        return PageMeta(title=title, description=page.description)


def empty_page_data(company: Company) -> dict[str, Any]:
    """Page data with no content: what a page shows when every read failed."""
    return {"company": company.for_page(), "content": {}}


def items_for_page(items: list[ContentItem]) -> list[dict[str, str]]:
    return [asdict(item) for item in items]
