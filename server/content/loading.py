"""Reading a collection for a page: a failed read leaves the list empty."""

from __future__ import annotations

import logging

from server.content.models import Collection, ContentItem
from server.content.store import ContentStore, ContentUnavailableError

logger = logging.getLogger("server.content")


async def load_collection(store: ContentStore, collection: Collection) -> list[ContentItem]:
    """The collection's items, or an empty list and the spec's error line."""
    try:
        return await store.fetch(collection)
    except ContentUnavailableError as error:
        log_fetch_error(collection, error)
        return []


def log_fetch_error(collection: Collection, error: Exception) -> None:
    logger.error("%s %s", collection.error_prefix, error)
