"""A database that fails: each page still answers within 3 s, with the last good content.

The faults are forced by a stand-in Firestore (a real gRPC server) that the real
client reads through FIRESTORE_EMULATOR_HOST; one test stops the real emulator.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx2 as httpx
import pytest
from starlette.testclient import TestClient

from harness.firestore_emulator import FirestoreEmulator
from harness.firestore_standin import Fault, FirestoreStandIn
from harness.live_server import LiveServer
from harness.tcp_proxy import TcpProxy
from server.app import create_app
from server.content.cache import ContentUnavailableError
from server.content.firestore import MAX_ATTEMPTS_PER_READ, FirestoreContentStore
from server.content.models import Collection
from server.settings import ContentSource, Settings
from tests.live_support import wait_for

PHOTO = "https://firebasestorage.googleapis.com/v0/b/demo/o/a.jpg?alt=media"
PROJECTS = {
    f"p{index}": {"name": f"Project {index}", "description": "d", "photoUrl": PHOTO}
    for index in range(6)
}
FAULTS = [Fault.UNAVAILABLE, Fault.PERMISSION_DENIED, Fault.SLOW, Fault.BROKEN_STREAM]


@pytest.fixture
def standin(monkeypatch: pytest.MonkeyPatch) -> Iterator[FirestoreStandIn]:
    with FirestoreStandIn(collections={"Projects": dict(PROJECTS)}) as standin:
        monkeypatch.setenv("FIRESTORE_EMULATOR_HOST", standin.host)
        yield standin


@pytest.mark.parametrize("fault", FAULTS, ids=lambda fault: fault.value)
def test_each_fault_ends_the_read_within_the_deadline_and_a_few_attempts(
    standin: FirestoreStandIn, fault: Fault
) -> None:
    store = FirestoreContentStore(project=standin.project, timeout_seconds=2.5)
    standin.fault = fault
    started = time.monotonic()
    with pytest.raises(ContentUnavailableError):
        anyio.run(store.fetch, Collection.PROJECTS)
    assert time.monotonic() - started < 2.9
    time.sleep(0.3)  # anything still retrying in the background would show now
    assert standin.reads <= MAX_ATTEMPTS_PER_READ


def firestore_site(standin: FirestoreStandIn) -> TestClient:
    settings = Settings(
        content_source=ContentSource.FIRESTORE,
        google_cloud_project=standin.project,
        content_cache_seconds=0,  # read on every request, so each one meets the fault
        render_pool_size=1,
    )
    return TestClient(create_app(settings))


@pytest.mark.parametrize("fault", FAULTS, ids=lambda fault: fault.value)
def test_with_nothing_read_yet_the_page_is_served_with_an_empty_list(
    standin: FirestoreStandIn, fault: Fault, caplog: pytest.LogCaptureFixture
) -> None:
    with firestore_site(standin) as site, caplog.at_level(logging.ERROR):
        # The landing page (no projects on it) first: the renderer warm, as a
        # site that has served a page is, so the time is the read's deadline.
        assert site.get("/").status_code == 200
        standin.fault = fault
        started = time.monotonic()
        response = site.get("/projects")
        elapsed = time.monotonic() - started
    assert response.status_code == 200
    assert elapsed < 3
    assert '"content":{"projects":[]}' in response.text
    assert "Error fetching projects:" in caplog.text


@pytest.mark.parametrize("fault", FAULTS, ids=lambda fault: fault.value)
def test_after_a_good_read_the_page_keeps_the_last_good_content(
    standin: FirestoreStandIn, fault: Fault, caplog: pytest.LogCaptureFixture
) -> None:
    with firestore_site(standin) as site:
        assert "Project 5" in site.get("/projects").text
        standin.fault = fault
        with caplog.at_level(logging.ERROR):
            started = time.monotonic()
            response = site.get("/projects")
            elapsed = time.monotonic() - started
        api = site.get("/api/content/projects")
    assert response.status_code == 200
    assert elapsed < 3
    assert all(f"Project {index}" in response.text for index in range(6))
    assert "Error fetching projects:" in caplog.text
    assert len(api.json()) == 6


def test_the_site_starts_and_serves_when_the_database_is_down(
    standin: FirestoreStandIn,
) -> None:
    standin.fault = Fault.UNAVAILABLE
    with firestore_site(standin) as site:
        assert site.get("/").status_code == 200
        assert site.get("/api/content/projects").status_code == 503
        standin.fault = Fault.NONE
        assert "Project 0" in site.get("/projects").text


def test_an_item_page_is_not_a_404_while_its_collection_cannot_be_read(
    standin: FirestoreStandIn,
) -> None:
    # A 404 would tell search engines the project is gone; it is not known to be.
    standin.fault = Fault.UNAVAILABLE
    with firestore_site(standin) as site:
        response = site.get("/projects/p1")
        assert response.status_code == 503
        assert response.headers["cache-control"] == "no-store"
        assert '"content":{"projects":[]}' in response.text
        standin.fault = Fault.NONE
        assert "Project 1 | Projects" in site.get("/projects/p1").text
        # Read once: the last good content answers for the item while Firestore fails.
        standin.fault = Fault.UNAVAILABLE
        response = site.get("/projects/p2")
        assert response.status_code == 200
        assert "Project 2 | Projects" in response.text
        assert site.get("/projects/p9").status_code == 404


def timed_get(url: str) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    response = httpx.get(url, timeout=10)
    return response, time.monotonic() - started


@pytest.mark.emulator
def test_when_the_real_emulator_goes_away_pages_keep_their_content(
    firestore: FirestoreEmulator, tmp_path: Path
) -> None:
    firestore.seed("Projects", [{"id": key, **fields} for key, fields in PROJECTS.items()])
    # Behind a proxy that closes every connection, as a stopped emulator's are, in a moment.
    with TcpProxy(firestore.host) as database:
        env = {
            "CONTENT_SOURCE": "firestore",
            "FIRESTORE_EMULATOR_HOST": database.host,
            "GOOGLE_CLOUD_PROJECT": firestore.project,
            "CONTENT_CACHE_SECONDS": "0",
        }
        with LiveServer(env=env, log_path=tmp_path / "uvicorn.log") as site:
            assert "Project 3" in httpx.get(site.url + "/projects").text
            database.down.set()
            answers = [timed_get(site.url + "/projects")]  # the first visit of the outage
            wait_for(
                "the server sees it gone",
                lambda: "Error fetching projects:" in site.log(),
                timeout=10,
            )
            answers.append(timed_get(site.url + "/projects"))
            server_log = site.log()
    for response, elapsed in answers:
        assert response.status_code == 200
        assert elapsed < 3
        assert "Project 3" in response.text
    assert "Error fetching projects:" in server_log
    assert "Traceback" not in server_log
