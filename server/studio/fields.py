"""A studio form's parts: the kinds of field, each reading, checking and showing its value (the
macro of its `kind` in templates/fields.html draws it); a photo as sent; a refused form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from starlette.datastructures import FormData

from server.content.models import EMPTY, Collection


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


class Conflict(Invalid):
    """Nothing written: the entry changed since its form opened; theirs, as it is now."""

    def __init__(self, theirs: Mapping[str, Any], version: str) -> None:
        super().__init__({}, version, theirs)
        self.theirs = theirs


@dataclass(frozen=True, kw_only=True)
class Field:
    """A document's field. A translated one has an input per language (name, name_ar, …): the
    site shows the English where another is empty. `label`: its name's message key, where not
    its own key (a dotted one is the site's: "stones.…")."""

    key: str
    translated: bool = False
    label: str = ""
    kind: ClassVar[str]

    def read(self, form: FormData, name: str) -> object:
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
    """A line of text, or a text area of `rows` lines; `hint`, a message said before the limit."""

    kind: ClassVar[str] = "text"
    max_length: int
    rows: int = 0
    hint: str = ""

    def problem(self, value: object, *, required: bool) -> FieldError | None:
        if len(self.shown(value)) > self.max_length:
            return FieldError("too_long", {"limit": self.max_length})
        return super().problem(value, required=required)


@dataclass(frozen=True, kw_only=True)
class Lines(Text):
    """A list of short texts, typed one a line."""

    def read(self, form: FormData, name: str) -> list[str]:
        return [line.strip() for line in str(super().read(form, name)).splitlines() if line.strip()]


@dataclass(frozen=True, kw_only=True)
class Number(Field):
    """A number in `unit` from `low` to `high`; left empty, the field is left out (never a 0)."""

    kind: ClassVar[str] = "number"
    unit: str
    low: float
    high: float

    def read(self, form: FormData, name: str) -> float | str | None:
        text = str(super().read(form, name))
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
    """One of `options`, named by the site's messages under `labels`; with `of`, one of that
    collection's entries, by name."""

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
    kind: ClassVar[str] = "photo"  # uploaded, then checked and stored by the service


def form_text(form: Mapping[str, object], name: str) -> str:
    value = form.get(name)
    return value if isinstance(value, str) else ""
