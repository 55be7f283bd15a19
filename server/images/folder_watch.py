"""Tells when a folder's files change, without looking at them on each request.

The photo keys of a page depend on the bytes of its local photos. Rather than
a stat per photo per request, the image folder is watched (inotify, through
watchfiles): `generation` goes up on every change, and whatever was worked out
from the files stays true while it stays the same.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import suppress
from pathlib import Path

from watchfiles import awatch

logger = logging.getLogger(__name__)

# Changes are reported this long after the last one of a burst (watchfiles' `step`).
REPORT_AFTER_MS = 20
# How often the watching thread wakes when nothing changes.
WAKE_MS = 1000


class FolderWatch:
    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._generation = 0
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        # True while changes are being watched; a memo keyed on `generation` is
        # only safe then.
        self.active = False

    @property
    def generation(self) -> int:
        return self._generation

    def start(self) -> None:
        """Watch from now on, in a task; `active` once the watch is known to be set."""
        self._task = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        if not self._folder.is_dir():
            logger.info("Not watching %s: no such folder", self._folder)
            return
        try:
            # yield_on_timeout: an empty answer every WAKE_MS, the first of which
            # proves the watch is set, so no change before it can be missed.
            async for changed in awatch(
                self._folder,
                watch_filter=None,
                step=REPORT_AFTER_MS,
                stop_event=self._stop,
                rust_timeout=WAKE_MS,
                yield_on_timeout=True,
            ):
                if changed:
                    self._generation += 1
                self.active = True
        except Exception:
            logger.exception("Watching %s failed; photos are checked on each request", self._folder)
        finally:
            self.active = False

    async def close(self) -> None:
        self._stop.set()
        if self._task is not None:
            with suppress(asyncio.CancelledError):
                await self._task
