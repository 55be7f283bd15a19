"""Open the image route the settings ask for: its page-data keys and its pipeline."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from server.content.cache import ContentCache
from server.content.local import IMAGES_FOLDER
from server.content.models import Collection
from server.images.disk_cache import DiskCache
from server.images.folder_watch import FolderWatch
from server.images.pipeline import PhotoPipeline
from server.images.sources import FetchLimits, LocalPhotos, RemotePhotos
from server.images.urls import PhotoKeys
from server.settings import Settings


@dataclass(frozen=True)
class ImageRoute:
    keys: PhotoKeys
    # None when the route is off (IMAGE_ROUTE=off).
    pipeline: PhotoPipeline | None
    # The local photos' folder, watched so photo keys need no stat per request.
    files: FolderWatch | None = None

    def start(self) -> None:
        if self.files is not None:
            self.files.start()

    async def close(self) -> None:
        if self.files is not None:
            await self.files.close()
        if self.pipeline is not None:
            await self.pipeline.remote.aclose()


def open_image_route(settings: Settings, content: ContentCache) -> ImageRoute:
    if not settings.image_route:
        return ImageRoute(keys=PhotoKeys.off(), pipeline=None)
    max_bytes = int(settings.image_fetch_max_mb * 1024 * 1024)
    local = LocalPhotos(settings.content_dir / IMAGES_FOLDER, max_bytes=max_bytes)
    remote = RemotePhotos(
        hosts=settings.image_hosts,
        allow_http=settings.dev_mode,
        limits=FetchLimits(
            max_bytes=max_bytes, timeout_seconds=settings.image_fetch_timeout_seconds
        ),
    )
    pipeline = PhotoPipeline(
        local=local,
        remote=remote,
        cache=DiskCache(
            settings.image_cache_dir, max_bytes=int(settings.image_cache_mb * 1024 * 1024)
        ),
        is_content_photo=content_photo_check(content),
        # Pillow releases the GIL while it decodes, resizes and encodes, so
        # each worker can fill a core: half of them, pages come first.
        workers=max(1, min((os.cpu_count() or 1) // 2, 4)),
    )
    files = FolderWatch(settings.content_dir / IMAGES_FOLDER)
    return ImageRoute(
        keys=PhotoKeys(local=local, remote=remote, files=files), pipeline=pipeline, files=files
    )


def content_photo_check(content: ContentCache) -> Callable[[str], Awaitable[bool]]:
    """Whether a URL is the photoUrl of an item of the content, as the cache has it now."""

    async def is_content_photo(url: str) -> bool:
        snapshots = await asyncio.gather(*(content.get(collection) for collection in Collection))
        return any(item.photoUrl == url for snapshot in snapshots for item in snapshot.items)

    return is_content_photo
