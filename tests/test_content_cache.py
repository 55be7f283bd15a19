"""The content cache: single flight, stale-while-revalidate, stale-if-error."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

import pytest

from server.content.cache import (
    CollectionStatus,
    ContentCache,
    ContentUnavailableError,
)
from server.content.models import CardItem, Collection, ContentItem
from server.logs import handling_request
from tests.clock import Clock

PROJECTS = Collection.PROJECTS


def card(name: str) -> CardItem:
    return CardItem(id=name, name=name, description="", photoUrl="/images/x.jpg")


@dataclass
class ScriptedStore:
    """A store whose answers the test sets, counting reads; it can be made to fail."""

    items: list[ContentItem] = field(default_factory=lambda: [card("a")])
    failing: bool = False
    delay: float = 0.0
    reads: int = 0

    async def fetch(self, collection: Collection) -> list[ContentItem]:
        self.reads += 1
        items = list(self.items)  # what is there as the read starts
        await asyncio.sleep(self.delay)
        if self.failing:
            raise ContentUnavailableError("database down")
        return items

    async def close(self) -> None:
        return None


@pytest.mark.anyio
async def test_concurrent_requests_share_one_read_per_period() -> None:
    store = ScriptedStore(delay=0.05)
    cache = ContentCache(store, max_age_seconds=60)
    snapshots = await asyncio.gather(*(cache.get(PROJECTS) for _ in range(200)))
    assert store.reads == 1
    assert {snapshot.items for snapshot in snapshots} == {(card("a"),)}
    await cache.get(PROJECTS)
    assert store.reads == 1


@pytest.mark.anyio
async def test_stale_content_is_served_while_one_refresh_runs() -> None:
    store, clock = ScriptedStore(delay=0.05), Clock()
    cache = ContentCache(store, max_age_seconds=60, clock=clock)
    first = await cache.get(PROJECTS)
    store.items = [card("b")]
    clock.now += 61
    during = await asyncio.gather(*(cache.get(PROJECTS) for _ in range(50)))
    assert all(snapshot == first for snapshot in during)  # nobody waited
    await asyncio.sleep(0.1)
    after = await cache.get(PROJECTS)
    assert after.items == (card("b"),)
    assert after.version != first.version
    assert store.reads == 2


@pytest.mark.anyio
async def test_after_a_save_the_next_visit_waits_for_the_new_content_not_the_old() -> None:
    store, clock = ScriptedStore(delay=0.05), Clock()
    cache = ContentCache(store, max_age_seconds=60, clock=clock)
    await cache.get(PROJECTS)
    store.items = [card("b")]
    cache.expire(PROJECTS)  # the studio saved it: what the cache holds is known to be old
    visits = await asyncio.gather(*(cache.get(PROJECTS) for _ in range(20)))
    assert {snapshot.items for snapshot in visits} == {(card("b"),)}
    assert store.reads == 2
    store.items = [card("c")]
    clock.now += 61  # plain age, not a save: stale while it revalidates, as before
    assert (await cache.get(PROJECTS)).items == (card("b"),)


@pytest.mark.anyio
async def test_a_save_during_a_read_is_read_again_before_the_next_visit_is_answered() -> None:
    store, clock = ScriptedStore(delay=0.05), Clock()
    cache = ContentCache(store, max_age_seconds=60, clock=clock)
    await cache.get(PROJECTS)
    clock.now += 61
    await cache.get(PROJECTS)  # a refresh starts, reading what is there before the save
    await asyncio.sleep(0.01)  # it has begun
    store.items = [card("b")]
    cache.expire(PROJECTS)
    assert (await cache.get(PROJECTS)).items == (card("b"),)
    assert store.reads == 3


@pytest.mark.anyio
async def test_a_save_under_a_listener_leaves_an_outage_serving_the_last_content_at_once() -> None:
    store = ScriptedStore(delay=0.5)
    cache = ContentCache(store, max_age_seconds=60)
    cache.publish(PROJECTS, (card("a"),))
    cache.expire(PROJECTS)  # the studio saved; the listener brings the change
    cache.publish(PROJECTS, (card("b"),))
    cache.listener_failed(PROJECTS, "stream ended")
    async with asyncio.timeout(0.2):  # not waiting on the read the outage starts
        assert (await cache.get(PROJECTS)).items == (card("b"),)


@pytest.mark.anyio
async def test_a_failed_refresh_keeps_the_last_good_content(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store, clock = ScriptedStore(), Clock()
    cache = ContentCache(store, max_age_seconds=60, clock=clock)
    good = await cache.get(PROJECTS)
    store.failing = True
    clock.now += 61
    with caplog.at_level(logging.ERROR):
        await cache.get(PROJECTS)
        await asyncio.sleep(0.01)
    assert await cache.get(PROJECTS) == good
    assert "Error fetching projects: database down" in caplog.text


@pytest.mark.anyio
async def test_with_nothing_read_yet_a_failure_gives_an_empty_list_and_a_pause() -> None:
    store, clock = ScriptedStore(failing=True), Clock()
    cache = ContentCache(store, max_age_seconds=60, clock=clock)
    snapshot = await cache.get(PROJECTS)
    assert snapshot.items == ()
    assert snapshot.error == "database down"
    # No hammering of a failing database: the next try waits for the period.
    await cache.get(PROJECTS)
    assert store.reads == 1
    store.failing = False
    clock.now += 61
    recovered = await cache.get(PROJECTS)
    assert recovered.items == (card("a"),)
    assert recovered.error is None


@pytest.mark.anyio
async def test_zero_seconds_reads_on_every_request_and_still_falls_back() -> None:
    store = ScriptedStore()
    cache = ContentCache(store, max_age_seconds=0)
    for _ in range(3):
        await cache.get(PROJECTS)
    assert store.reads == 3
    store.items = [card("new")]
    assert (await cache.get(PROJECTS)).items == (card("new"),)
    store.failing = True
    assert (await cache.get(PROJECTS)).items == (card("new"),)


@pytest.mark.anyio
async def test_the_version_changes_only_when_the_content_does() -> None:
    store = ScriptedStore()
    cache = ContentCache(store, max_age_seconds=0)
    first = await cache.get(PROJECTS)
    assert (await cache.get(PROJECTS)).version == first.version
    store.items = [card("a"), card("b")]
    assert (await cache.get(PROJECTS)).version != first.version


@pytest.mark.anyio
async def test_collections_are_cached_independently() -> None:
    store = ScriptedStore()
    cache = ContentCache(store, max_age_seconds=60)
    await cache.get(Collection.PROJECTS)
    await cache.get(Collection.SLIDER)
    await cache.get(Collection.PROJECTS)
    assert store.reads == 2


@pytest.mark.anyio
async def test_status_says_whether_good_content_is_held_and_why_the_last_read_failed() -> None:
    store, clock = ScriptedStore(failing=True), Clock()
    cache = ContentCache(store, max_age_seconds=60, clock=clock)
    assert cache.status(PROJECTS) == CollectionStatus(has_content=False, last_error=None)
    await cache.get(PROJECTS)
    assert cache.status(PROJECTS) == CollectionStatus(has_content=False, last_error="database down")
    store.failing, clock.now = False, clock.now + 61
    await cache.get(PROJECTS)
    assert cache.status(PROJECTS) == CollectionStatus(has_content=True, last_error=None)
    store.failing, clock.now = True, clock.now + 61
    await cache.get(PROJECTS)  # stale, while the refresh fails
    await asyncio.sleep(0.01)
    assert cache.status(PROJECTS) == CollectionStatus(has_content=True, last_error="database down")
    assert store.reads == 3  # status() itself never reads


@pytest.mark.anyio
async def test_each_read_counts_toward_the_request_that_started_it() -> None:
    store, clock = ScriptedStore(delay=0.05), Clock()
    cache = ContentCache(store, max_age_seconds=60, clock=clock)

    async def request() -> int:
        with handling_request() as facts:
            await cache.get(PROJECTS)
        return facts.content_reads

    # Two requests at once: one starts the read, the other shares it.
    assert sorted(await asyncio.gather(request(), request())) == [0, 1]
    assert await request() == 0  # fresh in the cache
    clock.now += 61
    # Served stale at once, yet the refresh it started counts for it.
    assert await request() == 1
    await asyncio.sleep(0.1)
    assert store.reads == 2
