"""Each collection's form declared once (FORMS), of the kinds in fields.py, and what a sent form
holds. Whether a field is required is the site's rule (server/content/models.py)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from starlette.datastructures import FormData, UploadFile

from server.content.models import (
    FINISHES,
    REQUIRED_DETAILS,
    REQUIRED_FIELDS,
    STONE_FACTS,
    Collection,
)
from server.site.languages import DEFAULT_LOCALE, TRANSLATIONS, Locale
from server.studio.fields import (
    Choice,
    Choices,
    Field,
    FieldError,
    Lines,
    Number,
    Photo,
    PhotoInput,
    Text,
    form_text,
)

MAX_ID_LENGTH = 60


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
    def key(self) -> str:  # its part of the studio's addresses, and its tab's message key
        return self.collection.page_key

    @cached_property
    def inputs(self) -> dict[str, Input]:
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
        """A new entry's id before it is made unique ("Dead Sea Lobby": "dead-sea-lobby")."""
        if self.id_from_photo:
            return _address_part(file_stem) or self.id_from_photo
        return _address_part(values.get("name", ""))

    @property
    def photo(self) -> Photo:
        return next(field for field in self.fields if isinstance(field, Photo))

    def errors(self, values: Mapping[str, Any]) -> dict[str, FieldError]:
        errors = {}  # by input name; a translation is never required
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

    async def read(
        self, form: FormData, max_bytes: int
    ) -> tuple[dict[str, Any], dict[str, PhotoInput]]:
        """What staff typed and the photos sent (a choice's only when chosen), by input name."""
        values: dict[str, Any] = {
            input.name: input.field.read(form, input.name) for input in self.typed
        }
        uploads = {}
        for name in self.photo_inputs:
            key, _, option = name.partition(":")
            if not option or option in values.get(key, ()):
                uploads[name] = await _upload(form, name, max_bytes)
        return values, uploads

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
FORM_NAMED = {form.key: form for form in FORMS}
