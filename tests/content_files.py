"""Write a local content folder (the embedded store's format) for a test."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from PIL import Image

Document = Mapping[str, object]


def write_content(
    root: Path,
    *,
    projects: Sequence[Document] | None = None,
    collabrations: Sequence[Document] | None = None,
    slider: Sequence[Document] | None = None,
    stones: Sequence[Document] = (),
) -> Path:
    """A content folder with the given documents (each list defaults to a small sample)."""
    root.mkdir(parents=True, exist_ok=True)
    images = root / "images"
    images.mkdir(exist_ok=True)
    Image.new("RGB", (12, 9), (180, 170, 150)).save(images / "sample.jpg")
    lists = {
        "projects.json": projects if projects is not None else sample_cards("project", 3),
        "collabrations.json": (
            collabrations if collabrations is not None else sample_cards("partner", 2)
        ),
        "slider.json": (
            slider
            if slider is not None
            else [{"id": f"slide-{index}", "photoUrl": "/images/sample.jpg"} for index in range(3)]
        ),
        "stones.json": stones,
    }
    for name, documents in lists.items():
        (root / name).write_text(
            json.dumps([dict(document) for document in documents], ensure_ascii=False),
            encoding="utf-8",
        )
    return root


def sample_cards(prefix: str, count: int) -> list[dict[str, object]]:
    return [
        {
            "id": f"{prefix}-{index}",
            "name": f"{prefix.title()} {index}",
            "description": f"Description of {prefix} {index}.",
            "photoUrl": "/images/sample.jpg",
        }
        for index in range(1, count + 1)
    ]


def stored_fields(item: Mapping[str, object]) -> dict[str, object]:
    """An item of the page data or the content API as its document stores it: without
    the `photoKey` the site adds for the image route."""
    return {name: value for name, value in item.items() if name != "photoKey"}
