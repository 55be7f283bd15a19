"""The site's languages (ui/site.json) and message catalogues (ui/i18n/), as React has them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from server.settings import REPO_ROOT
from server.site.facts import SITE

CATALOGUE_DIR = REPO_ROOT / "ui" / "i18n"


@dataclass(frozen=True)
class Locale:
    code: str
    prefix: str  # where the language's pages live: "" for English at the root, "/ar" for Arabic

    def path(self, english_path: str) -> str:
        """An English path (/, /projects, /#about) in this language (/ar, /ar/projects,
        /ar#about), as the pages link to them (ui/i18n/locale.ts, Header.tsx)."""
        if self.prefix and english_path.startswith("/") and english_path[1:2] in ("", "#"):
            return self.prefix + english_path[1:]
        return self.prefix + english_path

    @property
    def dir(self) -> str:
        return str(messages(self)["meta"]["dir"])

    def field(self, english_field: str) -> str:
        """A content field's name in this language: name, name_ar, description_fr."""
        return english_field if self is DEFAULT_LOCALE else f"{english_field}_{self.code}"


LOCALES: tuple[Locale, ...] = tuple(
    Locale(code, entry["prefix"]) for code, entry in SITE["languages"].items()
)
# The first language of the table, at the root; the others fall back to it.
DEFAULT_LOCALE: Locale = LOCALES[0]
TRANSLATIONS: tuple[Locale, ...] = LOCALES[1:]


def locale_named(code: str) -> Locale | None:
    return next((locale for locale in LOCALES if locale.code == code), None)


def locale_of_path(path: str) -> Locale:
    prefixed = (t for t in TRANSLATIONS if path == t.prefix or path.startswith(t.prefix + "/"))
    return next(prefixed, DEFAULT_LOCALE)


def translated_fields(*english_fields: str) -> tuple[str, ...]:
    """The optional fields that carry these in the other languages: name_ar, name_fr, …"""
    return tuple(locale.field(key) for locale in TRANSLATIONS for key in english_fields)


@cache
def messages(locale: Locale) -> dict[str, Any]:
    path = CATALOGUE_DIR / f"{locale.code}.json"
    catalogue: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return catalogue
