"""The studio's writes to Firestore, with the server's own credentials (browsers never write).

The same operations as local_content.py, on the site's collections; the
listeners bring each change to every worker's pages.
"""

from __future__ import annotations

from typing import Any

from google.api_core import exceptions as google_errors
from google.api_core.datetime_helpers import DatetimeWithNanoseconds
from google.cloud import firestore

from server.content.models import OPTIONAL_FIELDS, POSITION_FIELD, Collection
from server.studio.backends import Changed

Fields = dict[str, str]


class FirestoreStudioContent:
    def __init__(self, client: firestore.AsyncClient) -> None:
        self._client = client

    @classmethod
    def connect(cls, project: str) -> FirestoreStudioContent:
        return cls(firestore.AsyncClient(project=project))

    async def documents(self, collection: Collection) -> list[tuple[str, dict[str, Any]]]:
        return [
            (snapshot.id, snapshot.to_dict() or {})
            async for snapshot in self._client.collection(collection.firestore_name).stream()
        ]

    async def document(
        self, collection: Collection, document_id: str
    ) -> tuple[dict[str, Any], str] | None:
        snapshot = await self._reference(collection, document_id).get()
        if not snapshot.exists or snapshot.update_time is None:
            return None
        # Firestore's own update time, to the nanosecond: the write's precondition below.
        return snapshot.to_dict() or {}, str(snapshot.update_time.rfc3339())

    async def create(self, collection: Collection, document_id: str, fields: Fields) -> bool:
        try:
            await self._reference(collection, document_id).create(fields)
        except google_errors.AlreadyExists:
            return False
        return True

    async def update(
        self, collection: Collection, document_id: str, fields: Fields, *, version: str
    ) -> bool:
        changes: dict[str, Any] = {
            name: firestore.DELETE_FIELD
            if value == "" and name in OPTIONAL_FIELDS[collection]
            else value
            for name, value in fields.items()
        }
        try:
            await self._reference(collection, document_id).update(
                changes, option=self._unchanged_since(version)
            )
        except google_errors.NotFound:
            return False
        except google_errors.FailedPrecondition:
            raise Changed from None
        return True

    async def delete(
        self, collection: Collection, document_id: str, *, version: str
    ) -> dict[str, Any] | None:
        reference = self._reference(collection, document_id)
        snapshot = await reference.get()
        if not snapshot.exists:
            return None
        try:
            await reference.delete(option=self._unchanged_since(version))
        except google_errors.FailedPrecondition:
            raise Changed from None
        return snapshot.to_dict() or {}

    async def set_positions(self, collection: Collection, positions: dict[str, int]) -> None:
        # One batch: the new order shows all at once, never half moved.
        batch = self._client.batch()
        for document_id, position in positions.items():
            batch.update(self._reference(collection, document_id), {POSITION_FIELD: position})
        await batch.commit()

    async def close(self) -> None:
        self._client.close()  # type: ignore[no-untyped-call]  # untyped in the library

    def _unchanged_since(self, version: str) -> Any:  # noqa: ANN401 - the library's untyped option
        """Firestore refuses the write unless the document's update time is still `version`."""
        try:
            update_time = DatetimeWithNanoseconds.from_rfc3339(version)  # type: ignore[no-untyped-call]
        except ValueError:
            raise Changed from None  # not a version this studio wrote: treat as changed
        return self._client.write_option(last_update_time=update_time)

    def _reference(
        self, collection: Collection, document_id: str
    ) -> firestore.AsyncDocumentReference:
        return self._client.collection(collection.firestore_name).document(document_id)
