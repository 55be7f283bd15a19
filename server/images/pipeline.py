"""A photo's variant, made once: from the disk cache, else from its source. Concurrent
requests for the same variant (or remote photo) share one piece of work."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial

import anyio

from server.images.checks import ImageRefused
from server.images.disk_cache import DiskCache
from server.images.sources import LocalPhotos, RemotePhotos, SourceRefused, version_of
from server.images.transform import OutputFormat, make_variant
from server.images.urls import PhotoSource
from server.images.variants import Variant

# A refused photo is not fetched or decoded again for this long: each request falls back at once.
REFUSAL_MEMORY_SECONDS = 60
_MAX_REFUSALS = 1000


class PhotoRefused(Exception):
    """No variant of this photo: the page should fall back to the original."""


class UnknownPhoto(Exception):
    """A remote photo the site's content does not show: not ours to fetch."""


@dataclass
class PhotoPipeline:
    local: LocalPhotos
    remote: RemotePhotos
    cache: DiskCache
    is_content_photo: Callable[[str], Awaitable[bool]]  # is a remote URL some item's photoUrl?
    workers: int = 2
    clock: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        self._limiter = anyio.CapacityLimiter(self.workers)
        self._running: dict[str, asyncio.Future[bytes]] = {}
        # Source name -> (until when, why).
        self._refusals: dict[str, tuple[float, str]] = {}

    def problem(self, source: PhotoSource) -> str | None:
        """Why the route will not take this photo at all (no fallback either), or None."""
        if source.local_path is not None:
            return self.local.problem(source.local_path)
        return self.remote.problem(source.photo_url)

    async def variant(
        self, source: PhotoSource, version: str, variant: Variant, output: OutputFormat
    ) -> tuple[bytes, bool]:
        """The variant, and whether `version` is the photo's current one (when not, the
        file changed since the page was built). PhotoRefused, or UnknownPhoto for a
        remote URL not in the content."""
        local_path = source.local_path
        if local_path is not None:
            try:
                current = await anyio.to_thread.run_sync(self.local.version, local_path)
            except SourceRefused as refusal:
                raise PhotoRefused(str(refusal)) from None
            name = f"local-{current}"
        else:
            # Asked on every request, cached variant or not: a photo staff replaced or
            # deleted stops being served once the content no longer shows it.
            if not await self.is_content_photo(source.photo_url):
                raise UnknownPhoto(source.photo_url)
            current = version_of(source.photo_url.encode())
            name = f"remote-{current}"

        async def make() -> bytes:
            until, reason = self._refusals.get(name, (0.0, ""))
            if self.clock() < until:
                raise PhotoRefused(f"{reason} (refused less than {REFUSAL_MEMORY_SECONDS} s ago)")
            if local_path is not None:
                data, _version = await anyio.to_thread.run_sync(self.local.read, local_path)
            else:
                # The photo itself is kept too: each variant and format needs it, and
                # a camera photo is megabytes to fetch again.
                fetch = partial(self.remote.fetch, source.photo_url)
                data = await self._kept(f"{name}-source", fetch)
            return await anyio.to_thread.run_sync(
                make_variant, data, variant, output, limiter=self._limiter
            )

        try:
            body = await self._kept(f"{name}-{variant.name}.{output.name.lower()}", make)
        except (SourceRefused, ImageRefused) as refusal:
            if len(self._refusals) >= _MAX_REFUSALS:
                self._refusals.clear()
            self._refusals[name] = (self.clock() + REFUSAL_MEMORY_SECONDS, str(refusal))
            raise PhotoRefused(str(refusal)) from None
        return body, current == version

    async def _kept(self, key: str, make: Callable[[], Awaitable[bytes]]) -> bytes:
        """From the disk cache, else made (once for every caller asking meanwhile) and kept."""
        cached = await anyio.to_thread.run_sync(self.cache.get, key)
        if cached is not None:
            return cached

        async def make_and_keep() -> bytes:
            data = await make()
            await anyio.to_thread.run_sync(self.cache.put, key, data)
            return data

        running = self._running.get(key)
        if running is None:
            running = self._running[key] = asyncio.ensure_future(make_and_keep())
            running.add_done_callback(partial(self._finished, key))
        # shield: one visitor leaving must not cancel what the others wait on.
        return await asyncio.shield(running)

    def _finished(self, key: str, future: asyncio.Future[bytes]) -> None:
        self._running.pop(key, None)
        if not future.cancelled():
            future.exception()  # retrieved, even if every waiter has gone
