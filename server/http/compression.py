"""Content negotiation, and producing a Content-Encoding: brotli first, then gzip."""

from __future__ import annotations

import gzip
import re
from collections.abc import Mapping

import brotli

ENCODINGS = ("br", "gzip")
MIN_COMPRESS_BYTES = 512  # files this small gain nothing from compression
_REFUSED = re.compile(r"q\s*=\s*0(\.0*)?")


def accepted(header: str) -> dict[str, bool]:
    """Each name an Accept or Accept-Encoding header lists, and whether it takes it (not q=0)."""
    names: dict[str, bool] = {}
    for part in header.lower().split(","):
        name, *params = (piece.strip() for piece in part.split(";"))
        names[name] = not any(_REFUSED.fullmatch(param) for param in params)
    return names


def preferred_encoding(headers: Mapping[str, str]) -> str | None:
    """The best encoding a request's Accept-Encoding takes, or None for identity."""
    names = accepted(headers.get("accept-encoding", ""))
    return next((name for name in ENCODINGS if names.get(name, names.get("*", False))), None)


# Brotli's best quality (11) is slow on large pages (a list of a thousand cards, and each
# card's page as large), and a page made for one answer (a form with what was typed) is not
# kept: at quality 5 it is a tenth larger, in a fortieth of the time (2 ms, not 90).
BROTLI_BEST_MAX_BYTES = 256 * 1024
BROTLI_FAST_QUALITY = 5


def encoded(
    body: bytes, encoding: str | None, kept: dict[str, bytes] | None = None
) -> tuple[bytes, str | None]:
    """`body` in `encoding`, or as it is (None) when too small to gain; the copy made is
    kept in `kept` (a cached page's copies) and taken from there next time. A body made for
    one response only is compressed the quicker way."""
    if encoding is None or len(body) < MIN_COMPRESS_BYTES:
        return body, None
    if kept is not None and encoding in kept:
        return kept[encoding], encoding
    if encoding == "br":
        best = kept is not None and len(body) <= BROTLI_BEST_MAX_BYTES
        copy = bytes(brotli.compress(body, quality=11 if best else BROTLI_FAST_QUALITY))
    else:
        # mtime=0: the same input gives the same bytes, so ETags stay stable.
        copy = gzip.compress(body, compresslevel=9, mtime=0)
    if kept is not None:
        kept[encoding] = copy
    return copy, encoding
