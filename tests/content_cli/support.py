"""Helpers of the `stone-content` tests (the fixtures are in conftest.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from harness.firestore_emulator import FirestoreEmulator
from server.content.models import Collection
from server.settings import REPO_ROOT

SHIPPED_CONTENT = REPO_ROOT / "content"
CONTENT_FILES = ("projects.json", "collabrations.json", "slider.json", "stones.json")

# {collection: {id: fields}}, as Firestore holds it.
Dump = dict[str, dict[str, dict[str, Any]]]


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


class StoneContent(Protocol):
    def __call__(self, *argv: str | Path) -> Run: ...


def dump(firestore: FirestoreEmulator) -> Dump:
    """Everything in the three collections."""
    client = firestore.client()
    try:
        return {
            collection.firestore_name: {
                snapshot.id: snapshot.to_dict() or {}
                for snapshot in client.collection(collection.firestore_name).stream()
            }
            for collection in Collection
        }
    finally:
        client.close()  # type: ignore[no-untyped-call]  # untyped in the library


def as_dump(content_dir: Path) -> Dump:
    """The folder's files in the shape of dump(), read without the command's own code."""
    names = {
        "projects.json": "Projects",
        "collabrations.json": "Collabrations",
        "slider.json": "Slider",
        "stones.json": "Stones",
    }
    result: Dump = {}
    for file_name, collection in names.items():
        documents = json.loads((content_dir / file_name).read_text(encoding="utf-8"))
        result[collection] = {
            document["id"]: {key: value for key, value in document.items() if key != "id"}
            for document in documents
        }
    return result
