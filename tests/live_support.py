"""What the live-content tests share: listeners a test drives, and a site on the emulator.

DrivenStore and DrivenListener stand in for Firestore where a failure must be
forced on cue (tests/test_live_supervisor.py, tests/test_listener_checks.py);
the rest seeds the real emulator and reads the workers' JSON log
(tests/test_live_content.py, tests/test_silent_stream.py).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx2 as httpx

from harness.firestore_emulator import FirestoreEmulator
from server.content.cache import ContentCache, ContentUnavailableError
from server.content.listener import ListenedDocument
from server.content.live import Backoff, LiveContent
from server.content.models import CardItem, Collection, ContentItem
from server.content.photo_policy import PhotoUrlPolicy

PROJECTS = Collection.PROJECTS


PHOTO = "https://firebasestorage.googleapis.com/v0/b/demo/o/a.jpg?alt=media"


QUICK = Backoff(first=0.01, longest=0.05)


def document(doc_id: str, name: str, *, version: int = 1) -> ListenedDocument:
    return ListenedDocument(
        id=doc_id,
        fields={"name": name, "description": "d", "photoUrl": PHOTO},
        update_time=datetime(2026, 1, 1, tzinfo=UTC).replace(microsecond=version),
    )


@dataclass
class DrivenListener:
    on_documents: Callable[[Sequence[ListenedDocument]], None]
    on_stopped: Callable[[str], None]
    alive: bool = True

    def close(self) -> None:
        self.alive = False

    def send(self, documents: Sequence[ListenedDocument]) -> None:
        """As the client does: from a thread of its own."""
        thread = threading.Thread(target=self.on_documents, args=(documents,))
        thread.start()
        thread.join()


@dataclass
class DrivenStore:
    """Listens with DrivenListeners; reads answer `items` or fail, and so do probes."""

    items: list[ContentItem] = field(default_factory=list)
    reads_fail: bool = False
    listeners: dict[Collection, list[DrivenListener]] = field(default_factory=dict)
    # How many listeners of a collection were open at once, at most.
    most_open: int = 0
    on_listen: Callable[[DrivenListener], None] | None = None
    # Reads and probes asked of the database.
    calls: int = 0

    @property
    def photo_urls(self) -> PhotoUrlPolicy:
        return PhotoUrlPolicy()

    def listen(
        self,
        collection: Collection,
        *,
        on_documents: Callable[[Sequence[ListenedDocument]], None],
        on_stopped: Callable[[str], None],
    ) -> DrivenListener:
        listener = DrivenListener(on_documents, on_stopped)
        made = self.listeners.setdefault(collection, [])
        made.append(listener)
        self.most_open = max(self.most_open, sum(1 for each in made if each.alive))
        if self.on_listen is not None:
            self.on_listen(listener)
        return listener

    def latest(self, collection: Collection = PROJECTS) -> DrivenListener:
        return self.listeners[collection][-1]

    async def fetch(self, collection: Collection) -> list[ContentItem]:
        self.calls += 1
        if self.reads_fail:
            raise ContentUnavailableError("database down")
        return list(self.items)

    async def probe(self) -> None:
        self.calls += 1
        if self.reads_fail:
            raise ContentUnavailableError("database down")

    async def close(self) -> None:
        return None


async def until(what: str, check: Callable[[], bool], timeout: float = 3.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:g} s: {what}")
        await asyncio.sleep(0.005)


@asynccontextmanager
async def listening(store: DrivenStore, cache: ContentCache) -> AsyncIterator[LiveContent]:
    """LiveContent on `store`, from its first Projects listener until closed."""
    live = LiveContent(store, cache, backoff=QUICK)
    live.start()
    try:
        await until("a listener", lambda: PROJECTS in store.listeners)
        yield live
    finally:
        await live.close()


async def handed_over() -> None:
    # A snapshot sent (its thread joined) is already queued on the loop with
    # call_soon_threadsafe: yielding once lets it run before this task resumes.
    await asyncio.sleep(0)


def names(items: Sequence[ContentItem]) -> list[str]:
    return [item.name for item in items if isinstance(item, CardItem)]


# The bar: an edit shows on every worker within this long.
EDIT_SHOWS_WITHIN = 2.0


def project(doc_id: str, name: str) -> dict[str, str]:
    return {"id": doc_id, "name": name, "description": f"About {name}.", "photoUrl": PHOTO}


def seed_site(emulator: FirestoreEmulator, *projects: dict[str, str]) -> None:
    emulator.seed("Projects", list(projects))
    emulator.seed("Collabrations", [project("c1", "Studio Meridiana")])
    emulator.seed("Slider", [{"id": "s1", "photoUrl": PHOTO}])


def json_lines(path: Path) -> list[dict[str, Any]]:
    """The log's JSON lines (uvicorn's parent process writes a few plain ones)."""
    lines = []
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith("{"):
            lines.append(json.loads(line))
    return lines


def wait_for(what: str, check: Callable[[], bool], *, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:g} s: {what}")
        time.sleep(0.05)


def workers_with_snapshot(log: Path, *, after: float, collection: str = "Projects") -> set[int]:
    """The workers whose listener delivered a snapshot of `collection` after `after` (epoch)."""
    return {
        line["worker"]
        for line in json_lines(log)
        if line.get("collection") == collection
        and "worker" in line
        and _epoch(line["time"]) >= after
    }


def _epoch(iso: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(iso).timestamp()


def reload_fresh(url: str) -> str:
    # A new connection each time: the kernel hands it to either worker.
    with httpx.Client(timeout=5.0) as client:
        response = client.get(url, headers={"Connection": "close"})
    assert response.status_code == 200
    return response.text
