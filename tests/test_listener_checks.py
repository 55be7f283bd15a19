"""The staleness bound: a listener's view is served only while something vouches for it.

A snapshot vouches for a view; past the bound, the request that finds it so
has the cache probe the listeners' connection (ContentCache._vouch), and a
probe with no answer makes the Firestore store open a new connection, which
ends the listeners on the old one. Nothing is asked while nobody visits.
tests/test_silent_stream.py shows all of it end to end.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Sequence

import pytest

from harness.firestore_emulator import FirestoreEmulator
from harness.tcp_proxy import TcpProxy
from server.content.cache import ContentCache, ContentUnavailableError
from server.content.firestore import FirestoreContentStore
from server.content.listener import ListenedDocument
from server.content.models import CardItem, Collection, ContentItem
from server.logs import handling_request
from server.settings import Settings, SettingsError
from tests.clock import Clock
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
BOUND = 30.0


def card(item_id: str, name: str) -> ContentItem:
    return CardItem(id=item_id, name=name, description="d", photoUrl=PHOTO)


def listened_cache(store: DrivenStore, clock: Clock) -> ContentCache:
    cache = ContentCache(store, max_age_seconds=60, clock=clock, max_staleness_seconds=BOUND)
    cache.probe_connection = store.probe
    cache.listener_started(PROJECTS)
    cache.publish(PROJECTS, (card("a", "Villa"),))
    return cache


@pytest.mark.anyio
async def test_within_the_bound_the_listeners_view_is_served_without_asking_the_database() -> None:
    clock = Clock()
    store = DrivenStore(items=[card("a", "Villa, changed")])
    cache = listened_cache(store, clock)
    clock.now += BOUND
    snapshot = await cache.get(PROJECTS)
    assert names(snapshot.items) == ["Villa"]
    assert store.calls == 0
    assert cache.status(PROJECTS).live


@pytest.mark.anyio
async def test_past_the_bound_a_probe_that_answers_vouches_for_every_view_without_a_read() -> None:
    clock = Clock()
    store = DrivenStore(items=[card("a", "Villa, as a read would find it")])
    cache = listened_cache(store, clock)
    cache.listener_started(Collection.SLIDER)
    cache.publish(Collection.SLIDER, ())
    before = await cache.get(PROJECTS)
    clock.now += BOUND + 1
    assert cache.status(PROJECTS).live  # past the bound, but no visit has doubted it yet
    with handling_request() as facts:
        after = await cache.get(PROJECTS)
        again = await cache.get(PROJECTS)
        await cache.get(Collection.SLIDER)
    assert store.calls == facts.content_reads == 1  # one probe, for both collections
    assert names(after.items) == ["Villa"]  # the listener's view, not a read
    assert after.version == before.version == again.version  # nothing changed: pages stay cached
    assert cache.status(PROJECTS).live
    assert cache.status(Collection.SLIDER).live


@pytest.mark.anyio
async def test_when_the_probe_fails_the_view_is_served_unverified_and_probed_again_later(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    store = DrivenStore(reads_fail=True)
    cache = listened_cache(store, clock)
    clock.now += BOUND + 1
    with caplog.at_level(logging.ERROR):
        first = await cache.get(PROJECTS)
        second = await cache.get(PROJECTS)
    # Firestore does not answer: the bound cannot hold, the view is all there is.
    assert names(first.items) == names(second.items) == ["Villa"]
    assert store.calls == 1  # not one probe per request: once per max_age
    assert caplog.messages == ["The listeners' connection did not answer a probe: database down"]
    status = cache.status(PROJECTS)
    assert (status.live, status.unverified) == (False, True)
    clock.now += 60
    store.reads_fail = False
    await cache.get(PROJECTS)
    assert store.calls == 2
    assert cache.status(PROJECTS).live


@pytest.mark.anyio
async def test_an_idle_site_asks_the_database_nothing() -> None:
    clock = Clock()
    store = DrivenStore(items=[card("a", "Villa")])
    cache = ContentCache(store, max_age_seconds=60, clock=clock, max_staleness_seconds=BOUND)
    async with listening(store, cache):
        store.latest().send([document("a", "Villa")])
        await handed_over()
        # Hours pass: no page, so no probe and no read.
        clock.now += 6 * 3600
        await asyncio.sleep(0.2)
        assert store.calls == 0
        # The first visitor after them has the connection probed, once.
        assert names((await cache.get(PROJECTS)).items) == ["Villa"]
        assert store.calls == 1


def test_the_bound_must_leave_time_for_a_probe() -> None:
    with pytest.raises(SettingsError, match="CONTENT_MAX_STALENESS_SECONDS=2"):
        Settings.from_environment(
            {"CONTENT_MAX_STALENESS_SECONDS": "2", "FIRESTORE_TIMEOUT_SECONDS": "2"}
        )


@pytest.mark.anyio
async def test_a_probe_with_no_answer_opens_a_new_connection_and_ends_the_old_ones_listener(
    firestore: FirestoreEmulator,
) -> None:
    firestore.seed(
        "Projects",
        [
            {"id": "a", "name": "Villa", "description": "d", "photoUrl": PHOTO},
            {"id": "b", "name": "Hotel", "description": "d", "photoUrl": PHOTO},
        ],
    )
    with TcpProxy(firestore.host) as proxy:
        store = FirestoreContentStore(
            project=firestore.project, timeout_seconds=2, emulator_host=proxy.host
        )
        snapshots: list[list[str]] = []
        stopped: list[str] = []
        delivered = threading.Event()

        def on_documents(documents: Sequence[ListenedDocument]) -> None:
            snapshots.append([str(each.fields["name"]) for each in documents])
            delivered.set()

        first = store.listen(PROJECTS, on_documents=on_documents, on_stopped=stopped.append)
        try:
            await until("the first snapshot", delivered.is_set, timeout=10)
            await store.probe()  # answers
            assert proxy.drop_open() == 1  # reads, probes and the listener share it
            firestore.seed(
                "Projects",
                [{"id": "a", "name": "Villa, redone", "description": "d", "photoUrl": PHOTO}],
            )
            with pytest.raises(ContentUnavailableError, match="no answer within 2 s"):
                await store.probe()
            await until("the old listener ends", lambda: bool(stopped), timeout=5)
            first.close()
            await store.probe()  # on the new connection
            assert proxy.accepted == 2
            # A new listener, on the new connection, resumes where the old one got to.
            delivered.clear()
            second = store.listen(PROJECTS, on_documents=on_documents, on_stopped=stopped.append)
            await until("a snapshot on the new connection", delivered.is_set, timeout=10)
            assert snapshots == [["Villa", "Hotel"], ["Villa, redone", "Hotel"]]
            second.close()
        finally:
            first.close()
            await store.close()
