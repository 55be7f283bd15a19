"""Choosing and producing a Content-Encoding: brotli first, then gzip."""

from __future__ import annotations

import gzip
from collections.abc import Mapping

import brotli

ENCODINGS = ("br", "gzip")
# Files this small gain nothing from compression.
MIN_COMPRESS_BYTES = 512


def preferred_encoding(headers: Mapping[str, str]) -> str | None:
    """The best encoding a request's Accept-Encoding takes (ignoring q=0), or None for identity."""
    accepted: dict[str, float] = {}
    for part in headers.get("accept-encoding", "").split(","):
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


# Brotli's best quality is slow on large pages (a list of a thousand cards,
# and each card's page as large): above this, quality 5, nearly as small.
BROTLI_BEST_MAX_BYTES = 256 * 1024


def compress(body: bytes, encoding: str) -> bytes:
    if encoding == "br":
        quality = 11 if len(body) <= BROTLI_BEST_MAX_BYTES else 5
        return bytes(brotli.compress(body, quality=quality))
    if encoding == "gzip":
        # mtime=0: the same input gives the same bytes, so ETags stay stable.
        return gzip.compress(body, compresslevel=9, mtime=0)
    raise ValueError(f"unknown encoding {encoding!r}")
