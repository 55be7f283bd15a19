"""The studio's writes to Firestore, with the server's own credentials (browsers never write).

The same operations as local_content.py, on the site's collections; the
listeners bring each change to every worker's pages.
"""

from __future__ import annotations

from typing import Any

from google.api_core import exceptions as google_errors
from google.cloud import firestore

from server.content.models import OPTIONAL_FIELDS, REQUIRED_FIELDS, Collection

Fields = dict[str, str]


class FirestoreStudioContent:
    def __init__(self, client: firestore.AsyncClient) -> None:
        self._client = client

    @classmethod
    def connect(cls, project: str) -> FirestoreStudioContent:
        return cls(firestore.AsyncClient(project=project))

    async def documents(self, collection: Collection) -> list[tuple[str, dict[str, Any]]]:
        found = [
            (snapshot.id, snapshot.to_dict() or {})
            async for snapshot in self._client.collection(collection.firestore_name).stream()
        ]
        return found

    async def document(self, collection: Collection, document_id: str) -> dict[str, Any] | None:
        snapshot = await self._reference(collection, document_id).get()
        return snapshot.to_dict() if snapshot.exists else None

    async def create(self, collection: Collection, document_id: str, fields: Fields) -> bool:
        known = (*REQUIRED_FIELDS[collection], *OPTIONAL_FIELDS[collection])
        values = {name: fields[name] for name in known if fields.get(name)}
        try:
            await self._reference(collection, document_id).create(values)
        except google_errors.AlreadyExists:
            return False
        return True

    async def update(self, collection: Collection, document_id: str, fields: Fields) -> bool:
        changes: dict[str, Any] = {
            name: firestore.DELETE_FIELD
            if value == "" and name in OPTIONAL_FIELDS[collection]
            else value
            for name, value in fields.items()
        }
        try:
            await self._reference(collection, document_id).update(changes)
        except google_errors.NotFound:
            return False
        return True

    async def delete(self, collection: Collection, document_id: str) -> dict[str, Any] | None:
        reference = self._reference(collection, document_id)
        snapshot = await reference.get()
        if not snapshot.exists:
            return None
        await reference.delete()
        return snapshot.to_dict() or {}

    async def photo_in_use(self, photo_url: str) -> bool:
        for collection in Collection:
            query = self._client.collection(collection.firestore_name).where(
                filter=firestore.FieldFilter("photoUrl", "==", photo_url)
            )
            async for _snapshot in query.limit(1).stream():
                return True
        return False

    async def close(self) -> None:
        self._client.close()  # type: ignore[no-untyped-call]  # untyped in the library

    def _reference(
        self, collection: Collection, document_id: str
    ) -> firestore.AsyncDocumentReference:
        return self._client.collection(collection.firestore_name).document(document_id)
