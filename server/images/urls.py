"""The image route's URLs, /img/{variant}/{version}/{source}, and each photo's
`photoKey` ({version}/{source}) for the page data (docs/architecture.md, "Images")."""

from __future__ import annotations

import asyncio
import base64
import logging
import re
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import anyio
from watchfiles import awatch

from server.content.photo_policy import LOCAL_IMAGES_PREFIX
from server.images.sources import LocalPhotos, RemotePhotos, SourceRefused, version_of

logger = logging.getLogger(__name__)

VERSION = re.compile(r"[A-Za-z0-9_-]{12}")
_MAX_REFUSALS = 1000
_MAX_KEYS = 50_000  # photo URLs whose keys are remembered at once (thousands of items fit)
MAX_KEY_LENGTH = 1500  # well under the longest path the site accepts (server/http/request_rules.py)


@dataclass(frozen=True)
class PhotoSource:
    """A photo as the route's URL names it."""

    photo_url: str  # the photo's own URL, as in the content: what a refused variant falls back to
    local_path: str | None  # its path under the local image folder; None for a remote photo


def photo_source(photo_url: str) -> PhotoSource:
    if photo_url.startswith(LOCAL_IMAGES_PREFIX):
        # A query (?v=2) on a local photo means nothing to the server.
        path = unquote(urlsplit(photo_url).path)
        return PhotoSource(photo_url, path.removeprefix(LOCAL_IMAGES_PREFIX))
    return PhotoSource(photo_url, None)


def source_from_route(kind: str, rest: str) -> PhotoSource | None:
    """The photo a route URL's source part names (as Starlette decoded it), or None."""
    if kind == "local" and rest:
        return PhotoSource(LOCAL_IMAGES_PREFIX + quote(rest, safe="/"), rest)
    if kind == "remote" and rest:
        try:
            url = base64.urlsafe_b64decode(rest + "=" * (-len(rest) % 4)).decode()
        except ValueError:  # binascii.Error, UnicodeDecodeError
            return None
        return PhotoSource(url, None)
    return None


class PhotoKeys:
    """Each photo's `photoKey`, for the page data; none when the route is off or refuses it. While
    the image folder is watched, keys are remembered until a file changes, so a page request makes
    no filesystem call; without, a stat per local photo."""

    def __init__(
        self, local: LocalPhotos | None = None, remote: RemotePhotos | None = None
    ) -> None:
        self._local = local
        self._remote = remote
        self._refused: set[str] = set()
        # URL -> key (None: refused), true while the folder's generation is `_known_at`.
        self._known: dict[str, str | None] = {}
        self._known_at: int | None = None
        # Goes up on every change in the folder; None while it is not watched.
        self._generation: int | None = None
        self._stop = asyncio.Event()
        self._watch = asyncio.create_task(self._watch_folder(local.folder)) if local else None

    @property
    def generation(self) -> int | None:
        """The keys stay the same while this and the content do: 0 with the route off;
        the image folder's generation while it is watched; None when it cannot say."""
        return 0 if self._local is None else self._generation

    async def close(self) -> None:
        self._stop.set()
        if self._watch is not None:
            with suppress(asyncio.CancelledError):
                await self._watch

    async def _watch_folder(self, folder: Path) -> None:
        if not folder.is_dir():
            logger.info("Not watching %s: no such folder", folder)
            return
        generation = 0
        try:
            # An empty answer each second (rust_timeout) when nothing changes: the
            # first proves the watch is set, so no change before it can be missed.
            async for changed in awatch(
                folder,
                watch_filter=None,
                step=20,  # ms after the last change of a burst
                stop_event=self._stop,
                rust_timeout=1000,
                yield_on_timeout=True,
            ):
                if changed:
                    generation += 1
                self._generation = generation
        except Exception:
            logger.exception("Watching %s failed; photos are checked on each request", folder)
        finally:
            self._generation = None

    async def keys_for(self, photo_urls: Iterable[str]) -> dict[str, str]:
        local, remote = self._local, self._remote
        if local is None or remote is None:
            return {}
        generation = self.generation
        if generation is None or generation != self._known_at or len(self._known) > _MAX_KEYS:
            self._known = {}
            self._known_at = generation
        urls = dict.fromkeys(photo_urls)
        found = {url: self._known[url] for url in urls if url in self._known}
        if missing := [url for url in urls if url not in found]:
            # Blocking: reads each local photo that is new or changed.
            made = await anyio.to_thread.run_sync(
                lambda: {url: self._key(url, local, remote) for url in missing}
            )
            # Only what was worked out while the folder's generation stayed the same.
            if generation is not None and self.generation == generation:
                self._known.update(made)
            found.update(made)
        return {url: key for url in urls if (key := found[url]) is not None}

    def _key(self, url: str, local: LocalPhotos, remote: RemotePhotos) -> str | None:
        source = photo_source(url)
        try:
            if source.local_path is not None:
                version = local.version(source.local_path)
                segment = f"local/{quote(source.local_path, safe='/')}"
            elif (problem := remote.problem(url)) is not None:
                raise SourceRefused(problem)
            else:
                version = version_of(url.encode())
                segment = f"remote/{base64.urlsafe_b64encode(url.encode()).decode().rstrip('=')}"
            key = f"{version}/{segment}"
            if len(key) > MAX_KEY_LENGTH:
                raise SourceRefused(f"its route URL would be over {MAX_KEY_LENGTH} characters")
        except SourceRefused as refusal:
            # Each logged once: the page builder asks on every render.
            if url not in self._refused:
                if len(self._refused) >= _MAX_REFUSALS:
                    self._refused.clear()
                self._refused.add(url)
                logger.warning(
                    "Image route: not for %s (%s); the page links it as it is", url, refusal
                )
            return None
        return key
