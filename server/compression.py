"""Choosing and producing a Content-Encoding: brotli first, then gzip."""

from __future__ import annotations

import gzip

import brotli

ENCODINGS = ("br", "gzip")
# Files this small gain nothing from compression.
MIN_COMPRESS_BYTES = 512


def preferred_encoding(accept_encoding: str) -> str | None:
    """The best encoding the client accepts (ignoring q=0), or None for identity."""
    accepted: dict[str, float] = {}
    for part in accept_encoding.split(","):
        name, _, params = part.strip().partition(";")
        quality = 1.0
        key, _, value = params.strip().partition("=")
        if key.strip() == "q":
            try:
                quality = float(value)
            except ValueError:
                quality = 0.0
        accepted[name.strip().lower()] = quality
    for encoding in ENCODINGS:
        quality = accepted.get(encoding, accepted.get("*", 0.0))
        if quality > 0:
            return encoding
    return None


# Brotli's best quality takes about a second per MB: right for the site's
# pages (tens of KB, compressed once per content version), wrong for a list of
# a thousand cards, whose every card's page (/projects/{id}) is as large.
# Above this, quality 5: nearly as small, a hundred times faster.
BROTLI_BEST_MAX_BYTES = 256 * 1024


def compress(body: bytes, encoding: str) -> bytes:
    if encoding == "br":
        quality = 11 if len(body) <= BROTLI_BEST_MAX_BYTES else 5
        return bytes(brotli.compress(body, quality=quality))
    if encoding == "gzip":
        # mtime=0: the same input gives the same bytes, so ETags stay stable.
        return gzip.compress(body, compresslevel=9, mtime=0)
    raise ValueError(f"unknown encoding {encoding!r}")
