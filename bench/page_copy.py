"""A static copy of pages: each page's HTML and every same-origin file it loads.

Captured from the running app with Debian Chromium (Playwright) emulating the
phone Lighthouse emulates, so the copy holds what Lighthouse will ask for: the
same image variants (the image route picks width and format from the request)
and the same chunks. The page is scrolled and the viewport stretched to the
full page, as Lighthouse's full-page screenshot does, so lazy images load too.
Files the HTML or CSS names but the browser did not load are fetched as well.
"""

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
from playwright.sync_api import Browser, Response, Route, ViewportSize, sync_playwright

from bench.nginx import StaticFile
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
_CSS_URL = re.compile(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)""")


@dataclass(frozen=True, kw_only=True)
class Captured:
    path: str  # decoded URL path
    content_type: str
    headers: dict[str, str]
    body: bytes


def _named_urls(item: Captured) -> list[str]:
    """The URLs an HTML page (every src, and <link> href), its CSS or its manifest names."""
    text = item.body.decode("utf-8", "replace")
    if item.content_type.startswith("text/html"):
        parser = _LinkParser()
        parser.feed(text)
        return parser.urls
    if item.content_type.startswith("text/css"):
        return [url for _, url in _CSS_URL.findall(text) if not url.startswith("data:")]
    if item.content_type.startswith("application/manifest+json"):
        # The icons a web app manifest names (Chromium fetches one of them).
        return [str(icon["src"]) for icon in json.loads(text).get("icons", [])]
    return []


def file_for(path: str, content_type: str) -> str:
    """Where the copy keeps the response for `path`: pages as <path>/index.html."""
    parts = [part for part in PurePosixPath(path).parts if part != "/"]
    if any(part in (".", "..") for part in parts) or not path.startswith("/"):
        raise ValueError(f"not a plain URL path: {path!r}")
    if content_type.split(";")[0].strip() == "text/html" or not parts:
        parts.append("index.html")
    return "/".join(parts)


def same_origin_path(url: str, origin: str) -> str | None:
    """The decoded path of `url` when it is on `origin` (scheme://host:port), else None."""
    parts = urlsplit(url)
    if f"{parts.scheme}://{parts.netloc}" != origin:
        return None
    return unquote(parts.path) or "/"


def capture(app_url: str, routes: Sequence[str]) -> list[Captured]:
    """Each route's page and what it loads, from the app at `app_url` (plain HTTP)."""
    found: dict[str, Captured] = {}
    refused: set[str] = set()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS)
        )
        try:
            for route in routes:
                for item in _load(browser, app_url, route):
                    found.setdefault(item.path, item)
        finally:
            browser.close()
    # What the page, its CSS or its manifest names but this load did not fetch
    # (another width of a photo, a fallback font format, the manifest's icons):
    # fetched as an <img> would be, and read in turn.
    todo = list(found.values())
    named = {path for path in EXTRA_PATHS if path not in found}
    with httpx.Client(base_url=app_url, timeout=120.0) as client:
        while todo or named:
            for item in todo:
                for url in _named_urls(item):
                    path = same_origin_path(urljoin(app_url + item.path, url), app_url)
                    if path is not None and path not in found and path not in refused:
                        named.add(path)
            todo = []
            for path in sorted(named):
                response = client.get(
                    path, headers={"Accept": IMAGE_ACCEPT, "Accept-Encoding": "identity"}
                )
                if response.status_code == 200:
                    found[path] = _captured(path, response.headers.items(), response.content)
                    todo.append(found[path])
                else:  # asked for once only
                    refused.add(path)
            named = set()
    return list(found.values())


def write_copy(captured: Iterable[Captured], root: Path) -> list[StaticFile]:
    """Write the files under `root`, each text file with a .br and .gz beside it."""
    files = []
    for item in captured:
        relative = file_for(item.path, item.content_type)
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(item.body)
        if _COMPRESSIBLE.match(item.content_type):
            for suffix, packed in (
                (".br", bytes(brotli.compress(item.body, quality=11))),
                (".gz", gzip.compress(item.body, compresslevel=9, mtime=0)),
            ):
                if len(packed) < len(item.body):
                    target.with_name(target.name + suffix).write_bytes(packed)
        files.append(
            StaticFile(
                path=item.path, file=relative, content_type=item.content_type, headers=item.headers
            )
        )
    # nginx's workers run as `nobody` when the master is root: everything readable.
    for folder in [root, *(path for path in root.rglob("*") if path.is_dir())]:
        folder.chmod(0o755)
    return files


def _load(browser: Browser, app_url: str, route: str) -> list[Captured]:
    context = browser.new_context(
        viewport=MOBILE_VIEWPORT,
        device_scale_factor=MOBILE_SCALE,
        is_mobile=True,
        has_touch=True,
        user_agent=MOBILE_USER_AGENT,
    )
    responses: list[Response] = []
    try:
        # Offline: other origins (the video iframe) would only time out.
        context.route(
            "**/*",
            lambda request_route: _same_origin_only(request_route, app_url),
        )
        page = context.new_page()
        page.on("response", lambda response: responses.append(response))
        page.goto(app_url + route, wait_until="networkidle")
        height = int(page.evaluate("document.documentElement.scrollHeight"))
        for top in range(0, height, MOBILE_VIEWPORT["height"] // 2):
            page.evaluate(f"window.scrollTo(0, {top})")
            page.wait_for_timeout(50)
        page.set_viewport_size({"width": MOBILE_VIEWPORT["width"], "height": max(height, 823)})
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(500)
        kept = []
        for response in responses:
            path = same_origin_path(response.url, app_url)
            if path is None or response.status != 200:
                continue
            kept.append(_captured(path, response.headers.items(), response.body()))
        return kept
    finally:
        context.close()


def _same_origin_only(request_route: Route, app_url: str) -> None:
    if same_origin_path(request_route.request.url, app_url) is None:
        request_route.abort()
    else:
        request_route.continue_()


def _captured(path: str, headers: Iterable[tuple[str, str]], body: bytes) -> Captured:
    lowered = {name.lower(): value for name, value in headers}
    return Captured(
        path=path,
        content_type=lowered.get("content-type", "application/octet-stream"),
        headers={name: lowered[name] for name in KEPT_HEADERS if name in lowered},
        body=body,
    )


class _LinkParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "iframe":
            return  # a document of its own, not part of this page's load
        if values.get("src"):
            self.urls.append(str(values["src"]))
        # Every width of a responsive photo ("a.jpg 320w, b.jpg 640w"): which one a
        # browser takes depends on its screen.
        for name in ("srcset", "imagesrcset"):
            self.urls.extend(
                url.split()[0] for url in str(values.get(name) or "").split(",") if url.strip()
            )
        rels = set(str(values.get("rel") or "").lower().split())
        if tag == "link" and values.get("href") and rels & _LOADED_LINKS:
            self.urls.append(str(values["href"]))
