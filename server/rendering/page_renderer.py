"""Fetch a page's content, render it in V8, wrap it in the HTML document.

A page is rendered once per change of what it shows (page_cache.py); a request
answered from that cache does nothing that grows with the number of items.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from server.company import Company
from server.content.cache import ContentCache, Snapshot
from server.content.models import CardItem, Collection, ContentItem
from server.i18n import DEFAULT_LOCALE, LOCALES, messages
from server.images.urls import PhotoKeys
from server.images.variants import SOCIAL
from server.rendering.document import DocumentTemplate, PageMeta, json_for_script
from server.rendering.page_cache import RenderedPage, RenderedPageCache
from server.rendering.render_pool import RenderPool
from server.seo import structured_data
from server.site_map import COLLABRATIONS, LANDING, PROJECTS, ItemPage, SitePage

# The header's links, as English paths, for the plain fallback page.
NAV_PATHS = {
    "projects": PROJECTS.english_path,
    "collabrations": COLLABRATIONS.english_path,
    "about": LANDING.english_path + "#about",
    "contact": LANDING.english_path + "#contact",
}

# The picture shown when a page is shared (Open Graph, Twitter cards).
SOCIAL_IMAGE_PATH = "/images/og-default.jpg"
# An item's name and description in its page's title and description: search
# results and link previews show less, and a document's text can be long.
MAX_TITLE_NAME = 100
MAX_DESCRIPTION = 300


class UnknownItem(Exception):
    """No card of the collection has this id."""

    def __init__(self, item_id: str, *, other_case: str | None) -> None:
        super().__init__(item_id)
        # The one id that differs from the one asked for only in case, if any.
        self.other_case = other_case


class ContentUnavailable(Exception):
    """The collection could not be read and nothing was read before."""


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
        company: Company,
        base_url: str,
        photo_keys: PhotoKeys,
        cache_bytes: int,
    ) -> None:
        self._content = content
        self._pool = pool
        self._document = document
        self._company = company
        self._base_url = base_url
        self._photo_keys = photo_keys
        # With a bound of 0 (HTML_CACHE=off), no page is kept.
        self._pages = RenderedPageCache(max_bytes=cache_bytes)

    async def render(self, page: SitePage | ItemPage, *, encoding: str | None = None) -> PageRender:
        """The page's HTML in `encoding` (br, gzip or None). An item page (its list
        page with the card's modal open) raises UnknownItem when the collection has
        no such id, ContentUnavailable when it cannot be read; RenderError when
        React fails in V8."""
        list_page = page.list_page
        snapshots = await asyncio.gather(*(self._content.get(c) for c in list_page.collections))
        versions = tuple(snapshot.version for snapshot in snapshots)
        # Consumed once, by whichever keys_for runs.
        photo_urls = (item.photoUrl for snapshot in snapshots for item in snapshot.items)
        # A page is what it was made from: the content's versions, and the photos'
        # keys, which change with the image files. Without a generation of the
        # image folder, the keys (a stat per local photo) come before the lookup.
        generation = self._photo_keys.generation
        keys = None if generation is not None else await self._photo_keys.keys_for(photo_urls)
        identity = (versions, generation if keys is None else keys)
        cached = self._pages.get(page.path, identity)
        if cached is not None:
            return self._answer(page.path, cached, encoding, from_cache=True)
        card = self._card(page, snapshots) if isinstance(page, ItemPage) else None
        if keys is None:
            keys = await self._photo_keys.keys_for(photo_urls)
        data = self._page_data(list_page, snapshots, keys)
        # The path tells the React router which card, if any, is open.
        body_html = await self._pool.render(page.path, json.dumps(data, ensure_ascii=False))
        rendered = RenderedPage.from_html(
            self._document.render(
                meta=self._meta(page, snapshots, card, keys),
                body_html=body_html,
                page_data_json=json_for_script(data),
            )
        )
        self._pages.put(page.path, identity, rendered)
        return self._answer(page.path, rendered, encoding, from_cache=False)

    def _answer(
        self, path: str, page: RenderedPage, encoding: str | None, *, from_cache: bool
    ) -> PageRender:
        body, encoded_as = self._pages.encoded(path, page, encoding)
        return PageRender(page, body, encoded_as, from_cache=from_cache)

    def _card(self, item_page: ItemPage, snapshots: list[Snapshot]) -> CardItem:
        collection = item_page.collection
        snapshot = snapshots[item_page.list_page.collections.index(collection)]
        card = next(
            (c for c in snapshot.items if isinstance(c, CardItem) and c.id == item_page.item_id),
            None,
        )
        if card is None:
            if snapshot.error is not None:
                raise ContentUnavailable(snapshot.error)
            # The one id equal to the one asked for but for case (a link typed by hand).
            asked = item_page.item_id
            others = {i.id for i in snapshot.items if i.id.casefold() == asked.casefold()} - {asked}
            raise UnknownItem(asked, other_case=others.pop() if len(others) == 1 else None)
        return card

    def render_fallback(self, page: SitePage, *, encoding: str | None = None) -> PageRender:
        """The plain page for when React failed: no V8, no content, never cached."""
        fallback = RenderedPage.from_html(
            self._document.render_fallback(
                meta=self._meta(page, []),
                company_name=self._company.text("short_name", page.locale),
                headings=page.headings,
                text=messages(page.locale),
                home_path=page.locale.path("/"),
                paths={key: page.locale.path(path) for key, path in NAV_PATHS.items()},
            )
        )
        return self._answer(page.path, fallback, encoding, from_cache=False)

    def _page_data(
        self, page: SitePage, snapshots: list[Snapshot], photo_keys: Mapping[str, str]
    ) -> dict[str, Any]:
        """What the page shows and the browser hydrates with (ui/types.ts: PageData)."""
        return {
            "company": self._company.for_page(page.locale),
            # Where the public reaches the site: the address a card's Share gives.
            "siteUrl": self._base_url,
            "content": {
                collection.page_key: items_for_page(snapshot.items, photo_keys)
                for collection, snapshot in zip(page.collections, snapshots, strict=True)
            },
        }

    def _meta(
        self,
        page: SitePage | ItemPage,
        snapshots: list[Snapshot],
        card: CardItem | None = None,
        keys: Mapping[str, str] | None = None,
    ) -> PageMeta:
        """Title, description, addresses, picture and JSON-LD; an item's page has its own."""
        list_page = page.list_page
        locale = list_page.locale
        company_name = self._company.text("name", locale)
        nodes = [structured_data.organization(self._company, self._base_url, locale)]
        if card is None or not isinstance(page, ItemPage):
            title = list_page.document_title(company_name)
            description = list_page.description
            image = self._base_url + SOCIAL_IMAGE_PATH
            nodes += [
                structured_data.item_list(snapshot.items, self._base_url, list_page)
                for collection, snapshot in zip(list_page.collections, snapshots, strict=False)
                if collection is not Collection.SLIDER
            ]
        else:
            title = page.document_title(
                company_name, shortened(card.localized_name(locale), MAX_TITLE_NAME)
            )
            description = shortened(card.localized_description(locale), MAX_DESCRIPTION)
            photo_key = (keys or {}).get(card.photoUrl)
            # Through the image route when it takes the photo: a 1200 px JPEG any
            # link preview reads, not the original, which may be megabytes.
            image = (
                f"{self._base_url}/img/{SOCIAL}/{photo_key}"
                if photo_key is not None
                else structured_data.absolute(self._base_url, card.photoUrl)
            )
            nodes.append(
                structured_data.card_page(
                    card,
                    url=self._base_url + page.path,
                    image=image,
                    base_url=self._base_url,
                    list_page=list_page,
                )
            )
        # No canonical URL, alternates or JSON-LD for a page search engines should not index.
        indexed = list_page.key != "notFound"
        # The same page in every language, English as the default (hreflang).
        alternates = [(locale.code, page.in_locale(locale)) for locale in LOCALES]
        alternates.append(("x-default", page.in_locale(DEFAULT_LOCALE)))
        catalogue = messages(locale)["meta"]
        return PageMeta(
            title=title,
            description=description,
            site_name=company_name,
            lang=catalogue["lang"],
            dir=catalogue["dir"],
            og_locale=catalogue["ogLocale"],
            canonical_url=self._base_url + page.path if indexed else None,
            alternates=tuple((code, self._base_url + other.path) for code, other in alternates),
            image_url=image,
            structured_data=json_for_script({"@context": "https://schema.org", "@graph": nodes})
            if indexed
            else None,
        )


def shortened(text: str, limit: int) -> str:
    """`text` on one line, cut at a word before `limit` characters when longer."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:.") + "…"


def empty_page_data(company: Company) -> dict[str, Any]:
    """Page data with no content: what a page shows when every read failed."""
    return {"company": company.for_page(), "content": {}}


def items_for_page(
    items: tuple[ContentItem, ...], photo_keys: Mapping[str, str]
) -> list[dict[str, str]]:
    """The items as the page shows them: the fields they have, and `photoKey`
    for the image route (server/images/urls.py) when the photo has one."""
    return [
        {
            **item.fields(),
            **({"photoKey": photo_keys[item.photoUrl]} if item.photoUrl in photo_keys else {}),
        }
        for item in items
    ]
