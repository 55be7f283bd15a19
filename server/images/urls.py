"""The image route's URLs: /img/{variant}/{version}/{source}.

- variant: a name from variants.py (w640, s400, ...).
- version: 12 characters of a SHA-256 of the photo: of the file's bytes for a
  local photo; of the URL for a remote one, whose URL is its identity (a new
  upload to Firebase Storage gets a new download token, so a new URL).
- source: `local/{path under /images/}` or `remote/{the https URL, base64url}`.

A URL names one unchanging image, so its response is cached for a year. The
server writes `{version}/{source}` into the page data as each photo's
`photoKey`; ui/data/photoSources.ts adds the variants. Both are a function of
the content and the files, so the server's HTML and the hydrating browser agree.
"""

from __future__ import annotations

import base64
import binascii
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import quote, unquote, urlsplit

import anyio

from server.content.photo_urls import LOCAL_IMAGES_PREFIX
from server.images.sources import LocalPhotos, RemotePhotos, SourceRefused, version_of

logger = logging.getLogger(__name__)

VERSION = re.compile(r"[A-Za-z0-9_-]{12}")
LOCAL = "local"
REMOTE = "remote"
# Photos refused a key, each logged once: the page builder asks on every render.
_MAX_REMEMBERED_REFUSALS = 1000
# Well under the longest path the site accepts (server/http/request_rules.py).
MAX_KEY_LENGTH = 1500


@dataclass(frozen=True)
class PhotoSource:
    """A photo as the route's URL names it."""

    # The photo's own URL, as in the content: what a refused variant falls back to.
    photo_url: str
    # Its path under the local image folder; None for a remote photo.
    local_path: str | None

    @property
    def segment(self) -> str:
        """The source part of the route's URL."""
        if self.local_path is not None:
            return f"{LOCAL}/{quote(self.local_path, safe='/')}"
        encoded = base64.urlsafe_b64encode(self.photo_url.encode()).decode().rstrip("=")
        return f"{REMOTE}/{encoded}"


def photo_source(photo_url: str) -> PhotoSource:
    if photo_url.startswith(LOCAL_IMAGES_PREFIX):
        # A query (?v=2) on a local photo means nothing to the server.
        path = unquote(urlsplit(photo_url).path)
        return PhotoSource(photo_url, path.removeprefix(LOCAL_IMAGES_PREFIX))
    return PhotoSource(photo_url, None)


def source_from_route(kind: str, rest: str) -> PhotoSource | None:
    """The photo a route URL's source part names (as Starlette decoded it), or None."""
    if kind == LOCAL and rest:
        return PhotoSource(LOCAL_IMAGES_PREFIX + quote(rest, safe="/"), rest)
    if kind == REMOTE and rest:
        try:
            url = base64.urlsafe_b64decode(rest + "=" * (-len(rest) % 4)).decode()
        except (binascii.Error, ValueError):
            return None
        return PhotoSource(url, None)
    return None


class PhotoKeys:
    """Each photo's `photoKey`, for the page data; none when the route is off or refuses it."""

    def __init__(
        self, *, local: LocalPhotos | None = None, remote: RemotePhotos | None = None
    ) -> None:
        self._local = local
        self._remote = remote
        self._refused: set[str] = set()

    @classmethod
    def off(cls) -> PhotoKeys:
        return cls()

    async def keys_for(self, photo_urls: Iterable[str]) -> dict[str, str]:
        keys: dict[str, str] = {}
        unread: list[str] = []
        for url in dict.fromkeys(photo_urls):
            # A stat per local photo here; files new or changed are read below.
            key = self._key(url, known_only=True)
            if key is not None:
                keys[url] = key
            elif self._local is not None and photo_source(url).local_path is not None:
                unread.append(url)
        if unread:
            keys.update(await anyio.to_thread.run_sync(self._read_keys, unread))
        return keys

    def _read_keys(self, photo_urls: list[str]) -> dict[str, str]:
        keys = {url: self._key(url, known_only=False) for url in photo_urls}
        return {url: key for url, key in keys.items() if key is not None}

    def _key(self, url: str, *, known_only: bool) -> str | None:
        if self._local is None or self._remote is None:
            return None
        source = photo_source(url)
        try:
            if source.local_path is None:
                problem = self._remote.problem(url)
                if problem is not None:
                    raise SourceRefused(problem)
                version: str | None = version_of(url.encode())
            elif known_only:
                version = self._local.known_version(source.local_path)
            else:
                version = self._local.version(source.local_path)
        except SourceRefused as refusal:
            self._log_refusal(url, str(refusal))
            return None
        if version is None:
            return None
        key = f"{version}/{source.segment}"
        if len(key) > MAX_KEY_LENGTH:
            self._log_refusal(url, f"its route URL would be over {MAX_KEY_LENGTH} characters")
            return None
        return key

    def _log_refusal(self, url: str, reason: str) -> None:
        if url in self._refused:
            return
        if len(self._refused) >= _MAX_REMEMBERED_REFUSALS:
            self._refused.clear()
        self._refused.add(url)
        logger.warning("Image route: not for %s (%s); the page links it as it is", url, reason)
