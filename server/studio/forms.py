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

from server.content.models import (
    EMPTY,
    FINISHES,
    REQUIRED_DETAILS,
    REQUIRED_FIELDS,
    STONE_FACTS,
    Collection,
)
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
    """Nothing written: each field's mistake; an existing entry's version and fields now; the
    photos held for the form, by input name."""

    errors: Mapping[str, FieldError]
    version: str = ""
    stored: Mapping[str, Any] = field(default_factory=dict)
    kept: dict[str, HeldPhoto] = field(default_factory=dict)


@dataclass
class Conflict(Exception):
    """Nothing written: the entry changed since its form opened; theirs, as it is now."""

    theirs: dict[str, Any]
    version: str
    kept: dict[str, HeldPhoto] = field(default_factory=dict)

    @property
    def stored(self) -> Mapping[str, Any]:
        return self.theirs


@dataclass(frozen=True, kw_only=True)
class Field:
    """A document's field as the form shows it. A translated one has an input per language
    (name, name_ar, name_fr, …): the site shows the English where another is empty."""

    key: str
    translated: bool = False
    # Its name's message key, where not its own key; a dotted one is the site's ("stones.…").
    label: str = ""
    kind: ClassVar[str]  # its macro in templates/fields.html

    def read(self, form: FormData, name: str) -> object:
        return self.text(form, name)

    @staticmethod
    def text(form: FormData, name: str) -> str:
        # Line endings as browsers send them (\r\n) would land in the JSON.
        return form_text(form, name).replace("\r\n", "\n").strip()

    def problem(self, value: object, *, required: bool) -> FieldError | None:
        return FieldError("required") if required and value in EMPTY else None

    def shown(self, value: object) -> str:
        """The value as its input shows it (a list one a line), and a conflict shows theirs."""
        if isinstance(value, list):
            return "\n".join(map(str, value))
        return "" if value is None else str(value)


@dataclass(frozen=True, kw_only=True)
class Text(Field):
    """A line of text, or a text area of `rows` lines."""

    kind: ClassVar[str] = "text"
    max_length: int
    rows: int = 0

    hint: str = ""  # a message key said before the limit

    def problem(self, value: object, *, required: bool) -> FieldError | None:
        if len(self.shown(value)) > self.max_length:
            return FieldError("too_long", {"limit": self.max_length})
        return super().problem(value, required=required)


@dataclass(frozen=True, kw_only=True)
class Lines(Text):
    """A list of short texts, typed one a line."""

    def read(self, form: FormData, name: str) -> list[str]:
        return [line.strip() for line in self.text(form, name).splitlines() if line.strip()]


@dataclass(frozen=True, kw_only=True)
class Number(Field):
    """A number in `unit` from `low` to `high`; left empty, the field is left out (never a 0)."""

    kind: ClassVar[str] = "number"
    unit: str
    low: float
    high: float

    def read(self, form: FormData, name: str) -> float | str | None:
        text = self.text(form, name)
        try:
            number = float(text)
        except ValueError:  # empty: no figure; else shown again as typed, with its mistake
            return text or None
        return int(number) if number.is_integer() else number

    def problem(self, value: object, *, required: bool) -> FieldError | None:
        within = isinstance(value, int | float) and self.low <= value <= self.high
        if value is not None and not within:
            return FieldError("number_between", self.bounds)
        return super().problem(value, required=required)

    @property
    def bounds(self) -> dict[str, object]:
        return {"low": f"{self.low:g}", "high": f"{self.high:g}", "unit": self.unit}


@dataclass(frozen=True, kw_only=True)
class Choice(Field):
    """One of `options` (a list to pick from), named by the site's messages under `labels`;
    with `of`, one of that collection's entries, by name."""

    kind: ClassVar[str] = "choice"
    options: tuple[str, ...] = ()
    labels: str = ""
    of: Collection | None = None


@dataclass(frozen=True, kw_only=True)
class Choices(Choice):
    """Any of them, as checkboxes; with `photos`, a photo for each one chosen, in that field
    (a map of option: photoUrl)."""

    kind: ClassVar[str] = "choices"
    photos: str = ""

    def read(self, form: FormData, name: str) -> list[str]:
        return [value for value in form.getlist(name) if isinstance(value, str)]


@dataclass(frozen=True, kw_only=True)
class Photo(Field):
    """The entry's photo: uploaded, then checked and stored by the service (photos.py)."""

    kind: ClassVar[str] = "photo"


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

    def wanted_id(self, values: Mapping[str, Any], file_stem: str) -> str:
        """A new entry's id before it is made unique, from its English name ("Dead Sea Lobby":
        "dead-sea-lobby") or its photo's file name; empty when there is no letter or digit."""
        if self.id_from_photo:
            return _address_part(file_stem) or self.id_from_photo
        return _address_part(values.get("name", ""))

    @property
    def photo(self) -> Photo:
        return next(field for field in self.fields if isinstance(field, Photo))

    def read(self, form: FormData) -> dict[str, Any]:
        """What staff typed, by input name."""
        return {input.name: input.field.read(form, input.name) for input in self.typed}

    def errors(self, values: Mapping[str, Any]) -> dict[str, FieldError]:
        """Each mistake by input name (a translation is never required)."""
        errors = {}
        required = {*REQUIRED_FIELDS[self.collection], *REQUIRED_DETAILS.get(self.collection, ())}
        for input in self.typed:
            value = values.get(input.name)
            if problem := input.field.problem(value, required=input.name in required):
                errors[input.name] = problem
        return errors

    @cached_property
    def photo_choices(self) -> list[Choices]:
        return [field for field in self.fields if isinstance(field, Choices) and field.photos]

    @property
    def photo_inputs(self) -> tuple[str, ...]:
        """The name of each photo the form sends: "photo", and "finishes:honed" for a choice's."""
        return ("photo", *(f"{f.key}:{option}" for f in self.photo_choices for option in f.options))

    async def uploads(
        self, form: FormData, values: Mapping[str, Any], max_bytes: int
    ) -> dict[str, PhotoInput]:
        """The photos sent, by input name, each read only when within `max_bytes` (else the one
        held for the form); a choice's only when it is chosen."""
        uploads = {}
        for name in self.photo_inputs:
            key, _, option = name.partition(":")
            if not option or option in values.get(key, ()):
                uploads[name] = await _upload(form, name, max_bytes)
        return uploads

    def photo_fields(
        self, urls: Mapping[str, str], values: Mapping[str, Any], stored: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The photo fields to write: the new photos (their URLs by input name), and each chosen
        option's photo, new or as stored (an option no longer chosen loses its photo)."""
        fields: dict[str, Any] = {self.photo.key: urls["photo"]} if "photo" in urls else {}
        for choices in self.photo_choices:
            before = stored.get(choices.photos)
            before = before if isinstance(before, dict) else {}
            fields[choices.photos] = {
                option: url
                for option in values.get(choices.key, ())
                if (url := urls.get(f"{choices.key}:{option}") or before.get(option))
            }
        return fields


async def _upload(form: FormData, name: str, max_bytes: int) -> PhotoInput:
    held = form_text(form, "held_" + name)
    upload = form.get(name)
    if not isinstance(upload, UploadFile) or not upload.size:
        return PhotoInput(held=held)
    stem = (upload.filename or "").rsplit(".", 1)[0]
    if upload.size > max_bytes:
        return PhotoInput(file_stem=stem, too_big=True, held=held)
    return PhotoInput(data=await upload.read(), file_stem=stem, held=held)


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
STONES_USED = Choices(key="stones", label="lists.stonesUsed", of=Collection.STONES)
FILTERS = STONE_FACTS["filters"]
STONE_FIELDS = (
    NAME,
    DESCRIPTION,
    Text(key="origin", label="stones.originTitle", max_length=120, translated=True),
    *(
        Choice(
            key=key, label=f"stones.{key}Title", options=tuple(FILTERS[key]), labels=f"stones.{key}"
        )
        for key in ("family", "colour")
    ),
    Choices(
        key="finishes",
        label="stones.finishesTitle",
        options=tuple(FINISHES),
        labels="stones.finish",
        photos="finishPhotos",
    ),
    Lines(key="formats", label="stones.formatsTitle", max_length=1000, rows=4, hint="one_per_line"),
    *(
        Number(
            key=figure["field"],
            label=f"stones.figures.{figure['field']}",
            unit=figure["unit"],
            low=figure["min"],
            high=figure["max"],
        )
        for figure in STONE_FACTS["figures"]
    ),
    PHOTO,
)

# The studio's collections, in the order of its tabs.
FORMS = (
    CollectionForm(Collection.PROJECTS, (NAME, DESCRIPTION, STONES_USED, PHOTO)),
    CollectionForm(Collection.COLLABRATIONS, (NAME, DESCRIPTION, STONES_USED, PHOTO)),
    CollectionForm(Collection.STONES, STONE_FIELDS),
    CollectionForm(Collection.SLIDER, (PHOTO,), preview=False, id_from_photo="slide"),
)
# The studio's tabs: each at /studio/<key>, named by the studio's message of that key; the last
# is the inbox's (inbox.py).
TABS = (*(form.key for form in FORMS), "enquiries")


def form_named(key: str) -> CollectionForm | None:
    return next((form for form in FORMS if form.key == key), None)
