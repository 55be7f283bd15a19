"""How many collection reads the current request started, for its access-log line.

The count lives in a context variable, so it follows the request into the
tasks it spawns (asyncio copies the context into each new task) and never
mixes two requests. No HTTP in here: the HTTP layer opens a count per request
and reads it at the end; the content cache adds to it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass
class ReadCount:
    reads: int = 0


_current: ContextVar[ReadCount | None] = ContextVar("content_reads", default=None)


@contextmanager
def counting_reads() -> Iterator[ReadCount]:
    """A fresh count for the code run inside, e.g. one HTTP request."""
    count = ReadCount()
    token = _current.set(count)
    try:
        yield count
    finally:
        _current.reset(token)


def record_read() -> None:
    """One collection read (or probe) started; outside a count (start-up, tests) not counted."""
    count = _current.get()
    if count is not None:
        count.reads += 1
