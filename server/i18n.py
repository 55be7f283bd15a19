"""The message catalogues of ui/i18n/: the same files the React tree uses."""

from __future__ import annotations

import json
from enum import StrEnum
from functools import cache
from typing import Any

from server.settings import REPO_ROOT
from server.site_facts import SITE

CATALOGUE_DIR = REPO_ROOT / "ui" / "i18n"


class Locale(StrEnum):
    EN = "en"
    AR = "ar"

    @property
    def prefix(self) -> str:
        """Where the language's pages live (ui/site.json): English at the root, Arabic under /ar."""
        return SITE["languages"][self.value]["prefix"]

    def path(self, english_path: str) -> str:
        """An English path (/, /projects, /#about) in this language (/ar, /ar/projects,
        /ar#about), as ui/i18n/locale.ts makes it."""
        if self.prefix and english_path.startswith("/") and english_path[1:2] in ("", "#"):
            return self.prefix + english_path[1:]
        return self.prefix + english_path

    @classmethod
    def of_path(cls, path: str) -> Locale:
        return next(
            (
                locale
                for locale in cls
                if locale.prefix and (path == locale.prefix or path.startswith(locale.prefix + "/"))
            ),
            cls.EN,
        )


@cache
def messages(locale: Locale) -> dict[str, Any]:
    catalogue: dict[str, Any] = json.loads(
        (CATALOGUE_DIR / f"{locale.value}.json").read_text(encoding="utf-8")
    )
    return catalogue
