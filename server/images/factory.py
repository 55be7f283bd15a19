"""Open the image route the settings ask for: its page-data keys and its pipeline."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from server.content.cache import ContentCache
from server.content.local import IMAGES_FOLDER
from server.content.models import Collection, photo_urls
from server.images.disk_cache import DiskCache
from server.images.pipeline import PhotoPipeline
from server.images.sources import LocalPhotos, RemotePhotos
from server.images.urls import PhotoKeys
from server.settings import Settings


@asynccontextmanager
async def open_image_route(
    settings: Settings, content: ContentCache
) -> AsyncIterator[tuple[PhotoKeys, PhotoPipeline | None]]:
    """The photos' keys and the pipeline (None with IMAGE_ROUTE=off), open while in use."""
    if not settings.image_route:
        yield PhotoKeys(), None
        return

    async def is_content_photo(url: str) -> bool:
        snapshots = await asyncio.gather(*(content.get(collection) for collection in Collection))
        return any(url in photo_urls(snapshot.items) for snapshot in snapshots)

    max_bytes = int(settings.image_fetch_max_mb * 1024 * 1024)
    local = LocalPhotos(settings.content_dir / IMAGES_FOLDER, max_bytes=max_bytes)
    remote = RemotePhotos(
        hosts=settings.image_hosts,
        allow_http=settings.dev_mode,
        max_bytes=max_bytes,
        timeout_seconds=settings.image_fetch_timeout_seconds,
    )
    pipeline = PhotoPipeline(
        local=local,
        remote=remote,
        cache=DiskCache(settings.image_cache_dir, max_bytes=int(settings.image_cache_mb * 1024**2)),
        is_content_photo=is_content_photo,
        # Pillow releases the GIL while it decodes, resizes and encodes, so
        # each worker can fill a core: half of them, pages come first.
        workers=max(1, min((os.cpu_count() or 1) // 2, 4)),
    )
    keys = PhotoKeys(local, remote)
    try:
        yield keys, pipeline
    finally:
        await keys.close()
        await remote.aclose()
