"""The embedded content: JSON files in a folder (content/), and the store that reads them. Each
collection is a JSON array of documents, each an object whose "id" is the Firestore document id; the
site serves the folder's images/ at /images/."""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
from watchfiles import awatch

from server.content.cache import ContentCache, ContentUnavailableError
from server.content.models import (
    DETAILS,
    OPTIONAL_FIELDS,
    REQUIRED_FIELDS,
    Collection,
    ContentItem,
    parse_documents,
)
from server.content.photo_policy import PhotoUrlPolicy

logger = logging.getLogger(__name__)

IMAGES_FOLDER = "images"
ID_KEY = "id"


class ContentFileError(Exception):
    """A content file cannot be read as a JSON array (missing, not UTF-8, not JSON)."""


def collection_file(content_dir: Path, collection: Collection) -> Path:
    return content_dir / f"{collection.value}.json"


def read_documents(path: Path) -> list[Any]:
    """The file's JSON array, unchecked beyond being an array."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ContentFileError("file is missing") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ContentFileError(f"cannot be read: {error}") from error
    try:
        documents = json.loads(text)
    except json.JSONDecodeError as error:
        raise ContentFileError(f"is not valid JSON: {error}") from error
    if not isinstance(documents, list):
        found = type(documents).__name__
        raise ContentFileError(f"should be a JSON array of documents, found {found}")
    return documents


def document_id(document: object) -> str | None:
    """The Firestore document id of one entry of a file: its non-empty string "id"."""
    doc_id = document.get(ID_KEY) if isinstance(document, dict) else None
    return doc_id if isinstance(doc_id, str) and doc_id else None


def format_documents(collection: Collection, documents: Mapping[str, Mapping[str, Any]]) -> str:
    """The file's text: by id, fields in the model's order then by name, so a pull diffs cleanly."""
    known = (*REQUIRED_FIELDS[collection], *OPTIONAL_FIELDS[collection], *DETAILS[collection])
    entries = []
    for doc_id in sorted(documents):
        fields = documents[doc_id]
        ordered = [name for name in known if name in fields]
        ordered += sorted(name for name in fields if name not in known)
        # Firestore gives a map's keys in no set order: sorted, so a pull diffs cleanly.
        entries.append({ID_KEY: doc_id, **{name: _sorted(fields[name]) for name in ordered}})
    return json.dumps(entries, indent=2, ensure_ascii=False) + "\n"


def _sorted(value: object) -> object:
    return dict(sorted(value.items())) if isinstance(value, dict) else value


def write_text_atomically(path: Path, text: str) -> None:
    # A crash or a full disk mid-write leaves the old file, never half a file
    # the site would then fail to read.
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


class LocalContentStore:
    """Reads the files on every fetch, so an edited file shows on the next page load."""

    def __init__(self, content_dir: Path, photo_urls: PhotoUrlPolicy | None = None) -> None:
        self._content_dir = content_dir
        self._photo_urls = photo_urls or PhotoUrlPolicy(images_dir=content_dir / IMAGES_FOLDER)

    async def fetch(self, collection: Collection) -> list[ContentItem]:
        path = collection_file(self._content_dir, collection)
        try:
            documents = await anyio.to_thread.run_sync(read_documents, path)
        except ContentFileError as error:
            raise ContentUnavailableError(f"{path}: {error}") from error
        # Mirror Firestore: the id is the document's name, the rest are its fields.
        pairs: list[tuple[str, dict[str, Any]]] = []
        for index, document in enumerate(documents):
            doc_id = document_id(document)
            if doc_id is None:
                logger.warning(
                    'Skipping %s document #%d in %s: it needs a string "id"',
                    collection.firestore_name,
                    index,
                    path,
                )
                continue
            pairs.append((doc_id, {key: value for key, value in document.items() if key != ID_KEY}))
        return parse_documents(collection, pairs, self._photo_urls)

    async def close(self) -> None:
        return None


async def watch_content_files(content_dir: Path, cache: ContentCache, stop: asyncio.Event) -> None:
    """Read a collection again as soon as its file changes (the studio, an editor, another
    worker's save), so every worker shows a change within a moment, not its cache's period."""
    files = {collection_file(content_dir, collection).name: collection for collection in Collection}
    worker = {"worker": os.getpid()}
    announced = False
    try:
        # An empty answer each second when nothing changes: the first proves the watch is set.
        async for changes in awatch(
            content_dir, recursive=False, stop_event=stop, rust_timeout=1000, yield_on_timeout=True
        ):
            if not announced:
                logger.info("Watching %s for changes", content_dir, extra=worker)
                announced = True
            names = {Path(path).name for _, path in changes}
            for collection in {files[name] for name in names if name in files}:
                logger.info(
                    "Change in %s: reading it again",
                    collection_file(content_dir, collection),
                    extra={**worker, "collection": collection.firestore_name},
                )
                cache.expire(collection)
                await cache.get(collection)  # starts the read; pages get it once done
    except Exception:
        logger.exception(
            "Watching %s failed; content is read as CONTENT_CACHE_SECONDS says", content_dir
        )
