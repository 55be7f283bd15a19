"""Which photoUrl values the site will put in an <img src>. Accepted: an https: URL with a host
(http: too in development), or a path /images/... to a file of the local content's image folder.
Everything else (javascript:, data:, //host, credentials in the URL, paths that climb out of the
image folder) is refused, with the reason."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

LOCAL_IMAGES_PREFIX = "/images/"
# Spaces, controls and backslashes have no place in a photo URL; browsers
# "repair" them in ways that open tricks (\\host, java\tscript:).
_FORBIDDEN_CHARACTERS = re.compile(r"[\x00-\x20\x7f\\]")


@dataclass(frozen=True, kw_only=True)
class PhotoUrlPolicy:
    allow_http: bool = False
    images_dir: Path | None = None  # where /images/ paths must point; None: any

    def problem(self, url: str) -> str | None:
        """Why `url` is refused, or None when it is acceptable."""
        if _FORBIDDEN_CHARACTERS.search(url):
            return "contains spaces, control characters or backslashes"
        if url.startswith(LOCAL_IMAGES_PREFIX):
            return self._local_problem(url)
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme == "http" and not self.allow_http:
            return "http: images are only allowed in development; use https:"
        if scheme not in ("https", "http"):
            return "must be an https: URL or a path under /images/"
        if not parts.hostname or "@" in parts.netloc:
            return "must name a host, without credentials"
        return None

    def _local_problem(self, url: str) -> str | None:
        # A query (?v=2, to defeat caches) is harmless: the server ignores it.
        path = unquote(urlsplit(url).path)
        relative = path.removeprefix(LOCAL_IMAGES_PREFIX)
        if posixpath.normpath(path) != path or ".." in relative.split("/") or "%" in relative:
            return "a local image path must not climb out of /images/"
        if self.images_dir is not None:
            root = self.images_dir.resolve()
            file = (root / relative).resolve()
            if not file.is_relative_to(root) or not file.is_file():
                return f"no image {relative!r} in the local image folder"
        return None
