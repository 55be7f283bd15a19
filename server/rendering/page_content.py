"""What a page is made of besides React and its meta: the data it inlines, the item it shows."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from server.content.cache import Snapshot
from server.content.models import CardItem, Collection, ContentItem
from server.site.company import Company
from server.site.pages import ItemPage, Page


class UnknownItem(Exception):
    """No card of the collection has this id."""

    def __init__(self, item_id: str, *, other_case: str | None) -> None:
        super().__init__(item_id)
        # The one id that differs from the one asked for only in case, if any.
        self.other_case = other_case


class ContentUnavailable(Exception):
    """The collection could not be read and nothing was read before."""


def page_data(
    page: Page,
    snapshots: Sequence[Snapshot],
    keys: Mapping[str, str],
    company: Company,
    base_url: str,
) -> dict[str, Any]:
    """What the page shows and the browser hydrates with (ui/types.ts: PageData): its
    collections, and of the others it reads the names it links (a project's stones)."""
    whole = page.list_page.collections
    data: dict[str, Any] = {
        "company": company.for_page(page.list_page.locale),
        # The address a card's Share gives.
        "siteUrl": base_url,
        "content": {},
        "names": {},
    }
    for collection, snapshot in zip(page.reads, snapshots, strict=True):
        if collection in whole:
            data["content"][collection.page_key] = items_for_page(snapshot.items, keys)
        else:
            # Only stones link (their projects): a project naming none needs no name here.
            data["names"][collection.page_key] = [
                names(item)
                for item in snapshot.items
                if collection is Collection.STONES or item.fields().get("stones")
            ]
    return data


def shown_item(page: Page, snapshots: Sequence[Snapshot]) -> CardItem | None:
    """The card an item page shows (None on other pages): UnknownItem when the
    collection has no such id, ContentUnavailable when it could not be read."""
    if not isinstance(page, ItemPage):
        return None
    snapshot = snapshots[page.reads.index(page.collection)]
    card = next(
        (c for c in snapshot.items if isinstance(c, CardItem) and c.id == page.item_id), None
    )
    if card is None:
        if snapshot.error is not None:
            raise ContentUnavailable(snapshot.error)
        # The one id equal to the one asked for but for case (a link typed by hand).
        asked = page.item_id
        others = {i.id for i in snapshot.items if i.id.casefold() == asked.casefold()} - {asked}
        raise UnknownItem(asked, other_case=others.pop() if len(others) == 1 else None)
    return card


def names(item: ContentItem) -> dict[str, Any]:
    """An item as a page that only links it needs it: its id, names and stones."""
    return {k: v for k, v in item.fields().items() if k in ("id", "stones") or k.startswith("name")}


def empty_page_data(company: Company) -> dict[str, Any]:
    """Page data with no content: what a page shows when every read failed."""
    return {"company": company.for_page(), "content": {}}


def items_for_page(
    items: Iterable[ContentItem], photo_keys: Mapping[str, str]
) -> list[dict[str, Any]]:
    """The items as the page shows them: the fields they have, and `photoKey`
    for the image route (server/images/urls.py) when the photo has one; a
    stone's photos of its finishes have theirs in `finishPhotoKeys`."""
    shown = []
    for item in items:
        fields = item.fields()
        if item.photoUrl in photo_keys:
            fields["photoKey"] = photo_keys[item.photoUrl]
        finish_photos: dict[str, str] = fields.get("finishPhotos", {})
        if keys := {f: photo_keys[url] for f, url in finish_photos.items() if url in photo_keys}:
            fields["finishPhotoKeys"] = keys
        shown.append(fields)
    return shown
