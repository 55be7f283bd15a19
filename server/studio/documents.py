"""The studio's content writes: to content/*.json, atomically, keeping the file's formatting and
order (the slider shows its photos in the file's order), or to Firestore with the server's own
credentials (browsers never write). Create is False when the id is taken; update False and delete
None when the document is gone; both raise Changed when `version` is no longer the document's."""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path
from typing import Any

import anyio
from google.api_core import exceptions as google_errors
from google.api_core.datetime_helpers import DatetimeWithNanoseconds
from google.cloud import firestore
from google.cloud.firestore_v1.base_query import BaseFilter

from server.content import local
from server.content.models import (
    DETAILS,
    EMPTY,
    FINISHES,
    POSITION_FIELD,
    Collection,
    linked_photos,
)

Fields = dict[str, Any]


class Changed(Exception):
    """The document changed since its form was opened (another person saved it): nothing written."""


class LocalStudioContent:
    def __init__(self, content_dir: Path) -> None:
        self._content_dir = content_dir
        # One write at a time: each rewrites a whole file.
        self._lock = asyncio.Lock()

    async def documents(self, collection: Collection) -> list[tuple[str, Fields]]:
        raw = await self._read(collection)
        return [(doc_id, _fields(doc)) for doc in raw if (doc_id := local.document_id(doc))]

    async def document(self, collection: Collection, document_id: str) -> tuple[Fields, str] | None:
        """The fields, and their version: what changes with every write (a form carries it)."""
        fields = dict(await self.documents(collection)).get(document_id)
        return None if fields is None else (fields, _fingerprint(fields))

    async def create(self, collection: Collection, document_id: str, fields: Fields) -> bool:
        async with self._lock:
            raw = await self._read(collection)
            if any(local.document_id(doc) == document_id for doc in raw):
                return False
            await self._write(collection, [*raw, {local.ID_KEY: document_id, **fields}])
            return True

    async def update(
        self, collection: Collection, document_id: str, fields: Fields, *, version: str
    ) -> bool:
        async with self._lock:
            raw = await self._read(collection)
            index = _index_at_version(raw, document_id, version)
            if index is None:
                return False
            changed = {**raw[index], **fields}.items()
            raw[index] = {name: value for name, value in changed if value not in EMPTY}
            await self._write(collection, raw)
            return True

    async def delete(
        self, collection: Collection, document_id: str, *, version: str
    ) -> Fields | None:
        async with self._lock:
            raw = await self._read(collection)
            index = _index_at_version(raw, document_id, version)
            if index is None:
                return None
            kept = [doc for doc in raw if local.document_id(doc) != document_id]
            await self._write(collection, kept)
            return _fields(raw[index])

    async def set_positions(self, collection: Collection, positions: dict[str, int]) -> None:
        async with self._lock:
            raw = await self._read(collection)
            for doc in raw:
                if (doc_id := local.document_id(doc)) in positions:
                    doc[POSITION_FIELD] = positions[doc_id]
            await self._write(collection, raw)

    async def photo_in_use(self, photo_url: str) -> bool:
        documents = [fields for c in Collection for _id, fields in await self.documents(c)]
        return any(photo_url in linked_photos(fields) for fields in documents)

    async def close(self) -> None:
        pass

    async def _read(self, collection: Collection) -> list[Any]:
        path = local.collection_file(self._content_dir, collection)
        return await anyio.to_thread.run_sync(local.read_documents, path)

    async def _write(self, collection: Collection, documents: list[Any]) -> None:
        text = json.dumps(documents, indent=2, ensure_ascii=False) + "\n"
        path = local.collection_file(self._content_dir, collection)
        await anyio.to_thread.run_sync(local.write_text_atomically, path, text)


class FirestoreStudioContent:
    def __init__(self, project: str) -> None:
        self._client = firestore.AsyncClient(project=project)

    async def documents(self, collection: Collection) -> list[tuple[str, Fields]]:
        stream = self._client.collection(collection.firestore_name).stream()
        return [(snapshot.id, snapshot.to_dict() or {}) async for snapshot in stream]

    async def document(self, collection: Collection, document_id: str) -> tuple[Fields, str] | None:
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
            name: firestore.DELETE_FIELD if value in EMPTY else value
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
    ) -> Fields | None:
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

    async def photo_in_use(self, photo_url: str) -> bool:
        # A query, so an edit costs one billed read per collection, not one per entry.
        for collection in Collection:
            paths = ["photoUrl"]
            if "finishPhotos" in DETAILS[collection]:  # a stone's photo of each finish
                paths += [self._client.field_path("finishPhotos", f) for f in FINISHES]
            linked: list[BaseFilter] = [
                firestore.FieldFilter(path, "==", photo_url) for path in paths
            ]
            query = self._client.collection(collection.firestore_name).where(
                filter=firestore.Or(linked) if len(linked) > 1 else linked[0]
            )
            async for _snapshot in query.limit(1).stream():
                return True
        return False

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


StudioContent = LocalStudioContent | FirestoreStudioContent


def _fields(document: Fields) -> Fields:
    return {name: value for name, value in document.items() if name != local.ID_KEY}


def _fingerprint(fields: Fields) -> str:
    """The files keep no update time: the document's own content stands for its version."""
    encoded = json.dumps(_fields(fields), sort_keys=True, ensure_ascii=False).encode()
    return hashlib.sha256(encoded).hexdigest()[:20]


def _index_at_version(documents: list[Any], document_id: str, version: str) -> int | None:
    """Where the document is in its file, None when it is gone; Changed when it is no longer
    at `version`, the one its form was opened at."""
    found = (i for i, doc in enumerate(documents) if local.document_id(doc) == document_id)
    index = next(found, None)
    if index is not None and _fingerprint(documents[index]) != version:
        raise Changed
    return index
