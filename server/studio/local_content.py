"""The studio's writes to the embedded content: content/*.json, in place, atomically.

A file keeps its formatting (2-space JSON, UTF-8 as is, a final newline) and
its order: an edited document stays where it was, a new one goes last (the
slider shows its photos in the file's order).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path
from typing import Any

import anyio

from server.content.local import (
    ID_KEY,
    collection_file,
    read_documents,
    write_text_atomically,
)
from server.content.models import OPTIONAL_FIELDS, POSITION_FIELD, REQUIRED_FIELDS, Collection
from server.studio.backends import Changed

Fields = dict[str, str]


class LocalStudioContent:
    def __init__(self, content_dir: Path) -> None:
        self._content_dir = content_dir
        # One write at a time: each rewrites a whole file.
        self._lock = asyncio.Lock()

    async def documents(self, collection: Collection) -> list[tuple[str, dict[str, Any]]]:
        """The collection's documents in file order: (id, fields)."""
        raw = await anyio.to_thread.run_sync(read_documents, self._file(collection))
        return [
            (doc[ID_KEY], {k: v for k, v in doc.items() if k != ID_KEY})
            for doc in raw
            if isinstance(doc, dict) and isinstance(doc.get(ID_KEY), str) and doc[ID_KEY]
        ]

    async def document(self, collection: Collection, document_id: str) -> dict[str, Any] | None:
        return dict(await self.documents(collection)).get(document_id)

    async def version(self, collection: Collection, document_id: str) -> str | None:
        fields = await self.document(collection, document_id)
        return None if fields is None else _fingerprint(fields)

    async def create(self, collection: Collection, document_id: str, fields: Fields) -> bool:
        """Add the document; False (and nothing written) when the id is taken."""
        async with self._lock:
            raw = await anyio.to_thread.run_sync(read_documents, self._file(collection))
            if any(_id_of(doc) == document_id for doc in raw):
                return False
            raw.append({ID_KEY: document_id, **_ordered(collection, fields)})
            await self._write(collection, raw)
            return True

    async def update(
        self, collection: Collection, document_id: str, fields: Fields, *, version: str
    ) -> bool:
        """Set the given fields (an empty string removes an optional one); False when absent."""
        async with self._lock:
            raw = await anyio.to_thread.run_sync(read_documents, self._file(collection))
            for index, doc in enumerate(raw):
                if _id_of(doc) == document_id:
                    _check_version(doc, version)
                    merged = {**doc, **fields}
                    for name in OPTIONAL_FIELDS[collection]:
                        if merged.get(name) == "":
                            del merged[name]
                    raw[index] = merged
                    await self._write(collection, raw)
                    return True
            return False

    async def delete(
        self, collection: Collection, document_id: str, *, version: str
    ) -> dict[str, Any] | None:
        """Remove the document; its fields, or None when it was not there."""
        async with self._lock:
            raw = await anyio.to_thread.run_sync(read_documents, self._file(collection))
            kept = [doc for doc in raw if _id_of(doc) != document_id]
            if len(kept) == len(raw):
                return None
            removed = next(doc for doc in raw if _id_of(doc) == document_id)
            _check_version(removed, version)
            await self._write(collection, kept)
            return {k: v for k, v in removed.items() if k != ID_KEY}

    async def set_positions(self, collection: Collection, positions: dict[str, int]) -> None:
        async with self._lock:
            raw = await anyio.to_thread.run_sync(read_documents, self._file(collection))
            for doc in raw:
                if _id_of(doc) in positions:
                    doc[POSITION_FIELD] = positions[doc[ID_KEY]]
            await self._write(collection, raw)

    async def photo_in_use(self, photo_url: str) -> bool:
        for collection in Collection:
            for _id, fields in await self.documents(collection):
                if fields.get("photoUrl") == photo_url:
                    return True
        return False

    async def close(self) -> None:
        """Nothing to close: files."""

    async def _write(self, collection: Collection, documents: list[Any]) -> None:
        text = json.dumps(documents, indent=2, ensure_ascii=False) + "\n"
        await anyio.to_thread.run_sync(write_text_atomically, self._file(collection), text)

    def _file(self, collection: Collection) -> Path:
        return collection_file(self._content_dir, collection)


def _fingerprint(fields: dict[str, Any]) -> str:
    """The files keep no update time: the document's own content stands for its version."""
    content = {name: value for name, value in fields.items() if name != ID_KEY}
    encoded = json.dumps(content, sort_keys=True, ensure_ascii=False).encode()
    return hashlib.sha256(encoded).hexdigest()[:20]


def _check_version(document: dict[str, Any], version: str) -> None:
    if _fingerprint(document) != version:
        raise Changed


def _id_of(document: object) -> object:
    return document.get(ID_KEY) if isinstance(document, dict) else None


def _ordered(collection: Collection, fields: Fields) -> Fields:
    """A new document's fields in the files' usual order, empty optional ones left out."""
    known = (*REQUIRED_FIELDS[collection], *OPTIONAL_FIELDS[collection])
    return {name: fields[name] for name in known if fields.get(name)}
