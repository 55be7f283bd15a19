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
from server.images.folder_watch import FolderWatch
from server.images.sources import LocalPhotos, RemotePhotos, SourceRefused, version_of

logger = logging.getLogger(__name__)

VERSION = re.compile(r"[A-Za-z0-9_-]{12}")
LOCAL = "local"
REMOTE = "remote"
# Photos refused a key, each logged once: the page builder asks on every render.
_MAX_REMEMBERED_REFUSALS = 1000
# Photo URLs whose keys are remembered at once (a content of thousands of items fits).
_MAX_REMEMBERED_KEYS = 50_000
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
    """Each photo's `photoKey`, for the page data; none when the route is off or refuses it.

    A key depends on the content (the URL) and, for a local photo, on the file's
    bytes. With the image folder watched (`files`), keys are remembered until a
    file changes, so a page request makes no filesystem call; without a watch,
    each local photo costs a stat per request.
    """

    def __init__(
        self,
        *,
        local: LocalPhotos | None = None,
        remote: RemotePhotos | None = None,
        files: FolderWatch | None = None,
    ) -> None:
        self._local = local
        self._remote = remote
        self._files = files
        self._refused: set[str] = set()
        # URL -> key (None: refused), true while the folder's generation is `_known_at`.
        self._known: dict[str, str | None] = {}
        self._known_at = -1

    @classmethod
    def off(cls) -> PhotoKeys:
        return cls()

    @property
    def remembered(self) -> bool:
        """Keys are remembered between requests: the image folder is being watched."""
        return self._files is not None and self._files.active

    @property
    def generation(self) -> int | None:
        """The keys stay the same while this and the content do (None: it cannot say).

        0 when no photo gets a key (the route is off); the image folder's
        generation while it is watched.
        """
        if self._local is None and self._remote is None:
            return 0
        return self._files_generation()

    async def keys_for(self, photo_urls: Iterable[str]) -> dict[str, str]:
        generation = self._files_generation()
        if generation != self._known_at or len(self._known) > _MAX_REMEMBERED_KEYS:
            self._known.clear()
        keys: dict[str, str] = {}
        unread: list[str] = []
        for url in dict.fromkeys(photo_urls):
            if url in self._known:
                key = self._known[url]
            else:
                # A stat per local photo here; files new or changed are read below.
                key = self._key(url, known_only=True)
                if key is None and self._needs_reading(url):
                    unread.append(url)
                    continue
                self._remember(url, key, generation)
            if key is not None:
                keys[url] = key
        if unread:
            read = await anyio.to_thread.run_sync(self._read_keys, unread)
            for url in unread:
                self._remember(url, read.get(url), generation)
            keys.update(read)
        return keys

    def _files_generation(self) -> int | None:
        return self._files.generation if self._files is not None and self._files.active else None

    def _needs_reading(self, url: str) -> bool:
        """A local photo without a known version: new, changed, or refused."""
        return self._local is not None and photo_source(url).local_path is not None

    def _remember(self, url: str, key: str | None, generation: int | None) -> None:
        # Only what was worked out while the folder's generation stayed the same.
        if generation is not None and self._files_generation() == generation:
            self._known_at = generation
            self._known[url] = key

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
