"""An enquiry: what the visitor types, its checks, and the record that is stored."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from functools import cache
from typing import Any

from babel import Locale as BabelLocale

from server.site.facts import SITE

LIMITS: dict[str, int] = SITE["enquiry"]["limits"]  # the most characters each field takes
REQUIRED = frozenset(SITE["enquiry"]["required"])
MAX_LINKS = SITE["enquiry"]["maxLinks"]
MAX_SQUARE_METRES = 1_000_000

_LINK = re.compile(r"https?://|www\.", re.IGNORECASE)
_EMAIL = re.compile(r"[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)+")
_PHONE = re.compile(r"\+?[\d\s().\-/]*")
# CLDR's territories that are not countries a visitor lives in: groupings, test codes, and
# parts of another country with a code of their own only for some uses.
_NOT_COUNTRIES = frozenset(
    ["AC", "CP", "CQ", "DG", "EA", "EU", "EZ", "IC", "QO", "TA", "UN", "XA", "XB", "ZZ"]
)


class State(StrEnum):
    NEW = "new"  # not yet accepted by the mail server
    EMAILED = "e-mailed"
    HANDLED = "handled"


@dataclass(frozen=True, kw_only=True)
class Enquiry:
    id: str
    created: float  # seconds since the epoch
    branch: str  # the country code of the branch that answers it
    language: str
    page: str  # the path of the page the visitor came from, "" when not known
    topic: str  # what it is about by name, in English (the stone's, else the project's), or ""
    fields: dict[str, str]  # the visitor's: LIMITS' keys
    state: State = State.NEW
    read: bool = False

    def record(self) -> dict[str, Any]:
        """What a store keeps of it besides its id."""
        return {name: getattr(self, name) for name in _RECORD}

    @classmethod
    def from_record(cls, enquiry_id: str, record: Mapping[str, Any]) -> Enquiry:
        kept = {name: record[name] for name in _RECORD}
        return cls(id=enquiry_id, **kept | {"state": State(kept["state"])})


_RECORD = tuple(f.name for f in fields(Enquiry) if f.name != "id")


def checked(form: Mapping[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """The visitor's fields as typed (the message's line breaks kept, every other field on one
    line, so none can reach a mail header as a new line), and a problem code per field."""
    values = {
        name: form.get(name, "").replace("\r\n", "\n").strip()
        if name == "message"
        else " ".join(form.get(name, "").split())
        for name in LIMITS
    }
    errors: dict[str, str] = {}
    for name, value in values.items():
        if name in REQUIRED and not value:
            errors[name] = "required"
        elif len(value) > LIMITS[name]:
            errors[name] = "tooLong"
    email, phone = values["email"], values["phone"]
    if not email and not phone:
        errors["email"] = "contact"
    if "email" not in errors and email and not _EMAIL.fullmatch(email):
        errors["email"] = "email"
    digits = sum(c.isdigit() for c in phone)
    if "phone" not in errors and phone and (not _PHONE.fullmatch(phone) or not 6 <= digits <= 20):
        errors["phone"] = "phone"
    if values["country"] and values["country"] not in COUNTRY_CODES:
        errors["country"] = "required"
    if values["quantity"] and "quantity" not in errors:
        try:
            quantity = float(values["quantity"].replace(" ", "").replace(",", "."))
        except ValueError:
            quantity = 0
        if not 0 < quantity <= MAX_SQUARE_METRES:
            errors["quantity"] = "quantity"
    if "message" not in errors and len(_LINK.findall(values["message"])) > MAX_LINKS:
        errors["message"] = "links"
    return values, errors


@cache
def countries(language: str) -> tuple[tuple[str, str], ...]:
    """Every country's ISO code and name in `language` (CLDR's, through Babel), by name."""
    names = BabelLocale.parse(language).territories
    pairs = [(c, n) for c, n in names.items() if len(c) == 2 and c.isalpha()]
    return tuple(sorted((p for p in pairs if p[0] not in _NOT_COUNTRIES), key=_sort_key))


def _sort_key(pair: tuple[str, str]) -> str:
    # Accents sort with their letter (Égypte beside Equateur), as a reader expects.
    decomposed = unicodedata.normalize("NFKD", pair[1])
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


COUNTRY_CODES = frozenset(code for code, _name in countries("en"))
