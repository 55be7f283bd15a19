"""Every problem of a content folder before a push, and of Firestore's content before a pull. The
field rules are the server's own (models.field_problems); added here: what only files get wrong,
Firestore's rules for ids, and Firestore values a JSON file cannot hold."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from server.content.local import (
    ID_KEY,
    IMAGES_FOLDER,
    ContentFileError,
    collection_file,
    document_id,
    read_documents,
)
from server.content.models import Collection, field_problems
from server.content.photo_policy import PhotoUrlPolicy

_MAX_ID_BYTES = 1500  # Firestore rejects longer document ids

# The values a JSON file can hold; Firestore also has timestamps, geopoints,
# references and bytes.
_JSON_SCALARS = (str, int, float, bool, type(None))

Documents = dict[str, dict[str, Any]]  # by id, in file order; the fields without "id"


def _problem(
    file: Path, message: str, document: str | None = None, field: str | None = None
) -> str:
    # Located as precisely as possible; `document` is "document 3 of 7" when it has no id.
    return ": ".join([part for part in (str(file), document, field) if part] + [message])


def validate_content(content_dir: Path) -> tuple[dict[Collection, Documents], list[str]]:
    """Every collection file of the folder, and all their problems (never stopping early)."""
    content: dict[Collection, Documents] = {}
    problems: list[str] = []
    # The server's own rules, photoUrl included: an image under /images/ must be
    # a file of this folder's images/.
    photo_urls = PhotoUrlPolicy(images_dir=content_dir / IMAGES_FOLDER)
    for collection in Collection:
        path = collection_file(content_dir, collection)
        documents: Documents = content.setdefault(collection, {})
        try:
            raw_documents = read_documents(path)
        except ContentFileError as error:
            problems.append(_problem(path, str(error)))
            continue
        for position, raw in enumerate(raw_documents, start=1):
            where = f"document {position} of {len(raw_documents)}"
            doc_id = document_id(raw)
            if not isinstance(raw, dict):
                found = type(raw).__name__
                problems.append(_problem(path, f"should be a JSON object, found {found}", where))
            elif doc_id is None:
                message = "is missing" if ID_KEY not in raw else "should be a non-empty string"
                problems.append(_problem(path, message, where, ID_KEY))
            elif doc_id in documents:
                message = f"repeats an earlier document's id ({where})"
                problems.append(_problem(path, message, doc_id, ID_KEY))
            else:
                fields = {name: value for name, value in raw.items() if name != ID_KEY}
                documents[doc_id] = fields
                problems += [_problem(path, text, doc_id, ID_KEY) for text in _id_problems(doc_id)]
                problems += [
                    _problem(path, message, doc_id, field)
                    for field, message in field_problems(collection, fields, photo_urls).items()
                ]
    return content, problems + _unknown_stones(content_dir, content)


def _unknown_stones(content_dir: Path, content: dict[Collection, Documents]) -> list[str]:
    """The stones a project or collabration names that stones.json lacks."""
    problems = []
    for collection in (Collection.PROJECTS, Collection.COLLABRATIONS):
        path = collection_file(content_dir, collection)
        for doc_id, fields in content[collection].items():
            named = fields.get("stones")
            for stone in named if isinstance(named, list) else []:
                if isinstance(stone, str) and stone not in content[Collection.STONES]:
                    message = f"no stone has the id {stone!r}"
                    problems.append(_problem(path, message, doc_id, "stones"))
    return problems


def _id_problems(doc_id: str) -> list[str]:
    # https://firebase.google.com/docs/firestore/quotas#collections_documents_and_fields
    problems = []
    if "/" in doc_id:
        problems.append("contains '/', which Firestore does not allow in a document id")
    if doc_id in {".", ".."}:
        problems.append(f"{doc_id!r} is not allowed as a Firestore document id")
    if re.fullmatch(r"__.*__", doc_id, flags=re.DOTALL):
        problems.append("ids of the form __name__ are reserved by Firestore")
    if len(doc_id.encode("utf-8")) > _MAX_ID_BYTES:
        problems.append(f"is longer than Firestore's {_MAX_ID_BYTES} bytes")
    return problems


def json_problems(content: dict[Collection, Documents]) -> list[str]:
    """What Firestore's documents hold that a content file cannot."""
    problems = []
    for collection, documents in content.items():
        for doc_id, fields in documents.items():
            where = f"{collection.firestore_name}/{doc_id}"
            if ID_KEY in fields:
                # In the files "id" is the document id; a field of that name would clash.
                problems.append(f"{where}: {ID_KEY}: a field named 'id' cannot be kept in a file")
            for name, value in fields.items():
                if kind := _non_json_kind(value):
                    problems.append(f"{where}: {name}: a {kind} cannot be written as JSON")
    return problems


def _non_json_kind(value: object) -> str | None:
    if isinstance(value, _JSON_SCALARS):
        return None
    if isinstance(value, list | dict):
        items = value if isinstance(value, list) else value.values()
        return next((kind for item in items if (kind := _non_json_kind(item))), None)
    return type(value).__name__
