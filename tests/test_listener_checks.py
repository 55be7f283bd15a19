"""The staleness bound: a listener's view is served only while something vouches for it.

ContentCache.verify checks a live listener's view against a read; the
supervisor (server/content/live.py) runs it when the view has gone unvouched
for `check_every` seconds; a read with no answer makes the Firestore store
open a new connection. tests/test_silent_stream.py shows all of it end to end.
"""

from __future__ import annotations

import asyncio
import logging
import os

import pytest

from harness.firestore_emulator import FirestoreEmulator
from server.content import live as live_module
from server.content.cache import ContentCache
from server.content.firestore import FirestoreContentStore
from server.content.live import LiveContent
from server.content.models import CardItem, Collection, ContentItem
from server.content.reads import counting_reads
from server.content.store import ContentUnavailableError
from server.settings import Settings, SettingsError
from tests.clock import Clock
from tests.silent_proxy import SilentProxy
from tests.test_live_supervisor import (
    PHOTO,
    QUICK,
    DrivenStore,
    document,
    handed_over,
    names,
    until,
)

PROJECTS = Collection.PROJECTS
BOUND = 30.0


def card(item_id: str, name: str) -> ContentItem:
    return CardItem(id=item_id, name=name, description="d", photoUrl=PHOTO)


def listened_cache(store: DrivenStore, clock: Clock) -> ContentCache:
    cache = ContentCache(store, max_age_seconds=60, clock=clock, max_staleness_seconds=BOUND)
    cache.listener_started(PROJECTS)
    cache.publish(PROJECTS, (card("a", "Villa"),))
    return cache


@pytest.mark.anyio
async def test_within_the_bound_the_listeners_view_is_served_without_a_read() -> None:
    clock = Clock()
    store = DrivenStore(items=[card("a", "Villa, changed")])
    cache = listened_cache(store, clock)
    clock.now += BOUND
    with counting_reads() as reads:
        snapshot = await cache.get(PROJECTS)
    assert names(snapshot.items) == ["Villa"]
    assert reads.reads == 0
    assert cache.status(PROJECTS).live


@pytest.mark.anyio
async def test_past_the_bound_a_matching_read_vouches_for_the_view_again() -> None:
    clock = Clock()
    store = DrivenStore(items=[card("a", "Villa")])
    cache = listened_cache(store, clock)
    before = await cache.get(PROJECTS)
    clock.now += BOUND + 1
    assert not cache.status(PROJECTS).live
    assert cache.status(PROJECTS).unverified
    with counting_reads() as reads:
        after = await cache.get(PROJECTS)
        again = await cache.get(PROJECTS)
    assert reads.reads == 1
    assert after.version == before.version == again.version  # nothing changed: pages stay cached
    assert cache.status(PROJECTS).live


@pytest.mark.anyio
async def test_a_view_behind_the_read_is_replaced_by_it_and_the_listener_reported() -> None:
    clock = Clock()
    store = DrivenStore(items=[card("a", "Villa"), card("b", "Hotel")])
    cache = listened_cache(store, clock)
    reported: list[tuple[Collection, str]] = []
    cache.on_listener_behind = lambda collection, what: reported.append((collection, what))
    clock.now += BOUND + 1
    snapshot = await cache.get(PROJECTS)
    assert names(snapshot.items) == ["Villa", "Hotel"]
    assert reported == [
        (
            PROJECTS,
            "the listener's view (1 items, vouched for 31 s ago) differs from a read (2 items)",
        )
    ]
    # The listener stops; the read stands for the outage's first read.
    cache.listener_failed(PROJECTS, "listener fell silent")
    with counting_reads() as reads:
        assert names((await cache.get(PROJECTS)).items) == ["Villa", "Hotel"]
    assert reads.reads == 0


@pytest.mark.anyio
async def test_when_the_check_cannot_read_the_view_is_served_unverified_and_read_again_later(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    store = DrivenStore(reads_fail=True)
    cache = listened_cache(store, clock)
    clock.now += BOUND + 1
    with caplog.at_level(logging.ERROR), counting_reads() as reads:
        first = await cache.get(PROJECTS)
        second = await cache.get(PROJECTS)
    # Firestore does not answer reads: the bound cannot hold, the view is all there is.
    assert names(first.items) == names(second.items) == ["Villa"]
    assert reads.reads == 1  # not one read per request: once per max_age
    assert "Error fetching projects: database down" in caplog.messages
    status = cache.status(PROJECTS)
    assert (status.live, status.unverified) == (False, True)
    clock.now += 60
    store.reads_fail = False
    with counting_reads() as reads:
        await cache.get(PROJECTS)
    assert reads.reads == 1
    assert cache.status(PROJECTS).live


@pytest.mark.anyio
async def test_the_supervisor_checks_a_silent_listener_and_replaces_it(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(live_module, "HEALTH_CHECK_SECONDS", 0.01)
    store = DrivenStore(items=[card("a", "Villa")])
    cache = ContentCache(store, max_age_seconds=60, max_staleness_seconds=0.3)
    live = LiveContent(store, cache, backoff=QUICK, check_every=0.2)
    live.start()
    try:
        await until("a listener", lambda: PROJECTS in store.listeners)
        first = store.latest()
        first.send([document("a", "Villa")])
        await handed_over()
        # Healthy and quiet: checked, found matching, kept.
        await asyncio.sleep(0.5)
        assert store.latest() is first
        assert cache.status(PROJECTS).live
        # An edit the listener never hears of (its stream went silent).
        store.items = [card("a", "Villa"), card("b", "Hotel")]
        with caplog.at_level(logging.WARNING):
            for _ in range(200):  # a page's view: what the cache serves, read or not
                if len((await cache.get(PROJECTS)).items) == 2:
                    break
                await asyncio.sleep(0.01)
            await until("a new listener", lambda: store.latest() is not first, timeout=2)
        assert not first.alive
        warning = next(r for r in caplog.records if r.levelno == logging.WARNING)
        assert warning.getMessage() == (
            "Projects: the listener's view (1 items, vouched for 0 s ago) differs from a read"
            " (2 items): serving the read, replacing the listener"
        )
        assert warning.__dict__["worker"] == os.getpid()
        assert names((await cache.get(PROJECTS)).items) == ["Villa", "Hotel"]
    finally:
        await live.close()
    assert store.most_open == 1


@pytest.mark.anyio
async def test_a_check_whose_read_fails_is_tried_again_after_check_every_not_every_tick(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(live_module, "HEALTH_CHECK_SECONDS", 0.01)
    clock = Clock()
    store = DrivenStore(reads_fail=True)  # permission denied, quota: reads fail at once
    cache = ContentCache(store, max_age_seconds=60, clock=clock, max_staleness_seconds=BOUND)
    live = LiveContent(store, cache, backoff=QUICK, check_every=20)
    live.start()
    try:
        await until("a listener", lambda: PROJECTS in store.listeners)
        listener = store.latest()
        listener.send([document("a", "Villa")])
        await handed_over()

        def failed_checks() -> int:
            return caplog.messages.count("Error fetching projects: database down")

        with caplog.at_level(logging.ERROR):
            clock.now += 20
            await until("a check", lambda: failed_checks() == 1)
            await asyncio.sleep(0.3)  # thirty health ticks, the listener alive throughout
            assert failed_checks() == 1
            clock.now += 19
            await asyncio.sleep(0.1)
            assert failed_checks() == 1
            clock.now += 1
            await until("the next check", lambda: failed_checks() == 2)
            await asyncio.sleep(0.1)
            assert failed_checks() == 2
        assert store.latest() is listener  # no stream error: kept
        assert listener.alive
    finally:
        await live.close()


def test_the_bound_must_leave_time_for_a_checks_read() -> None:
    assert Settings().content_check_seconds == Settings().content_max_staleness_seconds - 2.5
    with pytest.raises(SettingsError, match="CONTENT_MAX_STALENESS_SECONDS=2"):
        Settings.from_environment(
            {"CONTENT_MAX_STALENESS_SECONDS": "2", "FIRESTORE_TIMEOUT_SECONDS": "2"}
        )
    settings = Settings.from_environment({"CONTENT_MAX_STALENESS_SECONDS": "300"})
    assert settings.content_check_seconds == 297.5


@pytest.mark.anyio
async def test_a_read_with_no_answer_opens_a_new_connection(
    firestore: FirestoreEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    firestore.seed(
        "Projects", [{"id": "a", "name": "Villa", "description": "d", "photoUrl": PHOTO}]
    )
    with SilentProxy(firestore.host) as proxy:
        monkeypatch.setenv("FIRESTORE_EMULATOR_HOST", proxy.host)
        store = FirestoreContentStore.connect(project=firestore.project, timeout_seconds=3)
        try:
            assert [item.id for item in await store.fetch(PROJECTS)] == ["a"]
            assert proxy.drop_open() == 1
            with pytest.raises(ContentUnavailableError, match="no answer within 3 s"):
                await store.fetch(PROJECTS)
            assert [item.id for item in await store.fetch(PROJECTS)] == ["a"]
            assert proxy.accepted == 2
        finally:
            await store.close()
