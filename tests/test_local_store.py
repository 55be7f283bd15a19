import json
import logging
import time
from pathlib import Path

import anyio
import pytest

from harness.live_server import LiveServer
from server.content.cache import ContentUnavailableError
from server.content.local import LocalContentStore, write_text_atomically
from server.content.models import CardItem, Collection, SlideImage
from tests.content_files import write_content
from tests.live_support import EDIT_SHOWS_WITHIN, json_lines, reload_fresh, wait_for


def fetch(store: LocalContentStore, collection: Collection) -> list[object]:
    return list(anyio.run(store.fetch, collection))


def test_reads_each_collection_as_typed_items(tmp_path: Path) -> None:
    store = LocalContentStore(write_content(tmp_path))
    projects = fetch(store, Collection.PROJECTS)
    assert projects[0] == CardItem(
        id="project-1",
        name="Project 1",
        description="Description of project 1.",
        photoUrl="/images/sample.jpg",
    )
    assert len(fetch(store, Collection.COLLABRATIONS)) == 2
    assert fetch(store, Collection.SLIDER)[0] == SlideImage(
        id="slide-0", photoUrl="/images/sample.jpg"
    )


def test_a_document_with_a_wrong_field_is_skipped_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    bad = {
        "id": "broken",
        "name": {"en": "map"},
        "description": "d",
        "photoUrl": "/images/sample.jpg",
    }
    no_id = {"name": "n", "description": "d", "photoUrl": "/images/sample.jpg"}
    good = {"id": "fine", "name": "n", "description": "d", "photoUrl": "/images/sample.jpg"}
    store = LocalContentStore(write_content(tmp_path, projects=[bad, no_id, good]))
    with caplog.at_level(logging.WARNING):
        items = fetch(store, Collection.PROJECTS)
    assert [item.id for item in items] == ["fine"]  # type: ignore[attr-defined]
    assert "Projects/broken" in caplog.text
    assert "'name' should be a string, found dict" in caplog.text
    assert "Projects document #1" in caplog.text


def test_an_unreadable_file_is_unavailable_content(tmp_path: Path) -> None:
    root = write_content(tmp_path)
    (root / "projects.json").write_text("{not json", encoding="utf-8")
    store = LocalContentStore(root)
    with pytest.raises(ContentUnavailableError, match=r"projects\.json"):
        fetch(store, Collection.PROJECTS)


def test_the_shipped_sample_content_is_complete_and_its_images_exist() -> None:
    root = Path(__file__).resolve().parent.parent / "content"
    store = LocalContentStore(root)
    projects = fetch(store, Collection.PROJECTS)
    collabrations = fetch(store, Collection.COLLABRATIONS)
    slides = fetch(store, Collection.SLIDER)
    assert len(projects) >= 6
    assert len(collabrations) >= 6
    assert len(slides) >= 4
    for name in ("projects.json", "collabrations.json", "slider.json"):
        for document in json.loads((root / name).read_text(encoding="utf-8")):
            image = root / document["photoUrl"].removeprefix("/")
            assert image.is_file(), f"{name}: {document['id']} points at a missing {image}"


def test_a_saved_file_shows_on_every_worker_within_2_s(tmp_path: Path) -> None:
    content = write_content(tmp_path / "content")
    env = {"CONTENT_DIR": str(content), "LOG_FORMAT": "json", "RENDER_POOL_SIZE": "1"}
    with LiveServer(env=env, log_path=tmp_path / "uvicorn.log", workers=2) as site:
        wait_for(
            "both workers watch the content folder",
            lambda: len(logged_workers(site.log_path, "Watching")) == 2,
            timeout=20,
        )
        assert "Project 1" in reload_fresh(site.url + "/projects")
        edited = json.loads((content / "projects.json").read_text())
        edited[0]["name"] = "Abdoun villa, terrace redone"
        started = time.monotonic()
        # As the studio saves: a new file put in the old one's place.
        write_text_atomically(content / "projects.json", json.dumps(edited))
        wait_for(
            "both workers read the file again",
            lambda: len(logged_workers(site.log_path, "Change in")) == 2,
            timeout=EDIT_SHOWS_WITHIN,
        )
        wait_for(
            "a reload shows the change",
            lambda: "terrace redone" in reload_fresh(site.url + "/projects"),
            timeout=EDIT_SHOWS_WITHIN - (time.monotonic() - started),
        )
        pages = [reload_fresh(site.url + "/projects") for _ in range(20)]
    assert all("Abdoun villa, terrace redone" in page for page in pages)


def logged_workers(log: Path, message: str) -> set[int]:
    return {
        line["worker"]
        for line in json_lines(log)
        if line["message"].startswith(message) and "worker" in line
    }
