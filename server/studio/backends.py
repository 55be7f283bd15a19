"""What the handlers need from a studio's storage and sign-in; local files or Firebase."""

from __future__ import annotations

from typing import Any, Protocol

from server.content.models import Collection
from server.studio.sessions import Credentials, StaffSession

Fields = dict[str, str]


class Changed(Exception):
    """The document changed since its form was opened (another person saved it): nothing written."""


class StudioContent(Protocol):
    async def documents(self, collection: Collection) -> list[tuple[str, dict[str, Any]]]: ...
    async def document(
        self, collection: Collection, document_id: str
    ) -> tuple[dict[str, Any], str] | None:
        """The fields and what changes with every write of them (a form carries it)."""
        ...

    # False when the id is taken; update False and delete None when the document is gone,
    # and both raise Changed when `version` is no longer the document's.
    async def create(self, collection: Collection, document_id: str, fields: Fields) -> bool: ...
    async def update(
        self, collection: Collection, document_id: str, fields: Fields, *, version: str
    ) -> bool: ...
    async def delete(
        self, collection: Collection, document_id: str, *, version: str
    ) -> dict[str, Any] | None: ...
    async def set_positions(self, collection: Collection, positions: dict[str, int]) -> None:
        """Write each named document's `position` (the order of the cards)."""
        ...

    async def close(self) -> None: ...


class StaffSessions(Protocol):
    lifetime_seconds: float
    # Local: a button alone; Firebase: a Google ID token, or email and password.
    asks_for_credentials: bool

    async def sign_in(self, credentials: Credentials) -> tuple[str, str]:
        """A new session's cookie and who it is for; NoAccess when refused."""
        ...

    async def find(self, cookie: str | None) -> StaffSession | None: ...
    async def close(self, cookie: str | None) -> None: ...
