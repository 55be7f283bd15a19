"""The content the site shows, as typed values, and the collections that hold it."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeGuard

from server.content.photo_urls import PhotoUrlPolicy
from server.i18n import Locale, translated_fields
from server.site_facts import SITE

logger = logging.getLogger(__name__)


class Collection(Enum):
    """A Firestore collection, by the name the page uses (ui/site.json has the rest)."""

    PROJECTS = "projects"
    COLLABRATIONS = "collabrations"
    SLIDER = "slider"

    @property
    def page_key(self) -> str:
        return self.value

    @property
    def firestore_name(self) -> str:
        return SITE["collections"][self.value]["firestore"]

    @classmethod
    def from_page_key(cls, key: str) -> Collection | None:
        return next((member for member in cls if member.page_key == key), None)


@dataclass(frozen=True, kw_only=True)
class CardItem:
    """A Project or a Collabration."""

    id: str
    name: str
    description: str
    photoUrl: str  # the field's name in Firestore and in the page
    # The other languages' text where given (name_ar, description_fr, ...):
    # a page in a language without it shows the English.
    translations: Mapping[str, str] = dataclasses.field(default_factory=dict, hash=False)

    def localized_name(self, locale: Locale) -> str:
        return self.translations.get(locale.field("name")) or self.name

    def localized_description(self, locale: Locale) -> str:
        return self.translations.get(locale.field("description")) or self.description

    def fields(self) -> dict[str, str]:
        """The item as the page and the content files have it: one flat object."""
        return {
            "id": self.id,
            "name": self.name,
            "description": self.description,
            "photoUrl": self.photoUrl,
            **self.translations,
        }


@dataclass(frozen=True, kw_only=True)
class SlideImage:
    id: str
    photoUrl: str  # the field's name in Firestore and in the page

    def fields(self) -> dict[str, str]:
        return {"id": self.id, "photoUrl": self.photoUrl}


ContentItem = CardItem | SlideImage

# The fields each collection's documents must carry, all strings, in the order
# the content files list them. Other fields are allowed and ignored by the site.
REQUIRED_FIELDS: dict[Collection, tuple[str, ...]] = {
    Collection.PROJECTS: ("name", "description", "photoUrl"),
    Collection.COLLABRATIONS: ("name", "description", "photoUrl"),
    Collection.SLIDER: ("photoUrl",),
}

# The order of the cards and slides: documents with a number here come first,
# lowest first; the others after them, in Firestore's order (by document id).
POSITION_FIELD = "position"

# Fields a document may carry; when present, they must be strings too.
OPTIONAL_FIELDS: dict[Collection, tuple[str, ...]] = {
    Collection.PROJECTS: translated_fields("name", "description"),
    Collection.COLLABRATIONS: translated_fields("name", "description"),
    Collection.SLIDER: (),
}


def field_problems(
    collection: Collection, fields: Mapping[str, Any], photo_urls: PhotoUrlPolicy
) -> dict[str, str]:
    """What is wrong with each field that is; empty when the site can show the document.

    The one statement of the rules: the server skips a document with problems
    (parse_document), and `stone-content validate` reports them.
    """
    required = REQUIRED_FIELDS[collection]
    problems = {field: "is missing" for field in required if field not in fields}
    for field in (*required, *OPTIONAL_FIELDS[collection]):
        if field in fields and not isinstance(fields[field], str):
            problems[field] = f"should be a string, found {type(fields[field]).__name__}"
    if POSITION_FIELD in fields and not _is_number(fields[POSITION_FIELD]):
        found = type(fields[POSITION_FIELD]).__name__
        problems[POSITION_FIELD] = f"should be a number, found {found}"
    photo_url = fields.get("photoUrl")
    if isinstance(photo_url, str) and (problem := photo_urls.problem(photo_url)):
        problems["photoUrl"] = f"{problem}: {photo_url[:200]!r}"
    return problems


def parse_document(
    collection: Collection,
    document_id: str,
    fields: Mapping[str, Any],
    photo_urls: PhotoUrlPolicy,
) -> ContentItem | None:
    """The typed item, or None (with a warning naming it) for a document that is not fit."""
    problems = field_problems(collection, fields, photo_urls)
    if problems:
        logger.warning(
            "Skipping %s/%s: %s",
            collection.firestore_name,
            document_id,
            "; ".join(f"field {field!r} {message}" for field, message in problems.items()),
        )
        return None
    if collection is Collection.SLIDER:
        return SlideImage(id=document_id, photoUrl=fields["photoUrl"])
    return CardItem(
        id=document_id,
        name=fields["name"],
        description=fields["description"],
        photoUrl=fields["photoUrl"],
        translations={key: fields[key] for key in OPTIONAL_FIELDS[collection] if fields.get(key)},
    )


def parse_documents(
    collection: Collection,
    documents: Iterable[tuple[str, Mapping[str, Any]]],
    photo_urls: PhotoUrlPolicy,
) -> list[ContentItem]:
    in_order = sorted(documents, key=lambda document: site_order(document[1]))
    items = (parse_document(collection, doc_id, fields, photo_urls) for doc_id, fields in in_order)
    return [item for item in items if item is not None]


def site_order(fields: Mapping[str, Any]) -> tuple[bool, float]:
    """Sort key: documents with a position first, by it; a stable sort keeps the rest in order."""
    position = fields.get(POSITION_FIELD)
    return (False, float(position)) if _is_number(position) else (True, 0.0)


def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)
