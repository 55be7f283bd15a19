"""The listeners' supervisor (server/content/live.py), with listeners the test drives.

The emulator tests (tests/test_live_content.py) show the real thing end to end;
here failures are forced where the emulator cannot force them on cue: a
listener that fails at once, snapshots arriving from another thread while the
supervisor replaces the listener.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass

import pytest

from server.content.cache import ContentCache
from server.content.listener import ListenedDocument
from server.content.live import Backoff, LiveContent
from server.content.models import CardItem, Collection
from server.logs import handling_request
from tests.live_support import (
    PHOTO,
    DrivenStore,
    document,
    handed_over,
    listening,
    names,
    until,
)

PROJECTS = Collection.PROJECTS


@pytest.mark.anyio
async def test_snapshots_from_the_client_thread_reach_the_cache_and_bump_the_version() -> None:
    store = DrivenStore()
    cache = ContentCache(store, max_age_seconds=60, first_snapshot_wait_seconds=2)
    async with listening(store, cache):
        waiting = asyncio.create_task(cache.get(PROJECTS))  # before the first snapshot
        store.latest().send([document("a", "Villa")])
        first = await waiting
        store.latest().send([document("a", "Villa, redone", version=2), document("b", "Hotel")])
        await handed_over()
        with handling_request() as facts:
            second = await cache.get(PROJECTS)
        assert names(first.items) == ["Villa"]
        assert names(second.items) == ["Villa, redone", "Hotel"]
        assert second.version > first.version
        assert facts.content_reads == 0  # live: no reads


@pytest.mark.anyio
async def test_a_bad_document_is_skipped_with_the_warning_once_per_version(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = DrivenStore()
    cache = ContentCache(store, max_age_seconds=60)
    bad = ListenedDocument(id="evil", fields={"name": 7}, update_time=None)
    async with listening(store, cache):
        with caplog.at_level(logging.WARNING):
            store.latest().send([document("a", "Villa"), bad])
            store.latest().send([document("a", "Villa", version=2), bad])
            await handed_over()
            snapshot = await cache.get(PROJECTS)
        assert names(snapshot.items) == ["Villa"]
        warnings = [r.getMessage() for r in caplog.records if "Skipping Projects/evil" in r.message]
        assert len(warnings) == 1


@pytest.mark.anyio
async def test_a_failed_listener_is_logged_replaced_with_backoff_and_reads_meanwhile(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = DrivenStore(items=[CardItem(id="r", name="Read", description="", photoUrl=PHOTO)])
    cache = ContentCache(store, max_age_seconds=60)
    async with listening(store, cache):
        first = store.latest()
        first.send([document("a", "Villa")])
        await until("live", lambda: cache.status(PROJECTS).live)
        with caplog.at_level(logging.ERROR):
            first.on_stopped("listener stopped: 503 unavailable")
            await until("not live", lambda: not cache.status(PROJECTS).live)
            # Meanwhile the bounded read path: the next request reads.
            await cache.get(PROJECTS)
            await until("the read", lambda: cache.status(PROJECTS).last_error is None)
            await until("a new listener", lambda: store.latest() is not first)
        assert not first.alive  # closed before the next was made
        assert any(
            r.getMessage().startswith("Error fetching projects: Projects: listener stopped: 503")
            for r in caplog.records
        )
        # A late snapshot from the old listener's thread changes nothing.
        first.send([document("z", "From the dead listener")])
        store.latest().send([document("a", "Villa"), document("b", "Hotel")])
        await handed_over()
        assert cache.status(PROJECTS).live
        assert names((await cache.get(PROJECTS)).items) == ["Villa", "Hotel"]
    assert store.most_open == 1


@pytest.mark.anyio
async def test_failing_listeners_back_off_and_closing_ends_every_listener() -> None:
    store = DrivenStore(reads_fail=True)
    # Every listener fails at once, as against a database that is down.
    store.on_listen = lambda listener: listener.on_stopped("listener stopped: 503")
    cache = ContentCache(store, max_age_seconds=60)
    backoff = Backoff(first=0.05, longest=0.2)
    live = LiveContent(store, cache, backoff=backoff)
    started = time.monotonic()
    live.start()
    await until("four attempts", lambda: len(store.listeners.get(PROJECTS, [])) >= 4)
    await live.close()
    elapsed = time.monotonic() - started
    made = len(store.listeners[PROJECTS])
    # Each wait is at least half the first delay: a few attempts, never a tight loop.
    assert made <= 1 + elapsed / (backoff.first / 2)
    # And the waits grow: four attempts take at least 0.025 + 0.05 + 0.1 s.
    assert elapsed >= 0.175
    assert store.most_open == 1
    assert all(not listener.alive for each in store.listeners.values() for listener in each)
    status = cache.status(PROJECTS)
    assert not status.has_content
    assert not status.live


@dataclass(frozen=True)
class LongAfterEight(Backoff):
    """The first waits short, so a test gets to a long one without waiting out the others."""

    def delay(self, failures: int) -> float:
        return self.first if failures < 8 else self.longest


@pytest.mark.anyio
async def test_a_read_that_succeeds_again_brings_the_listener_back_before_its_backoff() -> None:
    store = DrivenStore(items=[CardItem(id="r", name="Read", description="", photoUrl=PHOTO)])
    store.reads_fail = True
    # Every listener fails at once, as against a database that is down.
    store.on_listen = lambda listener: listener.on_stopped("listener stopped: 503")
    cache = ContentCache(store, max_age_seconds=0)
    live = LiveContent(store, cache, backoff=LongAfterEight(first=0.01, longest=600))
    live.start()
    try:
        # Eight failures: the next wait is 600 s.
        await until("eight attempts", lambda: len(store.listeners.get(PROJECTS, [])) >= 8, 20)
        made = len(store.listeners[PROJECTS])
        store.reads_fail = False
        await cache.get(PROJECTS)  # a read succeeds: the database answers again
        await until("a try at once", lambda: len(store.listeners[PROJECTS]) > made, timeout=1)
    finally:
        await live.close()
    assert store.most_open == 1
