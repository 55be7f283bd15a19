"""Rendered pages kept in memory, each with what it was made from.

A page is served from here while what it was made from (content versions,
photo keys) is unchanged. Every project and collabration has a page of its
own, so the cache holds at most `max_bytes` (HTML_CACHE_MB): past that, the
page asked for least recently goes first (an LRU), and thousands of items
cannot grow a worker without bound. A page's compressed copies, which the HTTP
layer adds as they are asked for, count too: each page is measured again when
it is next asked for.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

from server.settings import Settings

if TYPE_CHECKING:
    from server.rendering.page_renderer import RenderedPage

# Per worker process. An item page is the whole list page behind its modal, so
# how many fit depends on the number of cards: docs/architecture.md has the
# figures, scripts/item_pages_memory.py measures them.
DEFAULT_MAX_BYTES = int(Settings.html_cache_mb * 1024 * 1024)


class RenderedPageCache:
    def __init__(self, *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self._max_bytes = max_bytes
        # path -> (what the page was made from, the page, its bytes as last counted)
        self._pages: OrderedDict[str, tuple[object, RenderedPage, int]] = OrderedDict()
        self._bytes = 0

    def get(self, path: str, made_from: object) -> RenderedPage | None:
        """The page at `path` if it was made from `made_from`, else None."""
        entry = self._pages.get(path)
        if entry is None or entry[0] != made_from:
            return None
        self._pages.move_to_end(path)
        page, counted = entry[1], entry[2]
        size = page.size_bytes
        if size != counted:  # compressed copies were added since
            self._pages[path] = (made_from, page, size)
            self._bytes += size - counted
            self._shrink(keep=path)
        return page

    def put(self, path: str, made_from: object, page: RenderedPage) -> None:
        self._forget(path)
        size = page.size_bytes
        if size > self._max_bytes:
            return
        self._pages[path] = (made_from, page, size)
        self._bytes += size
        self._shrink(keep=path)

    def _shrink(self, *, keep: str) -> None:
        # The page just asked for stays, even alone past the bound: it is in use.
        while self._bytes > self._max_bytes:
            oldest = next(iter(self._pages))
            if oldest == keep:
                break
            self._forget(oldest)

    def _forget(self, path: str) -> None:
        entry = self._pages.pop(path, None)
        if entry is not None:
            self._bytes -= entry[2]

    def pages(self) -> list[RenderedPage]:
        """The pages kept, for measuring."""
        return [page for _, page, _ in self._pages.values()]

    def __len__(self) -> int:
        return len(self._pages)

    @property
    def size_bytes(self) -> int:
        return self._bytes
