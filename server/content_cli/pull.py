"""`stone-content pull`: the three collections from Firestore, as local content files.

Only the JSON files are written; images are not downloaded (a photoUrl is kept
as it is, whether an https URL or a /images/ path of the content folder).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from google.cloud import firestore

from server.content.models import Collection
from server.content_cli.database import read_collection
from server.content_cli.files import (
    ID_KEY,
    collection_file,
    format_documents,
    write_text_atomically,
)
from server.content_cli.validate import Documents

# The values a JSON file can hold; Firestore also has timestamps, geopoints,
# references and bytes, which it cannot.
_JSON_SCALARS = (str, int, float, bool, type(None))


@dataclass(frozen=True)
class PullProblem:
    collection: Collection
    doc_id: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.collection.firestore_name}/{self.doc_id}: {self.field}: {self.message}"


class PullError(Exception):
    def __init__(self, problems: list[PullProblem]) -> None:
        super().__init__(f"{len(problems)} documents cannot be written as JSON")
        self.problems = problems


def read_all(client: firestore.Client, *, timeout_seconds: float) -> dict[Collection, Documents]:
    content = {
        collection: read_collection(client, collection, timeout_seconds=timeout_seconds)
        for collection in Collection
    }
    problems = [
        problem
        for collection, documents in content.items()
        for doc_id, fields in documents.items()
        for problem in _json_problems(collection, doc_id, fields)
    ]
    if problems:
        raise PullError(problems)
    return content


def write_all(content_dir: Path, content: dict[Collection, Documents]) -> dict[Collection, Path]:
    """Write every file; called only once everything was read, so a failed read writes none."""
    content_dir.mkdir(parents=True, exist_ok=True)
    written = {}
    for collection, documents in content.items():
        path = collection_file(content_dir, collection)
        write_text_atomically(path, format_documents(collection, documents))
        written[collection] = path
    return written


def _json_problems(
    collection: Collection, doc_id: str, fields: dict[str, Any]
) -> list[PullProblem]:
    problems = []
    if ID_KEY in fields:
        # In the files "id" is the document id; a field of that name would clash.
        problems.append(
            PullProblem(collection, doc_id, ID_KEY, "a field named 'id' cannot be kept in a file")
        )
    for name, value in fields.items():
        kind = _non_json_kind(value)
        if kind is not None:
            problems.append(
                PullProblem(collection, doc_id, name, f"a {kind} cannot be written as JSON")
            )
    return problems


def _non_json_kind(value: object) -> str | None:
    if isinstance(value, _JSON_SCALARS):
        return None
    if isinstance(value, list):
        return next((kind for item in value if (kind := _non_json_kind(item))), None)
    if isinstance(value, dict):
        return next((kind for item in value.values() if (kind := _non_json_kind(item))), None)
    return type(value).__name__
