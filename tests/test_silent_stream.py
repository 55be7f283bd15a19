"""A listener whose connection is dropped silently is noticed and replaced.

Between the Procfile's server (its two workers) and the real emulator, a TCP
proxy (harness/tcp_proxy.py) stops forwarding every open connection at once,
with no close and no reset, while new connections go through: what a NAT or a
load balancer does to an idle stream. An edit made right after must show on
every reload within 60 s. The check timings are shortened here
(CONTENT_MAX_STALENESS_SECONDS); with the defaults the same sequence takes at
most the bound plus a read's deadline (docs/operating.md).
"""

from __future__ import annotations

import time
from pathlib import Path

import httpx2 as httpx

from harness.firestore_emulator import FirestoreEmulator
from harness.live_server import LiveServer, procfile_default_workers
from harness.tcp_proxy import TcpProxy
from server.content.live import Backoff
from tests.live_support import (
    EDIT_SHOWS_WITHIN,
    json_lines,
    project,
    reload_fresh,
    seed_site,
    wait_for,
    workers_with_snapshot,
)

# The bar: every reload shows an edit made after the drop within this long.
RECOVERED_WITHIN = 60.0
RELOADS = 20
MAX_STALENESS = 6.0
TIMEOUT = 1.0


def collection_states(server: LiveServer) -> dict[str, str]:
    report = httpx.get(server.url + "/readyz", timeout=10, headers={"Connection": "close"})
    states: dict[str, str] = report.json()["checks"]["content"]["collections"]
    return states


def content_log(server: LiveServer) -> str:
    """What the workers logged of their content, to tell why a check failed."""
    return "\n".join(
        f"{line['time']} {line.get('worker', '')} {line['level']} {line['message']}"
        for line in json_lines(server.log_path)
        if str(line.get("logger", "")).startswith("server.content")
    )


def messages(server: LiveServer, *, after: float, starting: str) -> list[dict[str, object]]:
    return [
        line
        for line in json_lines(server.log_path)
        if str(line.get("message", "")).startswith(starting)
        and time.mktime(time.strptime(str(line["time"])[:19], "%Y-%m-%dT%H:%M:%S")) >= after - 1
    ]


def test_an_edit_after_a_silent_drop_shows_on_every_reload_within_60_s(
    firestore_emulator: FirestoreEmulator, tmp_path: Path
) -> None:
    emulator = firestore_emulator
    emulator.reset()
    seed_site(emulator, project("p1", "Abdoun villa"), project("p2", "Dead Sea resort"))
    workers = procfile_default_workers()
    with TcpProxy(emulator.host) as proxy:
        server = LiveServer(
            env={
                "CONTENT_SOURCE": "firestore",
                "FIRESTORE_EMULATOR_HOST": proxy.host,
                "GOOGLE_CLOUD_PROJECT": emulator.project,
                "LOG_FORMAT": "json",
                "RENDER_POOL_SIZE": "1",
                "CONTENT_MAX_STALENESS_SECONDS": str(MAX_STALENESS),
                "FIRESTORE_TIMEOUT_SECONDS": str(TIMEOUT),
            },
            log_path=tmp_path / "uvicorn.log",
            workers=workers,
        )
        with server:
            wait_for(
                "every worker listens to Projects",
                lambda: len(workers_with_snapshot(server.log_path, after=0)) == workers,
                timeout=20,
            )
            assert "Abdoun villa" in reload_fresh(server.url + "/projects")
            assert collection_states(server)["projects"] == "live"

            # Every connection open now goes silent: each worker's listeners
            # and reads share one per worker.
            dropped_at_wall, dropped_at = time.time(), time.monotonic()
            assert proxy.drop_open() >= workers
            emulator.seed("Projects", [project("p1", "Abdoun villa, terrace redone")])

            # Not one reload may show the old text once the edit has shown on
            # RELOADS reloads in a row.
            in_a_row = 0
            while in_a_row < RELOADS:
                elapsed = time.monotonic() - dropped_at
                assert elapsed < RECOVERED_WITHIN, f"{in_a_row} reloads in a row after {elapsed}"
                page = reload_fresh(server.url + "/projects")
                in_a_row = in_a_row + 1 if "terrace redone" in page else 0
                if not in_a_row:
                    time.sleep(0.2)
            recovered_in = time.monotonic() - dropped_at
            print(f"every reload shows the edit {recovered_in:.1f} s after the drop")

            # What each worker saw and did: a read with no answer, a new
            # connection, a new listener delivering on it. A worker checks its
            # connection only when a visitor asks it for a page, so visits go on
            # (the kernel may have handed the reloads above all to one worker).
            # On a loaded machine reads on the new connection can miss the
            # deadline too, each one ending its listeners again: the backoff
            # between them grows to its longest, so that is how long a listener
            # may take to come back.
            def every_worker_listens_again() -> bool:
                reload_fresh(server.url + "/projects")
                listening = workers_with_snapshot(server.log_path, after=dropped_at_wall)
                return len(listening) == workers

            try:
                wait_for(
                    "every worker listens again",
                    every_worker_listens_again,
                    timeout=Backoff().longest + 10,
                )
            except AssertionError as error:
                raise AssertionError(f"{error}\n{content_log(server)}") from None
            reconnects = messages(
                server,
                after=dropped_at_wall,
                starting=f"Firestore gave no answer within {TIMEOUT:g} s",
            )
            assert reconnects
            assert {line["level"] for line in reconnects} == {"WARNING"}
            assert messages(server, after=dropped_at_wall, starting="Error fetching projects:")
            assert proxy.accepted > workers  # the new connections

            # Live again, on the new connections: an edit shows at once.
            wait_for(
                "projects live again",
                lambda: collection_states(server)["projects"] == "live",
                timeout=10,
            )
            emulator.seed("Projects", [project("p3", "Jerash museum")])
            wait_for(
                "an edit after recovery",
                lambda: "Jerash museum" in reload_fresh(server.url + "/projects"),
                timeout=EDIT_SHOWS_WITHIN,
            )
        log = server.log()
    assert "Traceback" not in log
    assert "Background thread did not exit" not in log
