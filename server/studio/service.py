"""The studio's changes, no HTTP in them: what staff type, checked by the form and then by the
site's own rules; entries created, updated, deleted and reordered, with their photos. Each change
is audited and expires the pages' cache of its collection, so the site shows it at once."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from server.content.models import (
    DETAILS,
    EMPTY,
    OPTIONAL_FIELDS,
    POSITION_FIELD,
    REQUIRED_FIELDS,
    Collection,
    ContentItem,
    field_problems,
    linked_photos,
    parse_document,
    site_order,
)
from server.content.photo_policy import PhotoUrlPolicy
from server.studio.documents import Changed, StudioContent
from server.studio.fields import Conflict, FieldError, Invalid, PhotoInput
from server.studio.forms import CollectionForm
from server.studio.photo_store import PhotoStore
from server.studio.photos import photo_limits


def model_errors(
    collection: Collection, fields: Mapping[str, Any], photo_urls: PhotoUrlPolicy
) -> dict[str, FieldError]:
    """The site's own rules (server/content/models.py) on the document about to be written."""
    return {
        name.replace("photoUrl", "photo"): FieldError("not_accepted", {"detail": message})
        for name, message in field_problems(collection, fields, photo_urls).items()
    }


def free_id(wanted: str, taken: set[str]) -> str:
    """`wanted`, or `wanted-2`, `wanted-3`... the first not taken."""
    candidate, number = wanted, 2
    while candidate in taken:
        candidate, number = f"{wanted}-{number}", number + 1
    return candidate


audit = logging.getLogger("server.studio.audit")


def audited(who: str, action: str, collection: str, document: str) -> None:
    """One line per change: who, what, which document (with LOG_FORMAT=json, as fields)."""
    line = {"studio_action": action, "who": who, "collection": collection, "document": document}
    audit.info("%s %s %s/%s", who, action, collection, document, extra=line)


class Missing(Exception):
    """No entry of that id."""


@dataclass(frozen=True)
class StudioService:
    content: StudioContent
    photos: PhotoStore
    photo_urls: PhotoUrlPolicy
    photo_max_bytes: int
    # The pages' cache reads the collection again at once rather than after its period.
    changed: Callable[[Collection], None]

    async def in_site_order(self, collection: Collection) -> list[tuple[str, dict[str, Any]]]:
        """The entries in the order the site shows them: the order staff arrange."""
        documents = await self.content.documents(collection)
        return sorted(documents, key=lambda document: site_order(document[1]))

    async def existing(
        self, collection: Collection, document_id: str
    ) -> tuple[dict[str, Any], str]:
        """The entry's fields and version, or Missing."""
        if found := await self.content.document(collection, document_id):
            return found
        raise Missing(document_id)

    async def parsed(self, collection: Collection, document_id: str) -> ContentItem | None:
        """The entry as the site would show it, or None (gone, or not fit to show)."""
        if found := await self.content.document(collection, document_id):
            return parse_document(collection, document_id, found[0], self.photo_urls)
        return None

    async def create(
        self,
        who: str,
        form: CollectionForm,
        values: dict[str, Any],
        uploads: Mapping[str, PhotoInput],
    ) -> str:
        """The new entry's id; Invalid when nothing was written."""
        collection = form.collection
        errors = form.errors(values)
        wanted = form.wanted_id(values, uploads["photo"].file_stem)
        if not wanted and "name" not in errors:
            errors["name"] = FieldError("no_id")
        limits = photo_limits(self.photo_max_bytes)
        async with self.photos.for_the_form(collection, uploads, errors, limits) as photos:
            if "photo" not in photos and "photo" not in errors:
                errors["photo"] = FieldError("photo_required")
            if errors:
                raise Invalid(errors)
            taken = {doc_id for doc_id, _ in await self.content.documents(collection)}
            document_id = free_id(wanted, taken)
            async with self.photos.stored(collection, document_id, photos) as urls:
                document = {**values, **form.photo_fields(urls, values, {})}
                # The files' usual order of fields, empty optional ones left out.
                order = (*REQUIRED_FIELDS[collection], *OPTIONAL_FIELDS[collection])
                fields = {
                    name: document[name]
                    for name in (*order, *DETAILS[collection])
                    if document.get(name) not in EMPTY
                }
                errors = model_errors(collection, fields, self.photo_urls)
                if not errors and not await self.content.create(collection, document_id, fields):
                    errors = {"name": FieldError("not_accepted", {"detail": "id taken"})}
                if errors:
                    raise Invalid(errors)
        self._done(who, "create", collection, document_id)
        return document_id

    async def update(
        self,
        who: str,
        form: CollectionForm,
        document_id: str,
        values: dict[str, Any],
        uploads: Mapping[str, PhotoInput],
        opened_version: str,
    ) -> bool:
        """Whether anything was written (a slide saved without a new photo: no); else Invalid,
        Conflict (saved by someone else since the form opened) or Missing."""
        collection = form.collection
        current, version = await self.existing(collection, document_id)
        errors = form.errors(values)
        limits = photo_limits(self.photo_max_bytes)
        async with self.photos.for_the_form(collection, uploads, errors, limits) as photos:
            if opened_version != version:
                raise Conflict(current, version)
            if errors:
                raise Invalid(errors, version, current)
            if not values and not photos:
                return False
            async with self.photos.stored(collection, document_id, photos) as urls:
                fields = {**values, **form.photo_fields(urls, values, current)}
                after = {k: v for k, v in {**current, **fields}.items() if v not in EMPTY}
                errors = model_errors(collection, after, self.photo_urls)
                if errors:
                    raise Invalid(errors, version, current)
                try:
                    written = await self.content.update(
                        collection, document_id, fields, version=version
                    )
                except Changed:  # saved by someone else a moment ago
                    raise Conflict(*await self.existing(collection, document_id)) from None
                if not written:
                    raise Missing(document_id)
        # The old photos go only once the document points at the new ones.
        await self._discard_unused(collection, linked_photos(current) - linked_photos(after))
        self._done(who, "update", collection, document_id)
        return True

    async def delete(
        self, who: str, collection: Collection, document_id: str, version: str
    ) -> None:
        """The entry and its photo removed; Conflict when it changed since the question."""
        try:
            removed = await self.content.delete(collection, document_id, version=version)
        except Changed:
            raise Conflict(*await self.existing(collection, document_id)) from None
        if removed is None:
            raise Missing(document_id)
        await self._discard_unused(collection, linked_photos(removed))
        self._done(who, "delete", collection, document_id)

    async def move(self, who: str, collection: Collection, document_id: str, *, up: bool) -> None:
        """One place up or down in the site's order; every entry then has a position."""
        documents = await self.in_site_order(collection)
        ids = [doc_id for doc_id, _ in documents]
        if document_id not in ids:
            raise Missing(document_id)
        here = ids.index(document_id)
        there = here - 1 if up else here + 1
        if 0 <= there < len(ids):
            documents[here], documents[there] = documents[there], documents[here]
        # Tens, so an edit in the Firebase console can slot an entry between two.
        changed = {
            doc_id: 10 * place
            for place, (doc_id, fields) in enumerate(documents, 1)
            if fields.get(POSITION_FIELD) != 10 * place
        }
        if changed:
            await self.content.set_positions(collection, changed)
            self._done(who, "move", collection, document_id)

    def _done(self, who: str, action: str, collection: Collection, document_id: str) -> None:
        audited(who, action, collection.firestore_name, document_id)
        self.changed(collection)

    async def _discard_unused(self, collection: Collection, photo_urls: set[str]) -> None:
        for photo_url in photo_urls:
            if not await self.content.photo_in_use(photo_url):
                await self.photos.discard(collection, photo_url)
