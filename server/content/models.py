"""The content the site shows, as typed values, and the collections that hold it."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

from server.content.photo_policy import PhotoUrlPolicy
from server.site.facts import SITE
from server.site.facts import Collection as Collection  # where most of the server has it
from server.site.languages import Locale, translated_fields

logger = logging.getLogger(__name__)


@dataclass(frozen=True, kw_only=True)
class CardItem:
    """A Project, a Collabration or a Stone."""

    id: str
    name: str
    description: str
    photoUrl: str  # the field's name in Firestore and in the page
    # The other languages' text where given (name_ar, description_fr, ...):
    # a page in a language without it shows the English.
    translations: Mapping[str, str] = dataclasses.field(default_factory=dict, hash=False)
    # The collection's other fields (DETAILS) as checked: a project's stones; a
    # stone's family, finishes, figures... A value the rules refuse is left out.
    details: Mapping[str, Any] = dataclasses.field(default_factory=dict, hash=False)

    @property
    def photo_urls(self) -> tuple[str, ...]:
        """Its photo, and a stone's photo of each finish."""
        return (self.photoUrl, *self.details.get("finishPhotos", {}).values())

    def localized_name(self, locale: Locale) -> str:
        return self.translations.get(locale.field("name")) or self.name

    def localized_description(self, locale: Locale) -> str:
        return self.translations.get(locale.field("description")) or self.description

    def fields(self) -> dict[str, Any]:
        """The item as the page and the content files have it: one flat object."""
        return {
            "id": self.id,
            "name": self.name,
            "description": self.description,
            "photoUrl": self.photoUrl,
            **self.translations,
            **self.details,
        }


@dataclass(frozen=True, kw_only=True)
class SlideImage:
    id: str
    photoUrl: str  # the field's name in Firestore and in the page

    @property
    def photo_urls(self) -> tuple[str, ...]:
        return (self.photoUrl,)

    def fields(self) -> dict[str, Any]:
        return {"id": self.id, "photoUrl": self.photoUrl}


ContentItem = CardItem | SlideImage


def photo_urls(items: Iterable[ContentItem]) -> Iterator[str]:
    return (url for item in items for url in item.photo_urls)


def linked_photos(fields: Mapping[str, Any]) -> set[str]:
    """Every photo a document links, as stored: its photo, and a stone's photo of each finish."""
    per_finish = fields.get("finishPhotos")
    urls = (fields.get("photoUrl"), *(per_finish.values() if isinstance(per_finish, dict) else ()))
    return {url for url in urls if isinstance(url, str)}


# The fields each collection's documents must carry, all strings, in the order
# the content files list them. Other fields are allowed and ignored by the site.
REQUIRED_FIELDS: dict[Collection, tuple[str, ...]] = {
    c: ("photoUrl",) if c is Collection.SLIDER else ("name", "description", "photoUrl")
    for c in Collection
}

# The order of the cards and slides: documents with a number here come first,
# lowest first; the others after them, in Firestore's order (by document id).
POSITION_FIELD = "position"

EMPTY: tuple[object, ...] = ("", None, [], {})  # an empty input: the field is left out

# Fields a document may carry; when present, they must be strings too.
OPTIONAL_FIELDS: dict[Collection, tuple[str, ...]] = {
    c: () if c is Collection.SLIDER else translated_fields("name", "description")
    for c in Collection
}

# A detail's check: what of the value the site keeps (None: nothing), and what is wrong with it.
Check = Callable[[object, PhotoUrlPolicy], tuple[Any, str | None]]
STONE_FACTS = SITE["stones"]
FINISHES = STONE_FACTS["filters"]["finish"]


def _one_of(allowed: Sequence[str] | None) -> Check:
    def check(value: object, _urls: PhotoUrlPolicy) -> tuple[Any, str | None]:
        if isinstance(value, str) and (allowed is None or value in allowed):
            return value, None
        wanted = "a string" if allowed is None else "one of " + ", ".join(allowed)
        return None, f"should be {wanted}; found {value!r}"[:300]

    return check


def _list_of(allowed: Sequence[str] | None) -> Check:
    def check(value: object, _urls: PhotoUrlPolicy) -> tuple[Any, str | None]:
        if not isinstance(value, list):
            return None, f"should be a list, found {type(value).__name__}"
        kept = [v for v in value if isinstance(v, str) and (allowed is None or v in allowed)]
        refused = [v for v in value if v not in kept]
        wanted = "a string" if allowed is None else "one of " + ", ".join(allowed)
        return kept, f"each should be {wanted}; found {refused!r}"[:300] if refused else None

    return check


def _number_within(low: float, high: float) -> Check:
    def check(value: object, _urls: PhotoUrlPolicy) -> tuple[Any, str | None]:
        if _is_number(value) and low <= value <= high:
            return value, None
        return None, f"should be a number from {low:g} to {high:g}; found {value!r}"[:300]

    return check


def _photo_per_finish(value: object, urls: PhotoUrlPolicy) -> tuple[Any, str | None]:
    if not isinstance(value, dict):
        return None, f"should be an object of finish: photoUrl, found {type(value).__name__}"
    kept, problems = {}, []
    for finish, url in value.items():
        if finish not in FINISHES:
            problems.append(f"{finish!r} is not one of {', '.join(FINISHES)}")
        elif not isinstance(url, str) or (problem := urls.problem(url)):
            problems.append(f"{finish}: {problem if isinstance(url, str) else 'not a string'}")
        else:
            kept[finish] = url
    return kept, "; ".join(problems)[:300] or None


# The fields beyond a card's own text and photo. A card with a bad one is shown
# without it (the bad values of a list left out); `stone-content validate` names it.
DETAILS: dict[Collection, dict[str, Check]] = {
    Collection.PROJECTS: {"stones": _list_of(None)},
    Collection.COLLABRATIONS: {"stones": _list_of(None)},
    Collection.SLIDER: {},
    Collection.STONES: {
        "family": _one_of(STONE_FACTS["filters"]["family"]),
        "colour": _one_of(STONE_FACTS["filters"]["colour"]),
        **{name: _one_of(None) for name in ("origin", *translated_fields("origin"))},
        "finishes": _list_of(FINISHES),
        "finishPhotos": _photo_per_finish,
        "formats": _list_of(None),
        **{f["field"]: _number_within(f["min"], f["max"]) for f in STONE_FACTS["figures"]},
    },
}
# Details a document must have, though it is shown without them.
REQUIRED_DETAILS = {Collection.STONES: ("family", "colour")}


def field_problems(
    collection: Collection, fields: Mapping[str, Any], photo_urls: PhotoUrlPolicy
) -> dict[str, str]:
    """What is wrong with each field that is; empty when the site can show the document. The one
    statement of the rules: the server skips a document with problems (parse_document), and
    `stone-content validate` reports them."""
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
    return problems | checked_details(collection, fields, photo_urls)[1]


def checked_details(
    collection: Collection, fields: Mapping[str, Any], photo_urls: PhotoUrlPolicy
) -> tuple[dict[str, Any], dict[str, str]]:
    """The details the site keeps of a document, and what is wrong with each of the others."""
    kept: dict[str, Any] = {}
    problems = {name: "is missing" for name in REQUIRED_DETAILS.get(collection, ())}
    for name, check in DETAILS[collection].items():
        if name in fields:
            problems.pop(name, None)
            value, problem = check(fields[name], photo_urls)
            if value not in EMPTY:
                kept[name] = value
            if problem is not None:
                problems[name] = problem
    return kept, problems


def parse_document(
    collection: Collection,
    document_id: str,
    fields: Mapping[str, Any],
    photo_urls: PhotoUrlPolicy,
) -> ContentItem | None:
    """The typed item, or None (with a warning naming it) for a document that is not fit;
    one whose details are not all right is shown without those (also with a warning)."""
    problems = field_problems(collection, fields, photo_urls)
    details, detail_problems = checked_details(collection, fields, photo_urls)
    if problems:
        logger.warning(
            "%s %s/%s: %s",
            "Showing, without what is wrong," if problems == detail_problems else "Skipping",
            collection.firestore_name,
            document_id,
            "; ".join(f"field {field!r} {message}" for field, message in problems.items()),
        )
        if problems != detail_problems:
            return None
    if collection is Collection.SLIDER:
        return SlideImage(id=document_id, photoUrl=fields["photoUrl"])
    return CardItem(
        id=document_id,
        name=fields["name"],
        description=fields["description"],
        photoUrl=fields["photoUrl"],
        translations={key: fields[key] for key in OPTIONAL_FIELDS[collection] if fields.get(key)},
        details=details,
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
