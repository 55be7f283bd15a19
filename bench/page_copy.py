"""A static copy of pages: each page's HTML, every file the build wrote, and every file the
pages name, as the app serves them (docs/benchmarks.md, "Through the edge")."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urljoin, urlsplit

import httpx2 as httpx

from build import CLIENT_DIR, compressed
from server.rendering.manifest import ASSETS_URL

# What Chromium sends for an <img>: the image route answers AVIF or WebP to it.
IMAGE_ACCEPT = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
# Response headers a browser acts on; the copy sends them as the app did.
KEPT_HEADERS = (
    "cache-control",
    "content-security-policy",
    "cross-origin-opener-policy",
    "permissions-policy",
    "referrer-policy",
    "strict-transport-security",
    "x-content-type-options",
)
_COMPRESSIBLE = re.compile(
    r"^(text/|application/(javascript|json|manifest\+json|xml)|image/(svg\+xml|x-icon|"
    r"vnd\.microsoft\.icon))"
)
# <link rel> values whose href the page loads (not canonical, alternate, ...).
_LOADED_LINKS = {"stylesheet", "preload", "modulepreload", "icon", "apple-touch-icon", "manifest"}
# Asked for by Lighthouse itself (the SEO category reads robots.txt) or the browser.
EXTRA_PATHS = ("/robots.txt", "/favicon.ico")


@dataclass(frozen=True, kw_only=True)
class StaticFile:
    """One response of the app, kept as a file of the static copy."""

    path: str  # decoded URL path, as nginx matches it: "/assets/entry-X.js"
    content_type: str
    headers: dict[str, str]  # those of KEPT_HEADERS the app sent
    body: bytes

    @property
    def file(self) -> str:
        """Where the copy keeps it, relative to its root: pages as <path>/index.html."""
        parts = [part for part in PurePosixPath(self.path).parts if part != "/"]
        if ".." in parts:
            raise ValueError(f"not a plain URL path: {self.path!r}")
        if self.content_type.startswith("text/html") or not parts:
            parts.append("index.html")
        return "/".join(parts)


def capture(app_url: str, routes: Sequence[str]) -> list[StaticFile]:
    """Each route's page, the build's files (the chunks a page imports on demand among them),
    and what a page or the manifest names (every width of a photo, the icons), read in turn,
    from the app at `app_url` (plain HTTP)."""
    built = [path for path in CLIENT_DIR.rglob("*") if path.suffix not in {"", ".br", ".gz"}]
    todo = [*routes, *EXTRA_PATHS, *(ASSETS_URL + str(p.relative_to(CLIENT_DIR)) for p in built)]
    found: dict[str, StaticFile] = {}
    asked = set()
    headers = {"Accept": IMAGE_ACCEPT, "Accept-Encoding": "identity"}
    with httpx.Client(base_url=app_url, headers=headers, timeout=120.0) as client:
        while todo:
            path = todo.pop()
            if path in asked:
                continue
            asked.add(path)
            response = client.get(path)
            if response.status_code == 200:
                found[path] = StaticFile(
                    path=path,
                    content_type=response.headers.get("content-type", "application/octet-stream"),
                    headers={k: v for k, v in response.headers.items() if k in KEPT_HEADERS},
                    body=response.content,
                )
                todo += _named(found[path], app_url)
    return list(found.values())


def write_copy(files: Iterable[StaticFile], root: Path) -> None:
    """Write the files under `root`, each text file with a .br and .gz beside it."""
    root.mkdir(exist_ok=True)
    for item in files:
        target = root / item.file
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(item.body)
        if _COMPRESSIBLE.match(item.content_type):
            for suffix, packed in compressed(item.body).items():
                if len(packed) < len(item.body):
                    target.with_name(target.name + suffix).write_bytes(packed)


def _named(item: StaticFile, app_url: str) -> list[str]:
    """The app's paths an HTML page (every src and srcset, and <link> href) or a manifest
    names."""
    text = item.body.decode("utf-8", "replace")
    urls: list[str] = []
    if item.content_type.startswith("text/html"):
        parser = _LinkParser()
        parser.feed(text)
        urls = parser.urls
    elif item.content_type.startswith("application/manifest+json"):
        urls = [str(icon["src"]) for icon in json.loads(text).get("icons", [])]
    # Each URL's decoded path, as nginx matches it, where it is on the app's origin.
    parts = [urlsplit(urljoin(app_url + item.path, url)) for url in urls]
    return [unquote(p.path) or "/" for p in parts if f"{p.scheme}://{p.netloc}" == app_url]


class _LinkParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "iframe":
            return  # a document of its own, not part of this page's load
        if values.get("src"):
            self.urls.append(values["src"])
        # Every width of a responsive photo ("a.jpg 320w, b.jpg 640w"): which one a
        # browser takes depends on its screen.
        for name in ("srcset", "imagesrcset"):
            self.urls.extend(
                url.split()[0] for url in values.get(name, "").split(",") if url.strip()
            )
        loaded = _LOADED_LINKS & set(values.get("rel", "").lower().split())
        if tag == "link" and values.get("href") and loaded:
            self.urls.append(values["href"])
