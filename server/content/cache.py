"""A per-collection cache in front of a content store or fed by listeners; the store interface.
What it guarantees: docs/architecture.md, section 3, and docs/operating.md."""

from __future__ import annotations

import asyncio
import itertools
import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from server.content.models import Collection, ContentItem
from server.logs import current_request
from server.site.facts import SITE

logger = logging.getLogger(__name__)


class ContentUnavailableError(Exception):
    """A collection could not be read (the database is down, slow or refusing)."""


class ContentStore(Protocol):
    """Each collection's valid documents, read whole; or ContentUnavailableError."""

    async def fetch(self, collection: Collection) -> list[ContentItem]: ...

    async def close(self) -> None: ...


def log_fetch_error(collection: Collection, error: Exception) -> None:
    # "Error fetching projects: <reason>", as the spec words it.
    prefix = SITE["collections"][collection.value]["fetchError"]
    logging.getLogger("server.content").error("%s %s", prefix, error)


async def set_within(event: asyncio.Event, seconds: float) -> bool:
    """Whether `event` is set within `seconds`; unlike 3.11's `wait_for`, never loses a cancel."""
    try:
        async with asyncio.timeout(seconds):
            await event.wait()
    except TimeoutError:
        return False
    return True


@dataclass(frozen=True)
class Snapshot:
    """A collection as last read. `version` changes whenever its items do."""

    items: tuple[ContentItem, ...]
    version: int
    error: str | None = None  # why the latest read failed, when there is nothing good to show


@dataclass(frozen=True)
class CollectionStatus:
    """What the cache holds for a collection, without reading it (for readiness)."""

    has_content: bool  # a successful read has happened: pages show real content, fresh or stale
    last_error: str | None  # why the latest read failed; None once a read succeeds again
    live: bool = False  # a listener keeps the content current, and nothing put its view in doubt
    unverified: bool = False  # a listener delivered, but past the bound and the probe failed


@dataclass
class _Entry:
    snapshot: Snapshot | None = None
    checked_at: float = float("-inf")
    refresh: asyncio.Task[None] | None = None
    last_error: str | None = None
    live: bool = False  # a listener's snapshot is in, and it has not failed since
    # Unset while a listener is subscribed and has neither delivered nor failed.
    listener_settled: asyncio.Event | None = None
    # When the listener's view was last known to be current: its latest
    # snapshot, or the start of a probe its connection answered.
    verified_at: float = float("-inf")
    # Known to be old (a save), not just aged: visitors wait for the read rather than see it.
    expired: bool = False


class ContentCache:
    """`max_age_seconds=0` reads on every request (sharing reads already in flight)."""

    def __init__(
        self,
        store: ContentStore,
        *,
        max_age_seconds: float,
        clock: Callable[[], float] = time.monotonic,
        first_snapshot_wait_seconds: float = 0.0,
        max_staleness_seconds: float = math.inf,
    ) -> None:
        self._store = store
        self._max_age = max_age_seconds
        self._max_staleness = max_staleness_seconds
        self._first_snapshot_wait = first_snapshot_wait_seconds
        self._clock = clock
        self._entries = {collection: _Entry() for collection in Collection}
        self._versions = itertools.count(1)
        # Told when a read succeeds while no listener is live (the database is back).
        self.on_read_while_not_live: Callable[[Collection], None] | None = None
        # Asks the listeners' connection for an answer (FirestoreContentStore.probe).
        self.probe_connection: Callable[[], Awaitable[None]] | None = None
        self._vouching: asyncio.Task[None] | None = None
        self._probe_tried_at = float("-inf")

    async def get(self, collection: Collection) -> Snapshot:
        entry = self._entries[collection]
        if entry.live and entry.snapshot is not None and not self._vouched(entry):
            # Older than the bound: vouched for first, by a probe its callers share (once
            # per max_age while probes fail: then the listener's view is all there is).
            if self._vouching is None and self._clock() - self._probe_tried_at >= self._max_age:
                current_request.get().content_reads += 1
                self._vouching = asyncio.create_task(self._vouch())
            if self._vouching is not None:
                # shield: one visitor giving up must not cancel the probe the others wait on.
                await asyncio.shield(self._vouching)
        if entry.snapshot is None and entry.listener_settled is not None:
            # Each visitor waits by itself: one giving up ends no other's wait.
            await set_within(entry.listener_settled, self._first_snapshot_wait)
        if entry.live and entry.snapshot is not None:
            return entry.snapshot  # the listener keeps it current
        if self._clock() - entry.checked_at < self._max_age and entry.snapshot is not None:
            return entry.snapshot
        while True:
            if entry.refresh is None:
                # Counted here, not in the task: the task may first run after the
                # response is sent, and the count belongs to this request.
                current_request.get().content_reads += 1
                entry.refresh = asyncio.create_task(self._refresh(collection, entry))
            stale = entry.snapshot
            if stale and stale.error is None and self._max_age > 0 and not entry.expired:
                return stale  # stale while it revalidates
            # Nothing good to show yet: wait for the read in flight. shield: one
            # visitor giving up must not cancel the read the others wait on.
            await asyncio.shield(entry.refresh)
            assert entry.snapshot is not None  # _refresh always leaves one
            if not entry.expired:  # else that read began before the save: one more
                return entry.snapshot

    def _vouched(self, entry: _Entry) -> bool:
        return self._clock() - entry.verified_at <= self._max_staleness

    async def _vouch(self) -> None:
        """Vouch for the listeners' views: their connection answers a probe."""
        started = self._probe_tried_at = self._clock()
        try:
            assert self.probe_connection is not None  # set wherever listeners run
            await self.probe_connection()
        except ContentUnavailableError as error:
            # The bound holds while Firestore answers; now it does not.
            logger.error("The listeners' connection did not answer a probe: %s", error)
        except Exception:
            logger.exception("Unexpected error probing the listeners' connection")
        else:
            # An answer on the connection the listeners use: had anything changed,
            # their streams would have brought it.
            for entry in self._entries.values():
                if entry.live:
                    entry.verified_at = max(entry.verified_at, started)
        finally:
            self._vouching = None

    def listener_started(self, collection: Collection) -> None:
        """A listener was subscribed for the collection; its snapshot is on its way."""
        entry = self._entries[collection]
        if entry.listener_settled is None or entry.listener_settled.is_set():
            entry.listener_settled = asyncio.Event()

    def publish(self, collection: Collection, items: tuple[ContentItem, ...]) -> None:
        """The listener's latest snapshot: the collection's content from now on."""
        entry = self._entries[collection]
        self._put(entry, items)
        entry.live = True
        entry.expired = False
        entry.last_error = None
        entry.checked_at = entry.verified_at = self._clock()
        if entry.listener_settled is not None:
            entry.listener_settled.set()

    def listener_failed(self, collection: Collection, error: str) -> None:
        """The listener stopped: read the collection as without one, until it is back."""
        entry = self._entries[collection]
        if entry.live:
            # The first failure of an outage: read at once. Later failures of
            # the same outage wait for max_age like any read.
            entry.checked_at = float("-inf")
        entry.live = False
        entry.last_error = error
        if entry.listener_settled is not None:
            entry.listener_settled.set()  # whoever waits for it reads instead

    async def _refresh(self, collection: Collection, entry: _Entry) -> None:
        entry.expired = False  # this read starts after the save; a later save sets it again
        try:
            items = tuple(await self._store.fetch(collection))
        except Exception as error:
            if isinstance(error, ContentUnavailableError):
                log_fetch_error(collection, error)
            else:  # a bug in a store must not leave visitors waiting on a dead task
                logger.exception("Unexpected error reading %s", collection.firestore_name)
            if not entry.live:  # else the listener came back meanwhile: its content is good
                entry.last_error = str(error)
            if entry.snapshot is None or entry.snapshot.error is not None:
                entry.snapshot = Snapshot(items=(), version=next(self._versions), error=str(error))
            # Keep serving what we had; try again after the same period.
        else:
            if entry.live:
                return  # the listener published while this read ran: it is newer
            if self.on_read_while_not_live is not None:
                self.on_read_while_not_live(collection)
            entry.last_error = None
            self._put(entry, items)
        finally:
            entry.checked_at = float("-inf") if entry.expired else self._clock()
            entry.refresh = None

    def expire(self, collection: Collection) -> None:
        """The collection changed at its source (the studio saved it): read it on the next get."""
        entry = self._entries[collection]
        entry.checked_at = float("-inf")
        entry.expired = not entry.live  # a listener brings the change itself

    def status(self, collection: Collection) -> CollectionStatus:
        entry = self._entries[collection]
        snapshot = entry.snapshot
        # A view past the bound that no visit has asked for is not in doubt:
        # only a probe that failed since the last vouching puts it there.
        doubted = not self._vouched(entry) and self._probe_tried_at > entry.verified_at
        return CollectionStatus(
            has_content=snapshot is not None and snapshot.error is None,
            last_error=entry.last_error,
            live=entry.live and not doubted,
            unverified=entry.live and doubted,
        )

    def _put(self, entry: _Entry, items: tuple[ContentItem, ...]) -> None:
        previous = entry.snapshot
        if previous is None or previous.error is not None or previous.items != items:
            entry.snapshot = Snapshot(items=items, version=next(self._versions))

    async def close(self) -> None:
        running = [*(entry.refresh for entry in self._entries.values()), self._vouching]
        tasks = [task for task in running if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
