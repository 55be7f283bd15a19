"""Choose and open the content store the settings ask for, and the cache in front of it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from server.content.cache import ContentCache, ContentStore
from server.content.firestore import FirestoreContentStore
from server.content.live import LiveContent
from server.content.local import IMAGES_FOLDER, LocalContentStore, watch_content_files
from server.content.photo_policy import PhotoUrlPolicy
from server.settings import ContentSource, Settings
from server.site.company import Company

logger = logging.getLogger(__name__)


def open_content(
    settings: Settings, company: Company
) -> tuple[ContentCache, Callable[[], Awaitable[None]]]:
    """The cache the pages read through, and what closes it, its store and its listeners. Call on
    the event loop: for Firestore with CONTENT_LIVE on, the listeners start at once."""
    store: ContentStore
    photo_urls = PhotoUrlPolicy(
        allow_http=settings.dev_mode, images_dir=settings.content_dir / IMAGES_FOLDER
    )
    if settings.content_source is ContentSource.FIRESTORE:
        store = FirestoreContentStore(
            project=company.firestore_project(settings.google_cloud_project),
            timeout_seconds=settings.firestore_timeout_seconds,
            photo_urls=photo_urls,
        )
    else:
        store = LocalContentStore(settings.content_dir, photo_urls)
    cache = ContentCache(
        store,
        max_age_seconds=settings.content_cache_seconds,
        # Before a listener's first snapshot, a page waits for it as it would
        # for a read, then reads.
        first_snapshot_wait_seconds=settings.firestore_timeout_seconds,
        max_staleness_seconds=settings.content_max_staleness_seconds,
    )
    # Closed last first: the listeners and the watch write into the cache and use the store.
    closing = contextlib.AsyncExitStack()
    closing.push_async_callback(store.close)
    closing.push_async_callback(cache.close)
    if isinstance(store, FirestoreContentStore) and settings.content_live:
        live = LiveContent(store, cache)
        live.start()
        closing.push_async_callback(live.close)
        how = "listeners"
    elif isinstance(store, LocalContentStore):
        stop_watching = asyncio.Event()
        watch = asyncio.create_task(watch_content_files(settings.content_dir, cache, stop_watching))
        closing.push_async_callback(asyncio.gather, watch)
        closing.callback(stop_watching.set)
        how = f"a watch on {settings.content_dir}"
    else:
        how = f"reads every {settings.content_cache_seconds:g} s"
    logger.info("Content kept current by %s", how)
    return cache, closing.aclose
