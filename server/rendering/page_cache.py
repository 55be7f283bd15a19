"""Rendered pages kept in memory while what each was made from is unchanged: at most
`max_bytes` (HTML_CACHE_MB), the compressed copies made of them since included, least
recently used out."""

from __future__ import annotations

import base64
import hashlib
from collections import OrderedDict
from dataclasses import dataclass, field


@dataclass(frozen=True)
class RenderedPage:
    html: bytes
    etag: str
    # The page's HTML in each encoding asked for so far (server/http/compression.py).
    copies: dict[str, bytes] = field(default_factory=dict, compare=False)

    @classmethod
    def from_html(cls, html: str) -> RenderedPage:
        body = html.encode("utf-8")
        tag = base64.urlsafe_b64encode(hashlib.sha256(body).digest()[:16]).decode().rstrip("=")
        return cls(html=body, etag=f'"{tag}"')

    @property
    def size_bytes(self) -> int:
        return len(self.html) + sum(len(body) for body in self.copies.values())


class RenderedPageCache:
    def __init__(self, *, max_bytes: int) -> None:
        self._max_bytes = max_bytes
        # Path -> (what the page was made from, the page), least recently used first.
        self._entries: OrderedDict[str, tuple[object, RenderedPage]] = OrderedDict()

    def get(self, path: str, made_from: object) -> RenderedPage | None:
        entry_made_from, page = self._entries.get(path, (None, None))
        if page is None or entry_made_from != made_from:
            return None
        self._entries.move_to_end(path)
        return page

    def put(self, path: str, made_from: object, page: RenderedPage) -> None:
        self._entries.pop(path, None)
        if page.size_bytes > self._max_bytes:
            return
        self._entries[path] = (made_from, page)
        # Copies made since the last put count now; the page just made stays.
        while self.size_bytes > self._max_bytes and next(iter(self._entries)) != path:
            self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def size_bytes(self) -> int:
        return sum(page.size_bytes for _made_from, page in self._entries.values())
