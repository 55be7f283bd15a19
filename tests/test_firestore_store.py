"""The Firestore content store: the real client over gRPC, against the emulator and faults."""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx2 as httpx
import pytest

from harness.firestore_emulator import FirestoreEmulator
from harness.live_server import LiveServer, free_port
from server.content.cache import ContentUnavailableError
from server.content.firestore import FirestoreContentStore
from server.content.models import Collection, ContentItem, SlideImage
from tests.content_files import stored_fields

pytestmark = pytest.mark.emulator

STORAGE_URL = "https://firebasestorage.googleapis.com/v0/b/demo/o/a.jpg?alt=media"
PROJECT = {
    "id": "p1",
    "name": "Abdoun villa",
    "description": "Jerusalem stone.",
    "photoUrl": STORAGE_URL,
}


def fetch(store: FirestoreContentStore, collection: Collection) -> list[ContentItem]:
    return list(anyio.run(store.fetch, collection))


def test_reads_a_whole_collection_as_typed_items(firestore: FirestoreEmulator) -> None:
    firestore.seed("Projects", [PROJECT, {**PROJECT, "id": "p2", "name": "Dead Sea lobby"}])
    firestore.seed("Slider", [{"id": "s1", "photoUrl": STORAGE_URL, "caption": "ignored"}])
    store = FirestoreContentStore(
        project=firestore.project, timeout_seconds=5, emulator_host=firestore.host
    )
    projects = fetch(store, Collection.PROJECTS)
    assert sorted(item.fields()["name"] for item in projects) == ["Abdoun villa", "Dead Sea lobby"]
    assert PROJECT in [item.fields() for item in projects]
    assert fetch(store, Collection.SLIDER) == [SlideImage(id="s1", photoUrl=STORAGE_URL)]
    assert fetch(store, Collection.COLLABRATIONS) == []


def test_a_document_with_a_wrongly_typed_field_is_skipped(
    firestore: FirestoreEmulator, caplog: pytest.LogCaptureFixture
) -> None:
    firestore.seed("Collabrations", [PROJECT, {**PROJECT, "id": "bad", "description": 42}])
    store = FirestoreContentStore(
        project=firestore.project, timeout_seconds=5, emulator_host=firestore.host
    )
    with caplog.at_level(logging.WARNING):
        items = fetch(store, Collection.COLLABRATIONS)
    assert [item.id for item in items] == ["p1"]
    assert "Collabrations/bad" in caplog.text


def store_at(host: str, monkeypatch: pytest.MonkeyPatch, timeout: float) -> FirestoreContentStore:
    monkeypatch.setenv("FIRESTORE_EMULATOR_HOST", host)
    return FirestoreContentStore(project="demo-fine-stone", timeout_seconds=timeout)


def test_a_dead_database_fails_fast_instead_of_retrying_for_minutes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = store_at(f"127.0.0.1:{free_port()}", monkeypatch, timeout=1.0)
    started = time.monotonic()
    with pytest.raises(ContentUnavailableError, match="Projects"):
        fetch(store, Collection.PROJECTS)
    assert time.monotonic() - started < 3


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A stand-in database that accepts connections and never answers."""
    listener = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    thread.join()
    for connection in accepted:
        connection.close()
    listener.close()


def test_a_database_that_never_answers_is_given_up_on_at_the_deadline(
    silent_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = store_at(silent_server, monkeypatch, timeout=1.0)
    started = time.monotonic()
    with pytest.raises(ContentUnavailableError):
        fetch(store, Collection.SLIDER)
    assert time.monotonic() - started < 3


def test_the_site_runs_on_firestore_content(firestore: FirestoreEmulator, tmp_path: Path) -> None:
    firestore.seed("Projects", [PROJECT])
    firestore.seed("Collabrations", [{**PROJECT, "id": "c1", "name": "Studio Meridiana"}])
    firestore.seed("Slider", [{"id": "s1", "photoUrl": "/images/slider/quarry-blocks.jpg"}])
    env = {
        "CONTENT_SOURCE": "firestore",
        "FIRESTORE_EMULATOR_HOST": firestore.host,
        "GOOGLE_CLOUD_PROJECT": firestore.project,
    }
    with LiveServer(env=env, log_path=tmp_path / "uvicorn.log") as site:
        assert "Abdoun villa" in httpx.get(site.url + "/projects").text
        assert "Studio Meridiana" in httpx.get(site.url + "/Collabrations").text
        assert "/images/slider/quarry-blocks.jpg" in httpx.get(site.url + "/").text
        projects = httpx.get(site.url + "/api/content/projects").json()
        assert [stored_fields(item) for item in projects] == [PROJECT]
        # A Firebase Storage photo reaches visitors through the image route too.
        assert projects[0]["photoKey"].split("/")[1] == "remote"


def test_pages_are_served_with_empty_lists_when_the_database_is_down(tmp_path: Path) -> None:
    env = {
        "CONTENT_SOURCE": "firestore",
        "FIRESTORE_EMULATOR_HOST": f"127.0.0.1:{free_port()}",
        "GOOGLE_CLOUD_PROJECT": "demo-fine-stone",
        "FIRESTORE_TIMEOUT_SECONDS": "1",
    }
    with LiveServer(env=env, log_path=tmp_path / "uvicorn.log") as site:
        started = time.monotonic()
        responses = [httpx.get(site.url + path, timeout=10) for path in ("/projects", "/")]
        elapsed = time.monotonic() - started
        log = site.log()
    assert [response.status_code for response in responses] == [200, 200]
    assert elapsed < 6
    assert '"projects":[]' in responses[0].text
    assert "Error fetching projects:" in log
    assert "Error fetching slider images:" in log
