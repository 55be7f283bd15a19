"""What staff type into a form, checked: field by field, then by the site's own rules."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field

from server.content.models import OPTIONAL_FIELDS, REQUIRED_FIELDS, Collection, field_problems
from server.content.photo_urls import PhotoUrlPolicy
from server.i18n import DEFAULT_LOCALE, Locale, locale_named

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
    """The English field a form field translates, and its language:
    description_fr -> (description, fr)."""
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
        p.field.replace("photoUrl", "photo"): FieldError("not_accepted", {"detail": p.message})
        for p in field_problems(collection, fields, photo_urls)
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
