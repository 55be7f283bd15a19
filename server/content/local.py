"""The embedded content store: JSON files shipped in the repository (content/)."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import anyio

from server.content.models import Collection, ContentItem, parse_documents
from server.content.photo_urls import PhotoUrlPolicy
from server.content.store import ContentUnavailableError

logger = logging.getLogger(__name__)

# content/<file> for each collection: a JSON array of documents, "id" being the document id.
LOCAL_FILES: dict[Collection, str] = {
    Collection.PROJECTS: "projects.json",
    Collection.COLLABRATIONS: "collabrations.json",
    Collection.SLIDER: "slider.json",
}

# Where the local content's images live; served by the site at /images/.
IMAGES_FOLDER = "images"


class LocalContentStore:
    """Reads the files on every fetch, so an edited file shows on the next page load."""

    def __init__(self, content_dir: Path, *, allow_http_images: bool = False) -> None:
        self.content_dir = content_dir
        self._photo_urls = PhotoUrlPolicy(
            allow_http=allow_http_images, images_dir=content_dir / IMAGES_FOLDER
        )

    @property
    def images_dir(self) -> Path:
        return self.content_dir / IMAGES_FOLDER

    async def fetch(self, collection: Collection) -> list[ContentItem]:
        path = self.content_dir / LOCAL_FILES[collection]
        try:
            text = await anyio.Path(path).read_text(encoding="utf-8")
            documents = json.loads(text)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ContentUnavailableError(f"{path}: {error}") from error
        if not isinstance(documents, list):
            raise ContentUnavailableError(f"{path}: expected a JSON array of documents")
        return parse_documents(
            collection, _split_ids(collection, path, documents), self._photo_urls
        )

    async def close(self) -> None:
        return None


def document_id(document: object) -> str | None:
    """The Firestore document id of one entry of a file: its non-empty string "id"."""
    doc_id = document.get("id") if isinstance(document, dict) else None
    return doc_id if isinstance(doc_id, str) and doc_id else None


def _split_ids(
    collection: Collection, path: Path, documents: list[Any]
) -> list[tuple[str, dict[str, Any]]]:
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
        pairs.append((doc_id, {key: value for key, value in document.items() if key != "id"}))
    return pairs
