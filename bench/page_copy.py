"""A static copy of pages: each page's HTML and every same-origin file it loads, captured
with Chromium emulating Lighthouse's phone, so the copy holds the image variants and chunks
Lighthouse will ask for (docs/benchmarks.md, "Through the edge")."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urljoin, urlsplit

import brotli
import httpx2 as httpx
from playwright.sync_api import Browser, Response, ViewportSize, sync_playwright

from harness.chromium import CHROMIUM, CHROMIUM_ARGS

# Lighthouse 12's mobile emulation (its default: a Moto G Power).
MOBILE_VIEWPORT: ViewportSize = {"width": 412, "height": 823}
MOBILE_SCALE = 1.75
MOBILE_USER_AGENT = (
    "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/136.0.0.0 Mobile Safari/537.36"
)
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


def same_origin_path(url: str, origin: str) -> str | None:
    """The decoded path of `url` when it is on `origin` (scheme://host:port), else None."""
    parts = urlsplit(url)
    if f"{parts.scheme}://{parts.netloc}" != origin:
        return None
    return unquote(parts.path) or "/"


def capture(app_url: str, routes: Sequence[str]) -> list[StaticFile]:
    """Each route's page and what it loads, from the app at `app_url` (plain HTTP)."""
    found: dict[str, StaticFile] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS)
        )
        for route in routes:
            for item in _load(browser, app_url, route):
                found.setdefault(item.path, item)
    # What a page or its manifest names but this load did not fetch (another width
    # of a photo, the manifest's icons): fetched as an <img> would be, and read in turn.
    todo = [*EXTRA_PATHS, *(path for item in found.values() for path in _named(item, app_url))]
    asked = set(found)
    with httpx.Client(base_url=app_url, timeout=120.0) as client:
        while todo:
            path = todo.pop()
            if path in asked:
                continue
            asked.add(path)
            headers = {"Accept": IMAGE_ACCEPT, "Accept-Encoding": "identity"}
            response = client.get(path, headers=headers)
            if response.status_code == 200:
                found[path] = _static_file(path, response.headers.items(), response.content)
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
            for suffix, packed in (
                (".br", bytes(brotli.compress(item.body, quality=11))),
                (".gz", gzip.compress(item.body, compresslevel=9, mtime=0)),
            ):
                if len(packed) < len(item.body):
                    target.with_name(target.name + suffix).write_bytes(packed)
    # nginx's workers run as `nobody` when the master is root: everything readable.
    for folder in [root, *(path for path in root.rglob("*") if path.is_dir())]:
        folder.chmod(0o755)


def _load(browser: Browser, app_url: str, route: str) -> list[StaticFile]:
    context = browser.new_context(
        viewport=MOBILE_VIEWPORT,
        device_scale_factor=MOBILE_SCALE,
        is_mobile=True,
        has_touch=True,
        user_agent=MOBILE_USER_AGENT,
    )
    try:
        # Offline: other origins (the video iframe) would only time out.
        context.route(
            "**/*",
            lambda r: r.continue_() if same_origin_path(r.request.url, app_url) else r.abort(),
        )
        page = context.new_page()
        responses: list[Response] = []
        page.on("response", lambda response: responses.append(response))
        page.goto(app_url + route, wait_until="networkidle")
        height = int(page.evaluate("document.documentElement.scrollHeight"))
        for top in range(0, height, MOBILE_VIEWPORT["height"] // 2):
            page.evaluate(f"window.scrollTo(0, {top})")
            page.wait_for_timeout(50)
        page.set_viewport_size({"width": MOBILE_VIEWPORT["width"], "height": max(height, 823)})
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(500)
        return [
            _static_file(path, response.headers.items(), response.body())
            for response in responses
            if response.status == 200
            and (path := same_origin_path(response.url, app_url)) is not None
        ]
    finally:
        context.close()


def _static_file(path: str, headers: Iterable[tuple[str, str]], body: bytes) -> StaticFile:
    lowered = {name.lower(): value for name, value in headers}
    return StaticFile(
        path=path,
        content_type=lowered.get("content-type", "application/octet-stream"),
        headers={name: lowered[name] for name in KEPT_HEADERS if name in lowered},
        body=body,
    )


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
    paths = (same_origin_path(urljoin(app_url + item.path, url), app_url) for url in urls)
    return [path for path in paths if path is not None]


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
        if (
            tag == "link"
            and values.get("href")
            and _LOADED_LINKS & set(values.get("rel", "").lower().split())
        ):
            self.urls.append(values["href"])
