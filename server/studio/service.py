"""The studio's changes, no HTTP in them: what staff type, checked field by field and then by the
site's own rules; entries created, updated, deleted and reordered; their photos stored, held for a
form that comes back, removed once nothing links them. Each change is audited and expires the
pages' cache of its collection, so the site shows it at once.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from server.content.models import (
    OPTIONAL_FIELDS,
    POSITION_FIELD,
    REQUIRED_FIELDS,
    Collection,
    ContentItem,
    field_problems,
    parse_document,
    site_order,
)
from server.content.photo_urls import PhotoUrlPolicy
from server.i18n import DEFAULT_LOCALE, Locale, locale_named
from server.studio.content import Changed, StudioContent
from server.studio.photos import (
    MAX_PIXELS,
    CheckedPhoto,
    PhotoProblem,
    PhotoStore,
    check_photo,
    preview_data_url,
)

Documents = list[tuple[str, dict[str, Any]]]
# Long enough for any real name and description in any language; a card shows far less.
MAX_LENGTHS = {"name": 120, "description": 2000}
MAX_ID_LENGTH = 60


@dataclass(frozen=True)
class FieldError:
    """A key of the studio's messages (ui/i18n/, "studio") and its values, shown by the field."""

    key: str
    values: Mapping[str, object] = field(default_factory=dict)


def text_fields(collection: Collection) -> tuple[str, ...]:
    """The fields typed into the form (the photo is uploaded)."""
    return tuple(
        name
        for name in (*REQUIRED_FIELDS[collection], *OPTIONAL_FIELDS[collection])
        if name != "photoUrl"
    )


def field_locale(name: str) -> tuple[str, Locale]:
    """The English field of a form field, and its language: description_fr -> (description, fr)."""
    english, _, code = name.rpartition("_")
    locale = locale_named(code) if english else None
    return (english, locale) if locale is not None else (name, DEFAULT_LOCALE)


def max_length(name: str) -> int:
    return MAX_LENGTHS.get(field_locale(name)[0], 2000)


def read_text_fields(collection: Collection, form: Mapping[str, object]) -> dict[str, str]:
    values = {}
    for name in text_fields(collection):
        value = form.get(name)
        # Line endings as browsers send them (\r\n) would land in the JSON.
        values[name] = value.replace("\r\n", "\n").strip() if isinstance(value, str) else ""
    return values


def text_errors(collection: Collection, values: Mapping[str, str]) -> dict[str, FieldError]:
    errors: dict[str, FieldError] = {}
    for name in text_fields(collection):
        value = values.get(name, "")
        if name in REQUIRED_FIELDS[collection] and not value:
            errors[name] = FieldError("required")
        elif len(value) > max_length(name):
            errors[name] = FieldError("too_long", {"limit": max_length(name)})
    return errors


def model_errors(
    collection: Collection, fields: Mapping[str, str], photo_urls: PhotoUrlPolicy
) -> dict[str, FieldError]:
    """The site's own rules (server/content/models.py) on the document about to be written."""
    return {
        name.replace("photoUrl", "photo"): FieldError("not_accepted", {"detail": message})
        for name, message in field_problems(collection, fields, photo_urls).items()
    }


def make_id(name: str) -> str:
    """The id a new document gets from its English name: "Dead Sea Lobby" -> "dead-sea-lobby"."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    return slug[:MAX_ID_LENGTH].rstrip("-")


def free_id(wanted: str, taken: set[str]) -> str:
    """`wanted`, or `wanted-2`, `wanted-3`... the first not taken."""
    candidate, number = wanted, 2
    while candidate in taken:
        candidate, number = f"{wanted}-{number}", number + 1
    return candidate


# One line per change: who, what, which document (with LOG_FORMAT=json, as fields).
audit = logging.getLogger("server.studio.audit")


@dataclass(frozen=True)
class PhotoInput:
    """The form's photo as sent: its bytes (none chosen: empty), or too large to be read."""

    data: bytes = b""
    file_stem: str = ""  # the phone's file name, without its extension: a slide's id
    too_big: bool = False
    held: str = ""  # the name of a photo held for this form (HeldPhoto)


@dataclass(frozen=True)
class HeldPhoto:
    """A good photo sent with a form that came back, held until the form's Save."""

    name: str
    preview: str  # a small copy, as a data: URL


class Missing(Exception):
    """No entry of that id."""


@dataclass
class Invalid(Exception):
    """Nothing written: each field's mistake; an existing entry's version and photo now."""

    errors: Mapping[str, FieldError]
    version: str = ""
    photo_url: str = ""
    kept: HeldPhoto | None = None


@dataclass
class Conflict(Exception):
    """Nothing written: the entry changed since its form opened; theirs, as it is now."""

    theirs: dict[str, Any]
    version: str
    kept: HeldPhoto | None = None

    @property
    def photo_url(self) -> str:
        return str(self.theirs.get("photoUrl", ""))


class StudioService:
    def __init__(
        self,
        *,
        content: StudioContent,
        photos: PhotoStore,
        photo_urls: PhotoUrlPolicy,
        photo_max_bytes: int,
        changed: Callable[[Collection], None],
    ) -> None:
        self.content = content
        self.photos = photos
        self.photo_max_bytes = photo_max_bytes
        self._photo_urls = photo_urls
        # The pages' cache reads the collection again at once rather than after its period.
        self._changed = changed

    @property
    def limits(self) -> dict[str, object]:
        """The photo limits, as the messages state them."""
        return {"mb": f"{self.photo_max_bytes / 1_000_000:g}", "mp": MAX_PIXELS // 1_000_000}

    async def in_site_order(self, collection: Collection) -> Documents:
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
            return parse_document(collection, document_id, found[0], self._photo_urls)
        return None

    async def create(
        self, who: str, collection: Collection, values: dict[str, str], photo_input: PhotoInput
    ) -> str:
        """The new entry's id; Invalid when nothing was written."""
        errors = text_errors(collection, values)
        # A slide has no name: its photo's file name, or "slide" when that has no Latin letter.
        wanted = make_id(values.get("name") or photo_input.file_stem) or (
            "slide" if collection is Collection.SLIDER else ""
        )
        if not wanted and "name" not in errors:
            errors["name" if collection is not Collection.SLIDER else "photo"] = FieldError("no_id")
        photo, held = await self._chosen_photo(collection, photo_input, errors, required=True)
        async with self._held_if_refused(collection, photo, held):
            if errors or photo is None:
                raise Invalid(errors)
            taken = {doc_id for doc_id, _ in await self.content.documents(collection)}
            document_id = free_id(wanted, taken)
            photo_url = await self.photos.store(collection, document_id, photo)
            async with self._discarded_unless_written(collection, photo_url):
                document = {**values, "photoUrl": photo_url}
                # The files' usual order of fields, empty optional ones left out.
                fields = {
                    name: document[name]
                    for name in (*REQUIRED_FIELDS[collection], *OPTIONAL_FIELDS[collection])
                    if document.get(name)
                }
                errors = model_errors(collection, fields, self._photo_urls)
                if not errors and not await self.content.create(collection, document_id, fields):
                    errors = {"name": FieldError("not_accepted", {"detail": "id taken"})}
                if errors:
                    raise Invalid(errors)
        await self.photos.release(collection, held)
        self._done(who, "create", collection, document_id)
        return document_id

    async def update(
        self,
        who: str,
        collection: Collection,
        document_id: str,
        values: dict[str, str],
        photo_input: PhotoInput,
        opened_version: str,
    ) -> bool:
        """Whether anything was written (a slide saved without a new photo: no); else Invalid,
        Conflict (saved by someone else since the form opened) or Missing."""
        current, version = await self.existing(collection, document_id)
        errors = text_errors(collection, values)
        photo, held = await self._chosen_photo(collection, photo_input, errors, required=False)
        shown_photo = str(current.get("photoUrl", ""))
        async with self._held_if_refused(collection, photo, held):
            if opened_version != version:
                raise Conflict(current, version)
            if errors:
                raise Invalid(errors, version, shown_photo)
            fields = dict(values)
            if not fields and photo is None:
                return False
            if photo is not None:
                fields["photoUrl"] = await self.photos.store(collection, document_id, photo)
            new_photo = fields.get("photoUrl")
            async with self._discarded_unless_written(collection, new_photo):
                errors = model_errors(collection, {**current, **fields}, self._photo_urls)
                if errors:
                    raise Invalid(errors, version, shown_photo)
                try:
                    written = await self.content.update(
                        collection, document_id, fields, version=version
                    )
                except Changed:  # saved by someone else a moment ago
                    raise Conflict(*await self.existing(collection, document_id)) from None
                if not written:
                    raise Missing(document_id)
        await self.photos.release(collection, held)
        # The old photo goes only once the document points at the new one.
        old_photo = current.get("photoUrl")
        if new_photo is not None and isinstance(old_photo, str) and old_photo != new_photo:
            await self._discard_unused(collection, old_photo)
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
        photo_url = removed.get("photoUrl")
        if isinstance(photo_url, str):
            await self._discard_unused(collection, photo_url)
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
        name = collection.firestore_name
        line = {"studio_action": action, "who": who, "collection": name, "document": document_id}
        audit.info("%s %s %s/%s", who, action, name, document_id, extra=line)
        self._changed(collection)

    @asynccontextmanager
    async def _discarded_unless_written(
        self, collection: Collection, photo_url: str | None
    ) -> AsyncIterator[None]:
        """A photo stored for a write is removed again when the write does not happen."""
        try:
            yield
        except BaseException:
            if photo_url is not None:
                await self.photos.discard(collection, photo_url)
            raise

    async def _chosen_photo(
        self,
        collection: Collection,
        photo_input: PhotoInput,
        errors: dict[str, FieldError],
        *,
        required: bool,
    ) -> tuple[CheckedPhoto | None, str]:
        """The photo sent with the form, else the one held for it; and its held name, if held."""
        held = photo_input.held
        if photo_input.data or photo_input.too_big:
            if held:
                await self.photos.release(collection, held)  # another photo chosen instead
            try:
                if photo_input.too_big:
                    raise PhotoProblem("photo_too_big")  # never read
                return check_photo(photo_input.data), ""
            except PhotoProblem as problem:
                errors["photo"] = FieldError(str(problem), self.limits)
                return None, ""
        photo = await self.photos.held(collection, held) if held else None
        if photo is not None:
            return photo, held
        if required:
            errors["photo"] = FieldError("photo_required")
        return None, ""

    @asynccontextmanager
    async def _held_if_refused(
        self, collection: Collection, photo: CheckedPhoto | None, held: str
    ) -> AsyncIterator[None]:
        """A form that comes back keeps its good photo, so it need not be chosen again."""
        try:
            yield
        except (Invalid, Conflict) as refused:
            if photo is not None:
                name = held or await self.photos.hold(collection, photo)
                refused.kept = HeldPhoto(name, preview_data_url(photo))
            raise

    async def _discard_unused(self, collection: Collection, photo_url: str) -> None:
        if not await self.content.photo_in_use(photo_url):
            await self.photos.discard(collection, photo_url)
