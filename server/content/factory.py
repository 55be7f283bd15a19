"""Choose and open the content store the settings ask for, and the cache in front of it."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from server.company import Company
from server.content.cache import ContentCache, ContentStore
from server.content.firestore import FirestoreContentStore
from server.content.live import LiveContent
from server.content.local import IMAGES_FOLDER, LocalContentStore
from server.content.photo_urls import PhotoUrlPolicy
from server.settings import ContentSource, Settings

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class OpenContent:
    """What the pages read through (`cache`), and what keeps it current."""

    store: ContentStore
    cache: ContentCache
    live: LiveContent | None

    async def close(self) -> None:
        # Listeners first: they write into the cache and use the store's client.
        if self.live is not None:
            await self.live.close()
        await self.cache.close()
        await self.store.close()


def open_content(settings: Settings, company: Company) -> OpenContent:
    """The store, its cache and, for Firestore with CONTENT_LIVE on, the listeners.

    Call on the event loop: the listeners' supervisors start at once.
    """
    store: ContentStore
    if settings.content_source is ContentSource.FIRESTORE:
        store = FirestoreContentStore(
            project=company.firestore_project(settings.google_cloud_project),
            timeout_seconds=settings.firestore_timeout_seconds,
            photo_urls=PhotoUrlPolicy(
                allow_http=settings.dev_mode, images_dir=settings.content_dir / IMAGES_FOLDER
            ),
        )
    else:
        store = LocalContentStore(settings.content_dir, allow_http_images=settings.dev_mode)
    cache = ContentCache(
        store,
        max_age_seconds=settings.content_cache_seconds,
        # Before a listener's first snapshot, a page waits for it as it would
        # for a read, then reads.
        first_snapshot_wait_seconds=settings.firestore_timeout_seconds,
        max_staleness_seconds=settings.content_max_staleness_seconds,
    )
    live = None
    if isinstance(store, FirestoreContentStore) and settings.content_live:
        live = LiveContent(store, cache)
        live.start()
    how = "listeners" if live is not None else f"reads every {settings.content_cache_seconds:g} s"
    logger.info("Content kept current by %s", how)
    return OpenContent(store=store, cache=cache, live=live)
