"""The content-store interface the pages read through. No HTTP in here."""

from __future__ import annotations

from typing import Protocol

from server.content.models import Collection, ContentItem


class ContentUnavailableError(Exception):
    """A collection could not be read (the database is down, slow or refusing)."""


class ContentStore(Protocol):
    """Read-only access to the three collections, each read whole."""

    async def fetch(self, collection: Collection) -> list[ContentItem]:
        """Every valid document of the collection; raises ContentUnavailableError."""
        ...

    async def close(self) -> None: ...
