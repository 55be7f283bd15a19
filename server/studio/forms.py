"""The studio's forms: each collection's fields declared once (FORMS), of the kinds below.
A kind reads its value from a sent form and checks it, and the macro of its name in
templates/fields.html draws it: a new collection is a declaration here, a new kind a class here
and a macro there. Whether a field is required is the site's rule (server/content/models.py).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

from starlette.datastructures import FormData, UploadFile

from server.content.models import REQUIRED_FIELDS, Collection
from server.i18n import DEFAULT_LOCALE, TRANSLATIONS, Locale

MAX_ID_LENGTH = 60


@dataclass(frozen=True)
class FieldError:
    """A key of the studio's messages (ui/i18n/, "studio") and its values, shown by the field."""

    key: str
    values: Mapping[str, object] = field(default_factory=dict)


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


@dataclass(frozen=True, kw_only=True)
class Field:
    """A document's field as the form shows it. A translated one has an input per language
    (name, name_ar, name_fr, …): the site shows the English where another is empty."""

    key: str
    translated: bool = False
    kind: ClassVar[str]  # its macro in templates/fields.html

    def read(self, form: FormData, name: str) -> str:
        value = form.get(name)
        # Line endings as browsers send them (\r\n) would land in the JSON.
        return value.replace("\r\n", "\n").strip() if isinstance(value, str) else ""

    def problem(self, value: str, *, required: bool) -> FieldError | None:
        return FieldError("required") if required and not value else None


@dataclass(frozen=True, kw_only=True)
class Text(Field):
    """A line of text, or a text area of `rows` lines."""

    kind: ClassVar[str] = "text"
    max_length: int
    rows: int = 0

    def problem(self, value: str, *, required: bool) -> FieldError | None:
        if len(value) > self.max_length:
            return FieldError("too_long", {"limit": self.max_length})
        return super().problem(value, required=required)


@dataclass(frozen=True, kw_only=True)
class Photo(Field):
    """The entry's photo: uploaded, then checked and stored by the service (photos.py)."""

    kind: ClassVar[str] = "photo"

    async def upload(self, form: FormData, max_bytes: int) -> PhotoInput:
        """The photo sent, read only when within `max_bytes`; else the one held for the form."""
        held = form_text(form, "held_photo")
        upload = form.get("photo")
        if not isinstance(upload, UploadFile) or not upload.size:
            return PhotoInput(held=held)
        stem = (upload.filename or "").rsplit(".", 1)[0]
        if upload.size > max_bytes:
            return PhotoInput(file_stem=stem, too_big=True, held=held)
        return PhotoInput(data=await upload.read(), file_stem=stem, held=held)


@dataclass(frozen=True)
class Input:
    """One control of a form: a field in one language."""

    field: Field
    locale: Locale

    @property
    def name(self) -> str:
        return "photo" if isinstance(self.field, Photo) else self.locale.field(self.field.key)


@dataclass(frozen=True)
class CollectionForm:
    """A collection as staff edit it: its fields in the form's order (the other languages'
    inputs follow the last translated field); `preview`: the form shows the card as visitors
    see it. A new entry's id is made from its English name, or with `id_from_photo` from its
    photo's file name, that word when the file name has no letter or digit (a slide)."""

    collection: Collection
    fields: tuple[Field, ...]
    preview: bool = True
    id_from_photo: str = ""

    @property
    def key(self) -> str:
        """Its part of the studio's addresses, and its tab's message key."""
        return self.collection.page_key

    @cached_property
    def inputs(self) -> dict[str, Input]:
        """Every input by its name, in the form's order."""
        inputs = [Input(field, DEFAULT_LOCALE) for field in self.fields]
        translated = [field for field in self.fields if field.translated]
        if translated:
            after = self.fields.index(translated[-1]) + 1
            others = [Input(field, locale) for locale in TRANSLATIONS for field in translated]
            inputs[after:after] = others
        return {input.name: input for input in inputs}

    @property
    def typed(self) -> list[Input]:
        """The inputs staff type into (all but the photo)."""
        return [input for input in self.inputs.values() if not isinstance(input.field, Photo)]

    def wanted_id(self, values: Mapping[str, str], file_stem: str) -> str:
        """A new entry's id before it is made unique, from its English name ("Dead Sea Lobby":
        "dead-sea-lobby") or its photo's file name; empty when there is no letter or digit."""
        if self.id_from_photo:
            return _address_part(file_stem) or self.id_from_photo
        return _address_part(values.get("name", ""))

    @property
    def photo(self) -> Photo:
        return next(field for field in self.fields if isinstance(field, Photo))

    def read(self, form: FormData) -> dict[str, str]:
        """What staff typed, by input name."""
        return {input.name: input.field.read(form, input.name) for input in self.typed}

    def errors(self, values: Mapping[str, str]) -> dict[str, FieldError]:
        """Each mistake by input name (a translation is never required)."""
        errors = {}
        for input in self.typed:
            required = input.name in REQUIRED_FIELDS[self.collection]
            if problem := input.field.problem(values.get(input.name, ""), required=required):
                errors[input.name] = problem
        return errors


def _address_part(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:MAX_ID_LENGTH].rstrip("-")


def form_text(form: Mapping[str, object], name: str) -> str:
    value = form.get(name)
    return value if isinstance(value, str) else ""


# Long enough for any real name and description in any language; a card shows far less.
NAME = Text(key="name", max_length=120, translated=True)
DESCRIPTION = Text(key="description", max_length=2000, rows=5, translated=True)
PHOTO = Photo(key="photoUrl")

# The studio's collections, in the order of its tabs.
FORMS = (
    CollectionForm(Collection.PROJECTS, (NAME, DESCRIPTION, PHOTO)),
    CollectionForm(Collection.COLLABRATIONS, (NAME, DESCRIPTION, PHOTO)),
    CollectionForm(Collection.SLIDER, (PHOTO,), preview=False, id_from_photo="slide"),
)
# The studio's tabs: each at /studio/<key>, named by the studio's message of that key.
TABS = tuple(form.key for form in FORMS)


def form_named(key: str) -> CollectionForm | None:
    return next((form for form in FORMS if form.key == key), None)
