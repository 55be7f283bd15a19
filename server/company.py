"""The company facts of company.toml, for the page and the Firestore client."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


class CompanyFileError(ValueError):
    """company.toml is missing a value or has one of the wrong type."""


@dataclass(frozen=True, kw_only=True)
class Branch:
    country: str
    country_code: str
    phone: str
    email: str | None = None
    address: str | None = None


@dataclass(frozen=True, kw_only=True)
class Company:
    name: str
    short_name: str
    booking_url: str
    video_id: str
    video_title: str
    branches: tuple[Branch, ...]
    firebase_project_id: str
    same_as: tuple[str, ...] = ()

    def for_page(self) -> dict[str, Any]:
        """The facts the React tree shows, in its camelCase shape (ui/types.ts: Company)."""
        return {
            "name": self.name,
            "shortName": self.short_name,
            "bookingUrl": self.booking_url,
            "videoId": self.video_id,
            "videoTitle": self.video_title,
            "branches": [
                {
                    key: value
                    for key, value in (
                        ("country", branch.country),
                        ("email", branch.email),
                        ("phone", branch.phone),
                        ("address", branch.address),
                    )
                    if value is not None
                }
                for branch in self.branches
            ],
        }


def load_company(path: Path) -> Company:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise CompanyFileError(f"{path}: {error}") from error
    table = _Table(raw, str(path))
    firebase = _Table(table.get("firebase", dict), f"{path} [firebase]")
    return Company(
        name=table.text("name"),
        short_name=table.text("short_name"),
        booking_url=table.text("booking_url"),
        video_id=table.text("video_id"),
        video_title=table.text("video_title"),
        branches=tuple(
            Branch(
                country=branch.text("country"),
                country_code=branch.text("country_code"),
                phone=branch.text("phone"),
                email=branch.optional_text("email"),
                address=branch.optional_text("address"),
            )
            for index, item in enumerate(table.get("branches", list))
            for branch in [_Table(item, f"{path} branches[{index}]")]
        ),
        firebase_project_id=firebase.text("project_id"),
        same_as=tuple(str(url) for url in table.get("same_as", list)) if "same_as" in raw else (),
    )


_TOML_KINDS: dict[type, str] = {
    str: "a string",
    dict: "a table",
    list: "an array of tables",
}


class _Table:
    """A TOML table that names the file and key in every error."""

    def __init__(self, raw: object, where: str) -> None:
        if not isinstance(raw, dict):
            raise CompanyFileError(f"{where}: expected a table")
        self._raw: dict[str, object] = raw
        self._where = where

    def get(self, key: str, kind: type[T]) -> T:
        value = self._raw.get(key)
        if not isinstance(value, kind):
            expected = _TOML_KINDS.get(kind, kind.__name__)
            raise CompanyFileError(f"{self._where}: {key} must be {expected}")
        return value

    def text(self, key: str) -> str:
        value = self.get(key, str)
        if not value.strip():
            raise CompanyFileError(f"{self._where}: {key} is empty")
        return value

    def optional_text(self, key: str) -> str | None:
        return self.text(key) if key in self._raw else None
