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


def compress(body: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return bytes(brotli.compress(body, quality=11))
    if encoding == "gzip":
        # mtime=0: the same input gives the same bytes, so ETags stay stable.
        return gzip.compress(body, compresslevel=9, mtime=0)
    raise ValueError(f"unknown encoding {encoding!r}")
