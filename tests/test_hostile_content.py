"""Content that is wrong or hostile: skipped with a warning, or shown as text, never run."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from server.app import create_app
from server.settings import REPO_ROOT, Settings
from tests.content_files import stored_fields, write_content
from tests.support import parse

HOSTILE = REPO_ROOT / "examples" / "hostile-content"


def valid_documents(file_name: str) -> list[dict[str, str]]:
    """The documents of a hostile file that the site should keep: all fields strings, good photo."""
    documents = json.loads((HOSTILE / file_name).read_text(encoding="utf-8"))
    return [
        document
        for document in documents
        if all(isinstance(document.get(f), str) for f in ("name", "description", "photoUrl"))
        and document["photoUrl"] == "/images/stone.jpg"
    ]


@pytest.fixture(scope="module")
def hostile_site() -> Iterator[TestClient]:
    settings = Settings(content_dir=HOSTILE, render_pool_size=1, content_cache_seconds=0)
    with TestClient(create_app(settings)) as client:
        yield client


def test_bad_documents_are_skipped_with_a_warning_naming_them(
    hostile_site: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        response = hostile_site.get("/projects")
    assert response.status_code == 200
    shown = [item["id"] for item in parse(response.text).page_data["content"]["projects"]]  # type: ignore[index]
    assert shown == [document["id"] for document in valid_documents("projects.json")]
    for skipped, reason in [
        ("javascript-photo", "https: URL or a path"),
        ("data-photo", "contains spaces"),
        ("escaping-photo", "climb out"),
        ("protocol-relative", "https: URL or a path"),
        ("number-description", "'description' should be a string, found int"),
        ("map-name", "'name' should be a string, found dict"),
        ("no-photo", "'photoUrl' is missing"),
    ]:
        assert re.search(rf"Skipping Projects/{skipped}: .*{re.escape(reason)}", caplog.text)


def test_hostile_text_is_markup_escaped_and_inlined_exactly(hostile_site: TestClient) -> None:
    html = hostile_site.get("/projects").text
    body, _, data = html.partition('<script id="page-data"')
    assert "<script>alert" not in body
    assert "<img src=x" not in body
    assert "<svg/onload" not in body
    assert "&lt;script&gt;alert(&#x27;xss-1&#x27;)&lt;/script&gt;" in body
    # The inlined data cannot close its element; it parses back to the stored text.
    assert data.count("</script>") == 1
    inlined = parse(html).page_data["content"]["projects"]  # type: ignore[index]
    assert [without_photo_key(item) for item in inlined] == valid_documents("projects.json")


def test_slider_drops_a_javascript_photo(hostile_site: TestClient) -> None:
    slides = parse(hostile_site.get("/").text).page_data["content"]["slider"]  # type: ignore[index]
    assert [without_photo_key(slide) for slide in slides] == [
        {"id": "one", "photoUrl": "/images/stone.jpg"}
    ]


def without_photo_key(item: dict[str, str]) -> dict[str, str]:
    """The item as stored: the page adds the image route's key of its (good) photo."""
    assert re.fullmatch(r"[\w-]{12}/local/stone\.jpg", item["photoKey"])
    return {name: value for name, value in item.items() if name != "photoKey"}


def react_escape(text: str) -> str:
    # React's escaping of text and attribute values.
    for char, entity in (
        ("&", "&amp;"),
        ("<", "&lt;"),
        (">", "&gt;"),
        ('"', "&quot;"),
        ("'", "&#x27;"),
    ):
        text = text.replace(char, entity)
    return text


@pytest.fixture(scope="module")
def content_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_content(tmp_path_factory.mktemp("content"))


@pytest.fixture(scope="module")
def fresh_site(content_dir: Path) -> Iterator[TestClient]:
    settings = Settings(content_dir=content_dir, render_pool_size=1, content_cache_seconds=0)
    with TestClient(create_app(settings)) as client:
        yield client


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    doc_id=st.text(min_size=1, max_size=40),
    name=st.text(max_size=200),
    description=st.text(max_size=400),
)
def test_any_text_in_any_field_round_trips_and_renders_as_text(
    fresh_site: TestClient, content_dir: Path, doc_id: str, name: str, description: str
) -> None:
    document = {
        "id": doc_id,
        "name": name,
        "description": description,
        "photoUrl": "/images/sample.jpg",
    }
    (content_dir / "projects.json").write_text(
        json.dumps([document], ensure_ascii=False), encoding="utf-8"
    )
    response = fresh_site.get("/projects")
    assert response.status_code == 200
    page = parse(response.text)
    projects = page.page_data["content"]["projects"]  # type: ignore[index]
    assert [stored_fields(item) for item in projects] == [document]
    body = response.text.partition('<script id="page-data"')[0]
    if name:
        assert react_escape(name) in body
    api_items = fresh_site.get("/api/content/projects").json()
    assert [stored_fields(item) for item in api_items] == [document]


def test_five_thousand_documents_render(tmp_path: Path) -> None:
    documents = [
        {
            "id": f"p{index:04}",
            "name": f"Project {index}",
            "description": "Jerusalem stone façade.",
            "photoUrl": "/images/sample.jpg",
        }
        for index in range(5000)
    ]
    settings = Settings(content_dir=write_content(tmp_path, projects=documents), render_pool_size=1)
    with TestClient(create_app(settings)) as client:
        response = client.get("/projects")
    assert response.status_code == 200
    assert response.text.count('class="card"') == 5000
    assert "Project 4999" in response.text
