"""The local content files: reading them as raw JSON and writing them in one stable format.

The format is the embedded store's (server/content/local.py): a JSON array per
collection, each document an object whose "id" is the Firestore document id.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from server.content.local import LOCAL_FILES
from server.content.models import OPTIONAL_FIELDS, REQUIRED_FIELDS, Collection

ID_KEY = "id"


class ContentFileError(Exception):
    """A content file cannot be read as a JSON array (missing, not UTF-8, not JSON)."""


def collection_file(content_dir: Path, collection: Collection) -> Path:
    return content_dir / LOCAL_FILES[collection]


def read_documents(path: Path) -> list[Any]:
    """The file's JSON array, unchecked beyond being an array."""
    try:
        # Strict UTF-8, as the server reads it: a file the site cannot read
        # must not pass here.
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


def format_documents(collection: Collection, documents: Mapping[str, Mapping[str, Any]]) -> str:
    """The file's text for documents given by id: sorted by id, so a pull diffs cleanly.

    Within a document: "id", the model's fields in their usual order, then any
    other fields by name. 2-space indent, UTF-8 as is, a final newline.
    """
    known = (*REQUIRED_FIELDS[collection], *OPTIONAL_FIELDS[collection])
    entries = []
    for doc_id in sorted(documents):
        fields = documents[doc_id]
        ordered = [name for name in known if name in fields]
        ordered += sorted(name for name in fields if name not in known)
        entries.append({ID_KEY: doc_id, **{name: fields[name] for name in ordered}})
    return json.dumps(entries, indent=2, ensure_ascii=False) + "\n"


def write_text_atomically(path: Path, text: str) -> None:
    # A crash or a full disk mid-write leaves the old file, never half a file
    # the site would then fail to read.
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)
