"""Settings: one typed object, read once from the environment; each variable and its
default is in docs/configuration.md (tests/test_docs.py checks)."""

from __future__ import annotations

import dataclasses
import os
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import Any, get_type_hints
from urllib.parse import urlsplit

REPO_ROOT = Path(__file__).resolve().parent.parent


class ContentSource(StrEnum):
    LOCAL = "local"
    FIRESTORE = "firestore"


class LogFormat(StrEnum):
    TEXT = "text"  # for people reading a terminal
    JSON = "json"  # one JSON object per line, for a log platform


class SettingsError(ValueError):
    """An environment variable has a value the site cannot use."""


_Parser = Callable[[str, str], Any]  # (variable's name, its value) -> the setting


def _one_of(values: Mapping[str, object], expected: str) -> _Parser:
    def parse(name: str, raw: str) -> object:
        if raw.lower() not in values:
            raise SettingsError(f"{name}={raw!r}: expected {expected}")
        return values[raw.lower()]

    return parse


def _choice(kind: type[StrEnum]) -> _Parser:
    return _one_of({m.value: m for m in kind}, "one of " + ", ".join(m.value for m in kind))


def _number(name: str, raw: str, *, allow_zero: bool = False) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name}={raw!r}: expected a number") from None
    if value < 0 or (value == 0 and not allow_zero):
        lowest = "zero or more" if allow_zero else "a number above zero"
        raise SettingsError(f"{name}={raw!r}: expected {lowest}")
    return value


_zero_or_more = partial(_number, allow_zero=True)


def _base_url(name: str, raw: str) -> str:
    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise SettingsError(f"{name}={raw!r}: expected a URL like https://www.example.com")
    return raw.rstrip("/")


def _names(_name: str, raw: str) -> tuple[str, ...]:
    """A comma- or space-separated list."""
    return tuple(part for part in raw.replace(",", " ").split() if part)


# How a variable becomes a setting, by the setting's type (a field's "parse" metadata overrides).
_PARSERS: dict[object, _Parser] = {
    str: lambda _name, raw: raw,
    str | None: lambda _name, raw: raw,
    float: _number,
    int: lambda name, raw: int(_number(name, raw)),
    bool: _one_of(
        {"on": True, "true": True, "1": True, "off": False, "false": False, "0": False}, "on or off"
    ),
    Path: lambda _name, raw: Path(raw).resolve(),
    tuple[str, ...]: _names,
    ContentSource: _choice(ContentSource),
    LogFormat: _choice(LogFormat),
}


@dataclass(frozen=True, kw_only=True)
class Settings:
    """What each setting means, and why its default: docs/configuration.md."""

    content_source: ContentSource = ContentSource.LOCAL
    content_dir: Path = REPO_ROOT / "content"
    company_file: Path = REPO_ROOT / "company.toml"
    bundles_dir: Path = REPO_ROOT / "bundles"
    google_cloud_project: str | None = None  # None: company.toml's [firebase] project_id
    firestore_timeout_seconds: float = 2.5
    content_cache_seconds: float = field(default=60.0, metadata={"parse": _zero_or_more})
    content_live: bool = True
    content_max_staleness_seconds: float = 45.0
    html_cache: bool = True
    html_cache_mb: float = 8.0
    # One V8 context per core: renders are CPU-bound.
    render_pool_size: int = field(default_factory=lambda: max(1, min(os.cpu_count() or 1, 8)))
    render_timeout_seconds: float = 2.0
    log_level: str = field(default="INFO", metadata={"parse": lambda _name, raw: raw.upper()})
    log_format: LogFormat = LogFormat.TEXT
    web_vitals: bool = False
    dev_mode: bool = False
    image_hosts: tuple[str, ...] = ("firebasestorage.googleapis.com", "storage.googleapis.com")
    image_route: bool = True
    image_cache_dir: Path = Path(tempfile.gettempdir()) / "fine-stone-images"
    image_cache_mb: float = 512.0
    image_fetch_timeout_seconds: float = 10.0
    image_fetch_max_mb: float = 30.0
    allowed_hosts: tuple[str, ...] = ("*",)
    public_base_url: str = field(default="http://127.0.0.1:8000", metadata={"parse": _base_url})
    studio_session_hours: float = 12.0
    studio_photo_max_mb: float = 15.0
    studio: bool = False
    studio_staff_emails: tuple[str, ...] = field(
        default=(),
        metadata={"parse": lambda name, raw: tuple(e.lower() for e in _names(name, raw))},
    )
    studio_storage_bucket: str | None = None  # None: company.toml's [firebase] storage_bucket
    enquiry_database: Path = REPO_ROOT / "var" / "enquiries.sqlite3"  # with local content
    enquiry_secret: str | None = None  # None: one made once and kept in the enquiry store
    enquiry_keep_days: float = 365.0
    enquiry_min_seconds: float = field(default=3.0, metadata={"parse": _zero_or_more})
    enquiry_from: str | None = None  # None: the first branch's email
    enquiry_mail_retry_seconds: float = 30.0
    smtp_url: str | None = None  # None: enquiries are not mailed; the studio is the inbox

    def __post_init__(self) -> None:
        if self.content_max_staleness_seconds <= self.firestore_timeout_seconds:
            raise SettingsError(
                f"CONTENT_MAX_STALENESS_SECONDS={self.content_max_staleness_seconds:g}: expected"
                f" more than FIRESTORE_TIMEOUT_SECONDS ({self.firestore_timeout_seconds:g}),"
                " the longest a probe of the listeners' connection may take"
            )
        # Firebase's limits for a session cookie: five minutes to two weeks.
        if not 5 / 60 <= self.studio_session_hours <= 14 * 24:
            raise SettingsError(
                f"STUDIO_SESSION_HOURS={self.studio_session_hours:g}: expected between"
                " 0.0834 (five minutes) and 336 (two weeks), Firebase's limits for a session"
            )

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Each setting from its name in capitals; unset or empty keeps the default."""
        env = os.environ if environ is None else environ
        types = get_type_hints(cls)
        values: dict[str, Any] = {}
        for setting in dataclasses.fields(cls):
            name = setting.name.upper()
            if raw := env.get(name, "").strip():
                parse: _Parser = setting.metadata.get("parse") or _PARSERS[types[setting.name]]
                values[setting.name] = parse(name, raw)
        return cls(**values)
