"""The company facts of company.toml, for the page and the Firestore client."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from server.site.languages import DEFAULT_LOCALE, TRANSLATIONS, Locale, messages

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
    # The countries whose enquiries it answers (ISO codes), and its WhatsApp number.
    serves: tuple[str, ...] = ()
    whatsapp: str | None = None
    # The address in another script where it has one (address_ar): by language code.
    addresses: dict[str, str] = field(default_factory=dict)

    def localized_address(self, locale: Locale) -> str | None:
        return self.addresses.get(locale.code) or self.address

    def country_name(self, locale: Locale) -> str:
        return str(messages(locale)["contact"]["countries"].get(self.country_code, self.country))

    def for_page(self, locale: Locale) -> dict[str, str]:
        fields = {
            "country": self.country_name(locale),
            "email": self.email,
            "phone": self.phone,
            "address": self.localized_address(locale),
            "whatsapp": self.whatsapp,
        }
        return {key: value for key, value in fields.items() if value is not None}


@dataclass(frozen=True, kw_only=True)
class Company:
    name: str
    short_name: str
    booking_url: str
    video_id: str
    video_title: str
    branches: tuple[Branch, ...]
    firebase_project_id: str
    # The web app's config: the studio's sign-in (Firebase Authentication) and photos (Storage).
    firebase_api_key: str | None = None
    # The host of the Google sign-in popup and its helper iframe (<project>.firebaseapp.com).
    firebase_auth_domain: str | None = None
    firebase_storage_bucket: str | None = None
    same_as: tuple[str, ...] = ()
    # name, short_name and video_title in other languages ([ar], [fr] in company.toml), by code.
    translations: dict[str, dict[str, str]] = field(default_factory=dict)

    def text(self, key: str, locale: Locale) -> str:
        """A fact in the page's language, falling back to English."""
        english: str = getattr(self, key)
        return self.translations.get(locale.code, {}).get(key, english)

    def for_page(self, locale: Locale = DEFAULT_LOCALE) -> dict[str, Any]:
        """The facts the React tree shows, in its camelCase shape (ui/types.ts: Company)."""
        return {
            "name": self.text("name", locale),
            "shortName": self.text("short_name", locale),
            "bookingUrl": self.booking_url,
            "videoId": self.video_id,
            "videoTitle": self.text("video_title", locale),
            "branches": [branch.for_page(locale) for branch in self.branches],
        }

    def branch_for(self, country_code: str) -> Branch:
        return next((b for b in self.branches if country_code in b.serves), self.branches[0])

    def enquiry_email(self, branch: Branch) -> str | None:
        return branch.email or self.branches[0].email

    def firestore_project(self, google_cloud_project: str | None) -> str:
        return google_cloud_project or self.firebase_project_id


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
                serves=tuple(str(code).upper() for code in branch.get("serves", list, [])),
                whatsapp=branch.optional_text("whatsapp"),
                addresses={
                    locale.code: address
                    for locale in TRANSLATIONS
                    if (address := branch.optional_text(locale.field("address"))) is not None
                },
            )
            for index, item in enumerate(table.get("branches", list))
            for branch in [_Table(item, f"{path} branches[{index}]")]
        ),
        firebase_project_id=firebase.text("project_id"),
        firebase_api_key=firebase.optional_text("api_key"),
        firebase_auth_domain=firebase.optional_text("auth_domain"),
        firebase_storage_bucket=firebase.optional_text("storage_bucket"),
        same_as=tuple(str(url) for url in table.get("same_as", list, [])),
        translations={
            locale.code: {
                key: own.text(key) for key in ("name", "short_name", "video_title") if key in own
            }
            for locale in TRANSLATIONS
            if locale.code in table
            for own in [_Table(table.get(locale.code, dict), f"{path} [{locale.code}]")]
        },
    )


_TOML_KINDS: dict[type, str] = {str: "a string", dict: "a table", list: "an array"}


class _Table:
    """A TOML table that names the file and key in every error."""

    def __init__(self, raw: object, where: str) -> None:
        if not isinstance(raw, dict):
            raise CompanyFileError(f"{where}: expected a table")
        self._raw: dict[str, object] = raw
        self._where = where

    def get(self, key: str, kind: type[T], default: T | None = None) -> T:
        value = self._raw.get(key, default)
        if not isinstance(value, kind):
            expected = _TOML_KINDS.get(kind, kind.__name__)
            raise CompanyFileError(f"{self._where}: {key} must be {expected}")
        return value

    def text(self, key: str) -> str:
        value = self.get(key, str)
        if not value.strip():
            raise CompanyFileError(f"{self._where}: {key} is empty")
        return value

    def __contains__(self, key: str) -> bool:
        return key in self._raw

    def optional_text(self, key: str) -> str | None:
        return self.text(key) if key in self._raw else None
