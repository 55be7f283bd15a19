"""Finished variants (and fetched photos) on disk, least recently used out past a bound. Recency is
each file's mtime, so it survives a restart. Blocking: call from a worker thread. Processes sharing
a folder may together exceed the bound a while."""

from __future__ import annotations

import contextlib
import os
import re
import threading
import time
import uuid
from collections import OrderedDict
from pathlib import Path

# Only files of this suffix are the cache's: a folder set by mistake to one
# holding other files loses none of them.
SUFFIX = ".cached"
_KEY = re.compile(r"[A-Za-z0-9_.-]{1,200}")
_STALE_TEMPORARY_NS = 3600 * 10**9


class DiskCache:
    def __init__(self, directory: Path, *, max_bytes: int) -> None:
        self._dir = directory
        self._max_bytes = max_bytes
        self._lock = threading.Lock()
        # File name -> size, least recently used first.
        self._sizes: OrderedDict[str, int] = OrderedDict()
        self.total_bytes = 0
        directory.mkdir(parents=True, exist_ok=True)
        found: list[tuple[int, str, int]] = []
        stale_before = time.time_ns() - _STALE_TEMPORARY_NS
        for entry in os.scandir(directory):
            if entry.name.startswith(".") and entry.name.endswith(".tmp"):
                # Left by a crash mid-write (a recent one may be another process's).
                with contextlib.suppress(OSError):
                    if entry.stat().st_mtime_ns < stale_before:
                        os.unlink(entry.path)
            elif entry.name.endswith(SUFFIX) and entry.is_file():
                stat = entry.stat()
                found.append((stat.st_mtime_ns, entry.name, stat.st_size))
        for _mtime, name, size in sorted(found):
            self._sizes[name] = size
            self.total_bytes += size
        self._evict()

    def get(self, key: str) -> bytes | None:
        path = self._path(key)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            # Evicted by another process, or removed by hand.
            with self._lock:
                self.total_bytes -= self._sizes.pop(path.name, 0)
            return None
        with self._lock:
            if path.name in self._sizes:
                self._sizes.move_to_end(path.name)
        with contextlib.suppress(OSError):
            os.utime(path)
        return data

    def put(self, key: str, data: bytes) -> None:
        if len(data) > self._max_bytes:
            return
        path = self._path(key)
        # Written aside, then renamed: a reader never sees half a file.
        temporary = path.with_name(f".{uuid.uuid4().hex}.tmp")
        try:
            temporary.write_bytes(data)
            os.replace(temporary, path)
        except OSError:
            # A full disk or a vanished folder costs the cache, never the response.
            with contextlib.suppress(OSError):
                temporary.unlink()
            return
        with self._lock:
            self.total_bytes += len(data) - self._sizes.pop(path.name, 0)
            self._sizes[path.name] = len(data)
        self._evict()

    def _path(self, key: str) -> Path:
        if not _KEY.fullmatch(key):
            raise ValueError(f"unusable cache key {key!r}")
        return self._dir / (key + SUFFIX)

    def _evict(self) -> None:
        victims: list[str] = []
        with self._lock:
            while self.total_bytes > self._max_bytes and self._sizes:
                name, size = self._sizes.popitem(last=False)
                self.total_bytes -= size
                victims.append(name)
        for name in victims:
            with contextlib.suppress(FileNotFoundError):
                (self._dir / name).unlink()
