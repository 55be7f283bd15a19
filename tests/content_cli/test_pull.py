"""`stone-content pull` against the real Firestore emulator, and the push-pull round trip."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest

from harness.firestore_emulator import FirestoreEmulator
from tests.content_cli.support import CONTENT_FILES, StoneContent, as_dump

pytestmark = pytest.mark.emulator


def sort_by_id(content_dir: Path) -> None:
    """Rewrite the folder's files in pull's format, defined here independently of the command."""
    for name in CONTENT_FILES:
        path = content_dir / name
        documents = json.loads(path.read_text(encoding="utf-8"))
        documents.sort(key=lambda document: document["id"])
        path.write_text(json.dumps(documents, indent=2, ensure_ascii=False) + "\n", "utf-8")


def test_push_then_pull_gives_the_same_files_byte_for_byte(
    emulator: FirestoreEmulator, shipped_copy: Path, tmp_path: Path, stone_content: StoneContent
) -> None:
    # The shipped files are in pull's format except for their order (pull
    # sorts by id, as Firestore returns them); sorted, they must come back as is.
    sort_by_id(shipped_copy)
    assert stone_content("push", shipped_copy, "--yes").code == 0

    pulled = tmp_path / "pulled"
    result = stone_content("pull", pulled)

    assert result.code == 0, result.err
    for name in CONTENT_FILES:
        assert (pulled / name).read_bytes() == (shipped_copy / name).read_bytes(), name


def test_pull_returns_the_shipped_documents_sorted_by_id(
    emulator: FirestoreEmulator, shipped_copy: Path, tmp_path: Path, stone_content: StoneContent
) -> None:
    assert stone_content("push", shipped_copy, "--yes").code == 0
    assert stone_content("pull", tmp_path / "pulled").code == 0
    assert as_dump(tmp_path / "pulled") == as_dump(shipped_copy)
    for name in CONTENT_FILES:
        ids = [doc["id"] for doc in json.loads((tmp_path / "pulled" / name).read_text("utf-8"))]
        assert ids == sorted(ids)


def test_the_file_format(
    emulator: FirestoreEmulator, tmp_path: Path, stone_content: StoneContent
) -> None:
    emulator.seed(
        "Projects",
        [
            {"id": "b", "photoUrl": "https://x/b.jpg", "name": "Façade", "description": "m²"},
            {"id": "a", "order": 2, "description": "", "caption": "c", "name": "A", "photoUrl": ""},
        ],
    )
    assert stone_content("pull", tmp_path).code == 0
    assert (tmp_path / "projects.json").read_text(encoding="utf-8") == (
        "[\n"
        "  {\n"
        '    "id": "a",\n'
        '    "name": "A",\n'
        '    "description": "",\n'
        '    "photoUrl": "",\n'
        '    "caption": "c",\n'
        '    "order": 2\n'
        "  },\n"
        "  {\n"
        '    "id": "b",\n'
        '    "name": "Façade",\n'
        '    "description": "m²",\n'
        '    "photoUrl": "https://x/b.jpg"\n'
        "  }\n"
        "]\n"
    )
    assert (tmp_path / "slider.json").read_bytes() == b"[]\n"


def test_pull_replaces_the_files_and_leaves_images_alone(
    emulator: FirestoreEmulator, shipped_copy: Path, stone_content: StoneContent
) -> None:
    images_before = sorted(path for path in (shipped_copy / "images").rglob("*"))
    emulator.seed("Slider", [{"id": "only", "photoUrl": "/images/slider/quarry-blocks.jpg"}])

    result = stone_content("pull", shipped_copy)

    assert result.code == 0
    assert "Images are not downloaded" in result.out
    assert as_dump(shipped_copy) == {
        "Projects": {},
        "Collabrations": {},
        "Slider": {"only": {"photoUrl": "/images/slider/quarry-blocks.jpg"}},
        "Stones": {},
    }
    assert sorted(path for path in (shipped_copy / "images").rglob("*")) == images_before
    assert sorted(path.name for path in shipped_copy.iterdir()) == [
        "collabrations.json",
        "images",
        "projects.json",
        "slider.json",
        "stones.json",
    ]


def test_values_a_file_cannot_hold_stop_the_pull_before_any_file_is_written(
    emulator: FirestoreEmulator, shipped_copy: Path, stone_content: StoneContent
) -> None:
    emulator.seed("Projects", [{"id": "ok", "name": "n", "description": "d", "photoUrl": ""}])
    emulator.seed(
        "Slider",
        [{"id": "s1", "photoUrl": "", "added": datetime.datetime(2025, 1, 1, tzinfo=datetime.UTC)}],
    )
    before = {name: (shipped_copy / name).read_bytes() for name in CONTENT_FILES}

    result = stone_content("pull", shipped_copy)

    assert result.code == 1
    assert "Slider/s1: added: a DatetimeWithNanoseconds cannot be written as JSON" in result.err
    assert {name: (shipped_copy / name).read_bytes() for name in CONTENT_FILES} == before
