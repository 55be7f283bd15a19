"""Keep the content cache current from Firestore listeners: one per collection, per worker."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

import anyio

from server.content.cache import ContentCache, log_fetch_error, set_within
from server.content.listener import ListenedDocument, OnDocuments, OnStopped
from server.content.models import Collection, ContentItem, parse_document, site_order
from server.content.photo_policy import PhotoUrlPolicy

logger = logging.getLogger(__name__)


class Listener(Protocol):
    def close(self) -> None: ...


class ListeningStore(Protocol):
    """A store that can listen (FirestoreContentStore)."""

    @property
    def photo_urls(self) -> PhotoUrlPolicy: ...

    async def probe(self) -> None: ...

    def listen(
        self, collection: Collection, *, on_documents: OnDocuments, on_stopped: OnStopped
    ) -> Listener: ...


@dataclass(frozen=True)
class Backoff:
    """Seconds between a listener's failure and the next subscription."""

    first: float = 1.0
    longest: float = 60.0

    def delay(self, failures: int) -> float:
        # Jitter, so the workers of every instance do not all come back at once.
        ceiling = min(self.longest, self.first * 2 ** max(0, failures - 1))
        return random.uniform(ceiling / 2, ceiling)  # noqa: S311 - not for cryptography


class LiveContent:
    """A supervisor per collection. `start()` on the event loop; `close()` ends every listener."""

    def __init__(
        self, store: ListeningStore, cache: ContentCache, *, backoff: Backoff = Backoff()
    ) -> None:
        self._backoff = backoff
        self._feeds = {collection: _Feed(collection, store, cache) for collection in Collection}
        self._tasks: list[asyncio.Task[None]] = []
        cache.on_read_while_not_live = lambda collection: self._feeds[collection].database_answers()
        cache.probe_connection = store.probe

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [
            asyncio.create_task(feed.supervise(loop, self._backoff), name=f"listen {feed.name}")
            for feed in self._feeds.values()
        ]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        # The listeners' closes block (each joins its thread): at once, off the loop, all of
        # them waited for even when one fails.
        async with anyio.create_task_group() as group:
            for feed in self._feeds.values():
                group.start_soon(feed.close_listener)


class _Feed:
    """One collection's listener, its last documents, and why it stopped."""

    def __init__(self, collection: Collection, store: ListeningStore, cache: ContentCache) -> None:
        self._collection = collection
        self.name = collection.firestore_name
        self._store = store
        self._cache = cache
        self._listener: Listener | None = None
        self._delivered = False
        # A read succeeded while the listener was down: worth one try at once.
        self._database_back = asyncio.Event()
        self._early_try_left = True
        # Each document's last version and what it parsed to (None: skipped),
        # so an unchanged document is not validated (nor warned about) again.
        self._parsed: dict[str, tuple[datetime | None, ContentItem | None]] = {}

    async def supervise(self, loop: asyncio.AbstractEventLoop, backoff: Backoff) -> None:
        failures = 0
        while True:
            # Every listener that ends says why (on_stopped), unless we closed it.
            reason = await self._subscribe(loop)
            log_fetch_error(self._collection, RuntimeError(f"{self.name}: {reason}"))
            self._cache.listener_failed(self._collection, reason)
            await self.close_listener()
            if self._delivered:
                failures, self._early_try_left = 1, True
            else:
                failures += 1
            waited = loop.time()
            # Not cleared before the wait: a read may succeed while the failed
            # listener is being closed, and that news must not be lost.
            if await set_within(self._database_back, backoff.delay(failures)):
                self._database_back.clear()
                # Once per outage: a listener that fails again waits its backoff.
                self._early_try_left = False
                await asyncio.sleep(max(0.0, backoff.first / 2 - (loop.time() - waited)))

    def database_answers(self) -> None:
        if self._early_try_left:
            self._database_back.set()

    def _subscribe(self, loop: asyncio.AbstractEventLoop) -> asyncio.Future[str]:
        """A new listener; the future is why it stopped. One per listener, done before the
        next is made: a late call from an old listener's thread finds it done, and is ignored."""
        stopped: asyncio.Future[str] = loop.create_future()
        self._delivered = False
        self._parsed = {}
        self._cache.listener_started(self._collection)

        def on_documents(documents: Sequence[ListenedDocument]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: shutting down
                loop.call_soon_threadsafe(self._deliver, stopped, documents)

        def on_stopped(reason: str) -> None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._stop, stopped, reason)

        try:
            self._listener = self._store.listen(
                self._collection, on_documents=on_documents, on_stopped=on_stopped
            )
        except Exception as error:  # no listener at all: as a stopped one
            self._listener = None
            self._stop(stopped, f"listener not started: {error}")
        return stopped

    def _stop(self, stopped: asyncio.Future[str], reason: str) -> None:
        if not stopped.done():
            stopped.set_result(reason)

    def _deliver(self, stopped: asyncio.Future[str], documents: Sequence[ListenedDocument]) -> None:
        if stopped.done():
            return  # from a listener already given up on
        parsed: dict[str, tuple[datetime | None, ContentItem | None]] = {}
        for document in sorted(documents, key=lambda each: site_order(each.fields)):
            known = self._parsed.get(document.id)
            if known is None or known[0] != document.update_time:
                item = parse_document(
                    self._collection, document.id, document.fields, self._store.photo_urls
                )
                known = (document.update_time, item)
            parsed[document.id] = known
        self._parsed = parsed
        self._cache.publish(self._collection, tuple(i for _, i in parsed.values() if i is not None))
        # One line per snapshot (edits are rare); `worker` tells the processes apart.
        logger.info(
            "%s %s: %d documents",
            "Change in" if self._delivered else "Listening to",
            self.name,
            len(documents),
            extra={"worker": os.getpid(), "collection": self.name},
        )
        self._delivered = True

    async def close_listener(self) -> None:
        listener = self._listener
        if listener is None:
            return
        # Shielded: a server stopping mid-close must not leave the listener open.
        with anyio.CancelScope(shield=True):
            await anyio.to_thread.run_sync(listener.close)
        if self._listener is listener:
            self._listener = None
