"""Edits show at once on every worker: Firestore listeners, against the real emulator.

The server is the Procfile's command with two workers; each worker logs a line
with its pid (`worker`) for every snapshot its listener delivers, so a test can
tell that every worker has an edit, and then reload over fresh connections.
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from harness.firestore_emulator import FirestoreEmulator
from harness.live_server import LiveServer
from harness.tcp_proxy import TcpProxy
from tests.images.loopback import PhotoServer
from tests.images.photos import jpeg
from tests.live_support import (
    EDIT_SHOWS_WITHIN,
    json_lines,
    project,
    reload_fresh,
    seed_site,
    wait_for,
    workers_with_snapshot,
)
from tests.support import parse

PHOTO = "https://firebasestorage.googleapis.com/v0/b/demo/o/a.jpg?alt=media"
WORKERS = 2
RELOADS = 20


@pytest.fixture(scope="module")
def photo_server() -> Iterator[PhotoServer]:
    photo = (200, {"Content-Type": "image/jpeg"}, jpeg((800, 600)))
    with PhotoServer({"/old.jpg": photo, "/new.jpg": photo}) as server:
        yield server


@pytest.fixture(scope="module")
def two_workers(
    firestore_emulator: FirestoreEmulator,
    tmp_path_factory: pytest.TempPathFactory,
    photo_server: PhotoServer,
) -> Iterator[tuple[LiveServer, FirestoreEmulator]]:
    firestore_emulator.reset()
    seed_site(firestore_emulator, project("p1", "Abdoun villa"), project("p2", "Dead Sea resort"))
    server = LiveServer(
        env={
            "CONTENT_SOURCE": "firestore",
            "FIRESTORE_EMULATOR_HOST": firestore_emulator.host,
            "GOOGLE_CLOUD_PROJECT": firestore_emulator.project,
            "LOG_FORMAT": "json",
            "RENDER_POOL_SIZE": "1",
            # The image route takes the photo server's http photos.
            "IMAGE_HOSTS": "127.0.0.1",
            "DEV_MODE": "on",
            "IMAGE_CACHE_DIR": str(tmp_path_factory.mktemp("image-cache")),
        },
        log_path=tmp_path_factory.mktemp("live-site") / "uvicorn.log",
        workers=WORKERS,
    )
    with server:
        wait_for(
            "every worker listens to Projects",
            lambda: len(workers_with_snapshot(server.log_path, after=0)) == WORKERS,
            timeout=20,
        )
        yield server, firestore_emulator


def change_shows_on_every_worker(
    server: LiveServer,
    change: Callable[[], object],
    shows: Callable[[str], bool],
    *,
    collection: str = "Projects",
    paths: tuple[str, ...] = ("/projects",),
) -> None:
    """Make the change; within 2 s every worker has it and RELOADS fresh reloads of each of
    `paths` all show it."""
    started_wall, started = time.time(), time.monotonic()
    change()
    wait_for(
        "every worker's listener delivers the change",
        lambda: (
            len(workers_with_snapshot(server.log_path, after=started_wall, collection=collection))
            == WORKERS
        ),
        timeout=EDIT_SHOWS_WITHIN,
    )
    for path in paths:
        wait_for(
            f"a reload of {path} shows the change",
            lambda: shows(reload_fresh(server.url + path)),  # noqa: B023 - called at once
            timeout=EDIT_SHOWS_WITHIN - (time.monotonic() - started),
        )
    pages = [reload_fresh(server.url + path) for path in paths for _ in range(RELOADS)]
    assert all(shows(page) for page in pages)


def test_an_edit_shows_on_every_worker_within_2_s(
    two_workers: tuple[LiveServer, FirestoreEmulator],
) -> None:
    server, emulator = two_workers
    change_shows_on_every_worker(
        server,
        lambda: emulator.seed("Projects", [project("p1", "Abdoun villa, terrace redone")]),
        lambda page: "Abdoun villa, terrace redone" in page,
    )


def test_an_added_document_shows_on_every_worker_within_2_s(
    two_workers: tuple[LiveServer, FirestoreEmulator],
) -> None:
    server, emulator = two_workers
    change_shows_on_every_worker(
        server,
        lambda: emulator.seed("Projects", [project("p9", "Aqaba pool deck")]),
        lambda page: "Aqaba pool deck" in page,
    )


def test_a_deleted_document_goes_from_every_worker_within_2_s(
    two_workers: tuple[LiveServer, FirestoreEmulator],
) -> None:
    server, emulator = two_workers
    assert "Dead Sea resort" in reload_fresh(server.url + "/projects")
    change_shows_on_every_worker(
        server,
        lambda: emulator.client().collection("Projects").document("p2").delete(),
        lambda page: "Dead Sea resort" not in page,
    )


def test_a_change_of_order_shows_on_every_worker_within_2_s(
    two_workers: tuple[LiveServer, FirestoreEmulator],
) -> None:
    server, emulator = two_workers

    def first_project(page: str) -> str:
        return str(parse(page).page_data["content"]["projects"][0]["name"])  # type: ignore[index]

    emulator.seed("Projects", [project("z1", "Zarqa showroom")])
    assert first_project(reload_fresh(server.url + "/projects")) != "Zarqa showroom"  # last by id
    change_shows_on_every_worker(
        server,
        lambda: emulator.seed("Projects", [{**project("z1", "Zarqa showroom"), "position": 1}]),
        lambda page: first_project(page) == "Zarqa showroom",
    )
    emulator.client().collection("Projects").document("z1").delete()


def test_a_stone_edit_shows_on_the_catalogue_and_its_page_on_every_worker_within_2_s(
    two_workers: tuple[LiveServer, FirestoreEmulator],
) -> None:
    server, emulator = two_workers
    stone: dict[str, Any] = {**project("aqaba-red", "Aqaba Red"), "family": "granite"}
    stone |= {"colour": "red", "finishes": ["polished", "flamed"], "density": 2640}
    paths = ("/stones", "/stones/aqaba-red")
    change_shows_on_every_worker(
        server,
        lambda: emulator.seed("Stones", [stone]),
        lambda page: "Aqaba Red" in page,
        collection="Stones",
        paths=paths,
    )
    edited = {**stone, "name": "Aqaba Ruby", "density": 2710}
    change_shows_on_every_worker(
        server,
        lambda: emulator.seed("Stones", [edited]),
        lambda page: "Aqaba Ruby" in page,
        collection="Stones",
        paths=paths,
    )
    # The same snapshot brought the figure: the stone's page has it.
    assert "2,710 kg/m³" in html.unescape(reload_fresh(server.url + "/stones/aqaba-red"))
    emulator.client().collection("Stones").document("aqaba-red").delete()


def test_a_replaced_photo_is_no_longer_served_by_any_worker_within_2_s(
    two_workers: tuple[LiveServer, FirestoreEmulator], photo_server: PhotoServer
) -> None:
    server, emulator = two_workers

    def photo_key(page: str) -> str:
        items = parse(page).page_data["content"]["projects"]  # type: ignore[index]
        return str(next(item["photoKey"] for item in items if item["id"] == "p5"))

    def with_photo(path: str) -> dict[str, str]:
        return {**project("p5", "Jerash hotel"), "photoUrl": photo_server.url(path)}

    change_shows_on_every_worker(
        server,
        lambda: emulator.seed("Projects", [with_photo("/old.jpg")]),
        lambda page: "Jerash hotel" in page,
    )
    old = f"{server.url}/img/w320/{photo_key(reload_fresh(server.url + '/projects'))}"
    # Served, and so kept in the image cache, by each worker.
    assert {httpx.get(old, headers={"Connection": "close"}).status_code for _ in range(6)} == {200}
    change_shows_on_every_worker(
        server,
        lambda: emulator.seed("Projects", [with_photo("/new.jpg")]),
        lambda page: "new.jpg" in page,
    )
    answers = {httpx.get(old, headers={"Connection": "close"}).status_code for _ in range(20)}
    assert answers == {404}
    emulator.client().collection("Projects").document("p5").delete()


def test_a_hostile_document_added_live_is_skipped_with_a_warning(
    two_workers: tuple[LiveServer, FirestoreEmulator],
) -> None:
    server, emulator = two_workers
    hostile = {"id": "evil", "name": "</script><script>alert(1)</script>", "photoUrl": 7}
    change_shows_on_every_worker(
        server,
        lambda: emulator.seed("Projects", [hostile, project("p10", "Madaba church floor")]),
        lambda page: "Madaba church floor" in page,
    )
    page = reload_fresh(server.url + "/projects")
    assert "alert(1)" not in page
    warnings = [
        line
        for line in json_lines(server.log_path)
        if line["level"] == "WARNING" and line["message"].startswith("Skipping Projects/evil:")
    ]
    # The same warning as a read gives, once per worker (not again on later changes).
    assert len(warnings) == WORKERS
    assert "field 'description' is missing" in warnings[0]["message"]


def test_pages_read_nothing_while_listeners_keep_content_current(
    two_workers: tuple[LiveServer, FirestoreEmulator],
) -> None:
    server, _ = two_workers
    for path in ("/", "/projects", "/Collabrations", "/stones", "/api/content/slider"):
        reload_fresh(server.url + path)
    ready = httpx.get(server.url + "/readyz").json()
    assert ready["checks"]["content"]["collections"] == {
        "projects": "live",
        "collabrations": "live",
        "slider": "live",
        "stones": "live",
    }
    reads = [
        line["content_reads"]
        for line in json_lines(server.log_path)
        if line["logger"] == "server.access" and "content_reads" in line
    ]
    assert reads
    assert set(reads) == {0}


def test_a_listener_broken_by_the_database_stopping_falls_back_and_recovers(
    firestore: FirestoreEmulator, tmp_path: Path
) -> None:
    # The database stops and starts again behind a proxy, in a moment and on a busy machine
    # alike (a new emulator took from 10 s to a minute), so the outage is the test's to time.
    seed_site(firestore, project("p1", "Abdoun villa"))
    with TcpProxy(firestore.host) as database:
        env = {
            "CONTENT_SOURCE": "firestore",
            "FIRESTORE_EMULATOR_HOST": database.host,
            "GOOGLE_CLOUD_PROJECT": firestore.project,
            "LOG_FORMAT": "json",
            # While the listener is down, the bounded read path, once a second.
            "CONTENT_CACHE_SECONDS": "1",
            "FIRESTORE_TIMEOUT_SECONDS": "1",
            "RENDER_POOL_SIZE": "1",
        }

        def states(site: LiveServer) -> dict[str, str]:
            collections: dict[str, str] = httpx.get(site.url + "/readyz", timeout=10).json()[
                "checks"
            ]["content"]["collections"]
            return collections

        def error_lines(site: LiveServer, *, listener: bool) -> list[str]:
            return [
                line["message"]
                for line in site.json_log()
                if line["message"].startswith("Error fetching projects:")
                and ("listener" in line["message"]) is listener
            ]

        with LiveServer(env=env, log_path=tmp_path / "uvicorn.log") as site:
            wait_for("projects live", lambda: states(site)["projects"] == "live", timeout=10)
            database.down.set()
            # The listener's failure is logged with the spec's line; the last
            # good content stays; the collection is read the bounded way.
            wait_for(
                "the listener error", lambda: bool(error_lines(site, listener=True)), timeout=10
            )
            wait_for(
                "a fallback read fails",
                lambda: (
                    "Abdoun villa" in reload_fresh(site.url + "/projects")
                    and bool(error_lines(site, listener=False))
                ),
                timeout=10,
            )
            assert states(site)["projects"] == "stale"

            database.down.clear()
            seed_site(firestore, project("p1", "Abdoun villa"), project("p2", "Petra hotel"))
            wait_for(
                "the new content and the listener are back",
                lambda: (
                    "Petra hotel" in reload_fresh(site.url + "/projects")
                    and states(site)["projects"] == "live"
                ),
                timeout=60,
            )
            # Live again: an edit shows without waiting for a read.
            firestore.seed("Projects", [project("p3", "Jerash museum")])
            wait_for(
                "an edit after recovery",
                lambda: "Jerash museum" in reload_fresh(site.url + "/projects"),
                timeout=EDIT_SHOWS_WITHIN,
            )
            outage_errors = error_lines(site, listener=True)
        log = site.log()
    # Backoff, not a tight loop: a handful of attempts over the outage.
    assert 1 <= len(outage_errors) <= 10
    assert "Traceback" not in log
    # Stopping closed the listeners, promptly (each joins its stream's thread).
    assert "Application shutdown complete." in log
    assert "Background thread did not exit" not in log
