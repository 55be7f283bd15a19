"""The message catalogues of ui/i18n/: the same files the React tree uses."""

from __future__ import annotations

import json
from enum import StrEnum
from functools import cache
from typing import Any

from server.settings import REPO_ROOT

CATALOGUE_DIR = REPO_ROOT / "ui" / "i18n"


class Locale(StrEnum):
    EN = "en"
    AR = "ar"

    @property
    def prefix(self) -> str:
        """Where the language's pages live: English at the root, Arabic under /ar."""
        return "" if self is Locale.EN else "/ar"

    def path(self, english_path: str) -> str:
        """An English path (/, /projects) in this language (/ar, /ar/projects)."""
        if self is Locale.EN:
            return english_path
        return self.prefix if english_path == "/" else self.prefix + english_path

    @classmethod
    def of_path(cls, path: str) -> Locale:
        return cls.AR if path == "/ar" or path.startswith("/ar/") else cls.EN


@cache
def messages(locale: Locale) -> dict[str, Any]:
    catalogue: dict[str, Any] = json.loads(
        (CATALOGUE_DIR / f"{locale.value}.json").read_text(encoding="utf-8")
    )
    return catalogue
