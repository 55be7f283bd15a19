"""Where a photo's bytes come from: a file of the local content, or an https URL
on an allowed host, fetched with limits. Each refusal says why, for the log.
"""

from __future__ import annotations

import base64
import hashlib
import os
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import anyio
import httpx2 as httpx

from server.content.photo_policy import LOCAL_IMAGES_PREFIX, PhotoUrlPolicy

_MAX_REDIRECTS = 3


class SourceRefused(Exception):
    """The photo's bytes cannot be had, or must not be fetched."""


def version_of(data: bytes) -> str:
    """12 URL-safe characters naming `data`: the version in the route's URLs."""
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()[:9]).decode()


class LocalPhotos:
    """Files of the local content's image folder, named by their path under it."""

    def __init__(self, images_dir: Path, *, max_bytes: int) -> None:
        self.folder = images_dir
        self._policy = PhotoUrlPolicy(images_dir=images_dir)
        self._max_bytes = max_bytes
        # Each file's version and the (size, mtime, inode) it was read at: a file
        # is hashed again only when it changes.
        self._versions: dict[str, tuple[tuple[int, int, int], str]] = {}

    def problem(self, relative: str) -> str | None:
        """Why there is no such photo, or None. (A stat: cheap enough for the event loop.)"""
        return self._policy.problem(LOCAL_IMAGES_PREFIX + relative)

    def read(self, relative: str) -> tuple[bytes, str]:
        """The file's bytes and version. Blocking: call from a worker thread."""
        path, stat = self._stat(relative)
        if stat.st_size > self._max_bytes:
            raise SourceRefused(f"{stat.st_size} bytes is over {self._max_bytes}")
        try:
            data = path.read_bytes()
        except OSError as error:
            raise SourceRefused(f"cannot read {relative!r}: {error.strerror}") from None
        version = version_of(data)
        self._versions[relative] = (_identity(stat), version)
        return data, version

    def version(self, relative: str) -> str:
        """The file's current version. Blocking, but only reads a changed file."""
        known = self._versions.get(relative)
        if known is not None and known[0] == _identity(self._stat(relative)[1]):
            return known[1]
        return self.read(relative)[1]

    def _stat(self, relative: str) -> tuple[Path, os.stat_result]:
        # The same rule as the content's photoUrl: no way out of the folder.
        problem = self.problem(relative)
        if problem is not None:
            raise SourceRefused(problem)
        path = self.folder / relative
        try:
            return path, path.stat()
        except OSError as error:
            raise SourceRefused(f"cannot read {relative!r}: {error.strerror}") from None


def _identity(stat: os.stat_result) -> tuple[int, int, int]:
    return stat.st_size, stat.st_mtime_ns, stat.st_ino


class RemotePhotos:
    """Photos fetched from the allowed hosts (IMAGE_HOSTS), and nowhere else."""

    def __init__(
        self, *, hosts: Iterable[str], allow_http: bool, max_bytes: int, timeout_seconds: float
    ) -> None:
        self._hosts = frozenset(host.lower() for host in hosts)
        self._policy = PhotoUrlPolicy(allow_http=allow_http)
        self._max_bytes = max_bytes
        # For the whole fetch, redirects and a slow trickle of bytes included.
        self._timeout_seconds = timeout_seconds
        self._client = httpx.AsyncClient(
            follow_redirects=False,  # each hop is checked against the hosts first
            timeout=timeout_seconds,
            trust_env=False,  # no proxies or .netrc credentials from the environment
            headers={"Accept": "image/avif,image/webp,image/jpeg,image/png,image/gif"},
        )

    def problem(self, url: str) -> str | None:
        """Why `url` must not be fetched, or None."""
        host = (urlsplit(url).hostname or "").lower()
        problem = self._policy.problem(url)
        if problem is None and host not in self._hosts:
            return f"host {host!r} is not in IMAGE_HOSTS"
        return problem

    async def fetch(self, url: str) -> bytes:
        try:
            with anyio.fail_after(self._timeout_seconds):
                for _hop in range(_MAX_REDIRECTS + 1):
                    problem = self.problem(url)
                    if problem is not None:
                        raise SourceRefused(problem)
                    location = await self._get(url)
                    if isinstance(location, bytes):
                        return location
                    url = location
        except TimeoutError:
            raise SourceRefused(f"no answer within {self._timeout_seconds} s") from None
        except httpx.HTTPError as error:
            raise SourceRefused(f"fetch failed: {error!r}") from None
        raise SourceRefused(f"more than {_MAX_REDIRECTS} redirects")

    async def _get(self, url: str) -> bytes | str:
        """The body, or where a redirect points."""
        async with self._client.stream("GET", url) as response:
            if response.has_redirect_location:
                return urljoin(url, response.headers["location"])
            if response.status_code != 200:
                raise SourceRefused(f"answered HTTP {response.status_code}")
            content_type = response.headers.get("content-type", "").split(";")[0].strip()
            if content_type.startswith("text/") or "svg" in content_type:
                raise SourceRefused(f"served as {content_type}, not a raster image")
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > self._max_bytes:
                raise SourceRefused(f"{declared} bytes is over {self._max_bytes}")
            body = bytearray()
            async for chunk in response.aiter_bytes():
                body += chunk
                if len(body) > self._max_bytes:
                    raise SourceRefused(f"more than {self._max_bytes} bytes")
            return bytes(body)

    async def aclose(self) -> None:
        await self._client.aclose()
