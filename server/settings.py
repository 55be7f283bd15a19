"""Settings: one typed object, read once from the environment.

Every variable here is documented in docs/configuration.md, with its default
(tests/test_docs.py checks both).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TypeVar
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


@dataclass(frozen=True, kw_only=True)
class Settings:
    content_source: ContentSource = ContentSource.LOCAL
    content_dir: Path = REPO_ROOT / "content"
    company_file: Path = REPO_ROOT / "company.toml"
    bundles_dir: Path = REPO_ROOT / "bundles"
    # None: the project_id of company.toml's [firebase] table.
    google_cloud_project: str | None = None
    # The longest a page waits on Firestore before it renders without the list:
    # under the 3 s a visitor should ever wait, with time left to render.
    firestore_timeout_seconds: float = 2.5
    # Each collection is read at most once per period; 0 reads on every request.
    # Where listeners keep the content current, only while a listener is down.
    content_cache_seconds: float = 60.0
    # With Firestore: keep each collection current with a real-time listener
    # (edits show on the next reload); off: read every CONTENT_CACHE_SECONDS.
    content_live: bool = True
    # With listeners: no collection older than this is served while Firestore
    # answers. A page that finds a view older first probes the listeners'
    # connection (no document read), which also catches a silent stream.
    content_max_staleness_seconds: float = 45.0
    # Keep rendered pages until their content changes (off: render every request).
    html_cache: bool = True
    # The rendered pages kept per worker, compressed copies included: memory
    # bounded by this, however many projects have a page of their own.
    html_cache_mb: float = 8.0
    render_pool_size: int = 2
    render_timeout_seconds: float = 2.0
    log_level: str = "INFO"
    log_format: LogFormat = LogFormat.TEXT
    # Visitors' browsers report LCP, INP and CLS to POST /vitals (off: no reporting at all).
    web_vitals: bool = False
    # Local development (./dev serve): allows http: image URLs in content.
    dev_mode: bool = False
    # Hosts that may serve content images: the Content-Security-Policy's img-src,
    # and the only hosts the image route fetches photos from.
    image_hosts: tuple[str, ...] = ("firebasestorage.googleapis.com", "storage.googleapis.com")
    # The image route (/img/...): photos resized and re-encoded for the screen.
    # Off, pages link the original photos.
    image_route: bool = True
    # Where the image route keeps what it made, and how much of it (LRU beyond).
    image_cache_dir: Path = Path(tempfile.gettempdir()) / "fine-stone-images"
    image_cache_mb: float = 512.0
    # Limits of one fetch of a remote photo (redirects included); beyond either,
    # the page links the original.
    image_fetch_timeout_seconds: float = 10.0
    image_fetch_max_mb: float = 30.0
    # Host headers the site answers to; "*" answers to any.
    allowed_hosts: tuple[str, ...] = ("*",)
    # Where the public reaches the site: canonical URLs, sitemap, social cards.
    public_base_url: str = "http://127.0.0.1:8000"
    # The studio (/studio): how long a staff sign-in lasts, and the largest photo it takes.
    studio_session_hours: float = 12.0
    studio_photo_max_mb: float = 15.0
    # With CONTENT_SOURCE=firestore: the studio, staff signing in with Firebase Authentication.
    studio: bool = False
    # Who may use it, besides accounts with the custom claim staff=true.
    studio_staff_emails: tuple[str, ...] = ()
    # None: company.toml's [firebase] storage_bucket.
    studio_storage_bucket: str | None = None

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
        env = os.environ if environ is None else environ
        defaults = cls()
        return cls(
            content_source=_choice(env, "CONTENT_SOURCE", ContentSource, defaults.content_source),
            content_dir=_path(env, "CONTENT_DIR", defaults.content_dir),
            company_file=_path(env, "COMPANY_FILE", defaults.company_file),
            bundles_dir=_path(env, "BUNDLES_DIR", defaults.bundles_dir),
            google_cloud_project=env.get("GOOGLE_CLOUD_PROJECT") or None,
            firestore_timeout_seconds=_positive_float(
                env, "FIRESTORE_TIMEOUT_SECONDS", defaults.firestore_timeout_seconds
            ),
            content_cache_seconds=_positive_float(
                env, "CONTENT_CACHE_SECONDS", defaults.content_cache_seconds, allow_zero=True
            ),
            content_live=_switch(env, "CONTENT_LIVE", defaults.content_live),
            content_max_staleness_seconds=_positive_float(
                env, "CONTENT_MAX_STALENESS_SECONDS", defaults.content_max_staleness_seconds
            ),
            html_cache=_switch(env, "HTML_CACHE", defaults.html_cache),
            html_cache_mb=_positive_float(env, "HTML_CACHE_MB", defaults.html_cache_mb),
            render_pool_size=int(
                _positive_float(env, "RENDER_POOL_SIZE", float(default_pool_size()))
            ),
            render_timeout_seconds=_positive_float(
                env, "RENDER_TIMEOUT_SECONDS", defaults.render_timeout_seconds
            ),
            log_level=env.get("LOG_LEVEL", defaults.log_level).upper(),
            log_format=_choice(env, "LOG_FORMAT", LogFormat, defaults.log_format),
            web_vitals=_switch(env, "WEB_VITALS", defaults.web_vitals),
            dev_mode=_switch(env, "DEV_MODE", defaults.dev_mode),
            image_hosts=_names(env, "IMAGE_HOSTS", defaults.image_hosts),
            image_route=_switch(env, "IMAGE_ROUTE", defaults.image_route),
            image_cache_dir=_path(env, "IMAGE_CACHE_DIR", defaults.image_cache_dir),
            image_cache_mb=_positive_float(env, "IMAGE_CACHE_MB", defaults.image_cache_mb),
            image_fetch_timeout_seconds=_positive_float(
                env, "IMAGE_FETCH_TIMEOUT_SECONDS", defaults.image_fetch_timeout_seconds
            ),
            image_fetch_max_mb=_positive_float(
                env, "IMAGE_FETCH_MAX_MB", defaults.image_fetch_max_mb
            ),
            allowed_hosts=_names(env, "ALLOWED_HOSTS", defaults.allowed_hosts),
            public_base_url=_base_url(env, "PUBLIC_BASE_URL", defaults.public_base_url),
            studio_session_hours=_positive_float(
                env, "STUDIO_SESSION_HOURS", defaults.studio_session_hours
            ),
            studio_photo_max_mb=_positive_float(
                env, "STUDIO_PHOTO_MAX_MB", defaults.studio_photo_max_mb
            ),
            studio=_switch(env, "STUDIO", defaults.studio),
            studio_staff_emails=tuple(
                email.lower() for email in _names(env, "STUDIO_STAFF_EMAILS", ())
            ),
            studio_storage_bucket=env.get("STUDIO_STORAGE_BUCKET") or None,
        )


def default_pool_size() -> int:
    # One V8 context per core: renders are CPU-bound and take about a millisecond.
    return max(1, min(os.cpu_count() or 1, 8))


_Choice = TypeVar("_Choice", bound=StrEnum)


def _choice(env: Mapping[str, str], name: str, kind: type[_Choice], default: _Choice) -> _Choice:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        return kind(raw.lower())
    except ValueError:
        allowed = ", ".join(member.value for member in kind)
        raise SettingsError(f"{name}={raw!r}: expected one of {allowed}") from None


def _path(env: Mapping[str, str], name: str, default: Path) -> Path:
    raw = env.get(name)
    return Path(raw).resolve() if raw else default


def _positive_float(
    env: Mapping[str, str], name: str, default: float, *, allow_zero: bool = False
) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name}={raw!r}: expected a number") from None
    if value < 0 or (value == 0 and not allow_zero):
        lowest = "zero or more" if allow_zero else "a number above zero"
        raise SettingsError(f"{name}={raw!r}: expected {lowest}")
    return value


def _base_url(env: Mapping[str, str], name: str, default: str) -> str:
    raw = (env.get(name) or "").strip()
    if not raw:
        return default
    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise SettingsError(f"{name}={raw!r}: expected a URL like https://www.example.com")
    return raw.rstrip("/")


def _names(env: Mapping[str, str], name: str, default: tuple[str, ...]) -> tuple[str, ...]:
    """A comma- or space-separated list."""
    raw = env.get(name)
    if raw is None or not raw.strip():
        return default
    return tuple(part for part in raw.replace(",", " ").split() if part)


_SWITCH_VALUES = {"on": True, "true": True, "1": True, "off": False, "false": False, "0": False}


def _switch(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        return _SWITCH_VALUES[raw.strip().lower()]
    except KeyError:
        raise SettingsError(f"{name}={raw!r}: expected on or off") from None
