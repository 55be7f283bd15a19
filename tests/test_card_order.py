"""The order of cards and slides: a `position` number first, lowest first; the rest after, by id.

Staff choose the order (docs/content.md); every language shows it, on the
embedded default and on Firestore, where a change of order goes live as any
edit does.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from server.app import create_app
from server.content.models import CardItem, Collection, parse_documents
from server.content.photo_policy import PhotoUrlPolicy
from server.settings import Settings
from tests.content_files import write_content
from tests.support import parse

PHOTO = "/images/sample.jpg"


def card(doc_id: str, name: str, **extra: object) -> dict[str, object]:
    return {"id": doc_id, "name": name, "description": f"About {name}.", "photoUrl": PHOTO, **extra}


def card_names_in_page(html: str) -> list[str]:
    data = parse(html).page_data
    items = data["content"]["projects"]  # type: ignore[index]
    return [str(item["name"]) for item in items]


def test_positioned_documents_come_first_lowest_first_and_the_rest_keep_their_order() -> None:
    documents = [
        ("a-first-by-id", card("a", "Unplaced A")),
        ("b", card("b", "Third", position=30)),
        ("c", card("c", "Unplaced C")),
        ("d", card("d", "First", position=-2)),
        ("e", card("e", "Second", position=1.5)),
    ]
    items = parse_documents(Collection.PROJECTS, documents, PhotoUrlPolicy())
    names = [item.name for item in items if isinstance(item, CardItem)]
    assert names == ["First", "Second", "Third", "Unplaced A", "Unplaced C"]


@pytest.mark.parametrize("position", ["1", True, None, [1]])
def test_a_position_that_is_not_a_number_is_refused_like_any_wrong_field(
    position: object, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        items = parse_documents(
            Collection.PROJECTS, [("x", card("x", "X", position=position))], PhotoUrlPolicy()
        )
    assert items == []
    assert re.search(r"Skipping Projects/x: field 'position' should be a number", caplog.text)


@pytest.mark.parametrize("prefix", ["", "/ar"])
def test_every_language_shows_the_order_on_the_embedded_content(
    tmp_path: Path, prefix: str
) -> None:
    content = write_content(
        tmp_path,
        projects=[
            card("alpha", "Alpha"),
            card("beta", "Beta", position=2),
            card("gamma", "Gamma", position=1),
        ],
    )
    with TestClient(create_app(Settings(content_dir=content, render_pool_size=1))) as client:
        page = client.get(f"{prefix}/projects")
    assert page.status_code == 200
    assert card_names_in_page(page.text) == ["Gamma", "Beta", "Alpha"]
    body = page.text.split('id="page-data"')[0]  # the grid as the server rendered it
    assert body.index("Gamma") < body.index("Beta") < body.index("Alpha")
