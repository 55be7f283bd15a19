"""Rendered pages kept in memory while what each was made from is unchanged: at most
`max_bytes` (HTML_CACHE_MB), compressed copies included, least recently used out."""

from __future__ import annotations

import base64
import hashlib
from collections import OrderedDict
from dataclasses import dataclass, field

from server.compression import compress, encoding_for


@dataclass(frozen=True)
class RenderedPage:
    html: bytes
    etag: str

    @classmethod
    def from_html(cls, html: str) -> RenderedPage:
        body = html.encode("utf-8")
        digest = hashlib.sha256(body).digest()[:16]
        return cls(
            html=body, etag='"' + base64.urlsafe_b64encode(digest).decode().rstrip("=") + '"'
        )


@dataclass
class _Entry:
    made_from: object
    page: RenderedPage
    # The page's HTML in each encoding asked for so far.
    copies: dict[str, bytes] = field(default_factory=dict)

    @property
    def size_bytes(self) -> int:
        return len(self.page.html) + sum(len(body) for body in self.copies.values())


class RenderedPageCache:
    def __init__(self, *, max_bytes: int) -> None:
        self._max_bytes = max_bytes
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._bytes = 0

    def get(self, path: str, made_from: object) -> RenderedPage | None:
        """The page at `path` if it was made from `made_from`, else None."""
        entry = self._entries.get(path)
        if entry is None or entry.made_from != made_from:
            return None
        self._entries.move_to_end(path)
        return entry.page

    def put(self, path: str, made_from: object, page: RenderedPage) -> None:
        self._forget(path)
        entry = _Entry(made_from, page)
        if entry.size_bytes > self._max_bytes:
            return
        self._entries[path] = entry
        self._bytes += entry.size_bytes
        self._shrink(keep=path)

    def encoded(
        self, path: str, page: RenderedPage, encoding: str | None
    ) -> tuple[bytes, str | None]:
        """The page's HTML in `encoding` (None: as it is), and the encoding it is in. A kept
        page's copy is kept with it; any other page is compressed each time."""
        encoding = encoding_for(page.html, encoding)
        if encoding is None:
            return page.html, None
        entry = self._entries.get(path)
        if entry is None or entry.page is not page:
            return compress(page.html, encoding), encoding
        copy = entry.copies.get(encoding)
        if copy is None:
            copy = entry.copies[encoding] = compress(page.html, encoding)
            self._bytes += len(copy)
            self._shrink(keep=path)
        return copy, encoding

    def _shrink(self, *, keep: str) -> None:
        # The page just asked for stays, even alone past the bound: it is in use.
        while self._bytes > self._max_bytes:
            oldest = next(iter(self._entries))
            if oldest == keep:
                break
            self._forget(oldest)

    def _forget(self, path: str) -> None:
        entry = self._entries.pop(path, None)
        if entry is not None:
            self._bytes -= entry.size_bytes

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def size_bytes(self) -> int:
        return self._bytes
