"""The spec's error line for a failed read of a collection."""

from __future__ import annotations

import logging

from server.content.models import Collection

logger = logging.getLogger("server.content")


def log_fetch_error(collection: Collection, error: Exception) -> None:
    # "Error fetching projects: <reason>", as the spec words it.
    logger.error("%s %s", collection.error_prefix, error)
