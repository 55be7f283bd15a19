"""Section: the JavaScript and CSS a first visit downloads, raw and as served."""

from __future__ import annotations

import gzip
from dataclasses import asdict, dataclass
from typing import Any
from urllib.parse import urlsplit

import brotli
import httpx2 as httpx
from playwright.sync_api import Browser, Request, Response, Route, sync_playwright

from bench.context import ROUTES, BenchContext, progress
from bench.report import SectionReport, Table, thousands
from harness.chromium import CHROMIUM, CHROMIUM_ARGS
from harness.live_server import LiveServer, procfile_default_workers

NAME = "bytes"
TITLE = "2. JS and CSS bytes of a first load"
KINDS = {"script": "JS", "stylesheet": "CSS"}
ACCEPT_COMPRESSED = "br, gzip"


@dataclass(frozen=True, kw_only=True)
class Asset:
    route: str
    path: str
    kind: str  # "JS" or "CSS"
    linked_in_html: bool  # False: fetched later by a script (a lazy chunk)
    raw_bytes: int
    served_bytes: int  # body bytes sent for Accept-Encoding: br, gzip
    served_encoding: str
    gzip9_bytes: int
    brotli11_bytes: int


def run(context: BenchContext) -> SectionReport:
    assets: list[Asset] = []
    blocked: dict[str, set[str]] = {}
    server = LiveServer(
        env={}, workers=procfile_default_workers(), log_path=context.run_dir / NAME / f"{NAME}.log"
    )
    with server, sync_playwright() as playwright, httpx.Client(base_url=server.url) as client:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS)
        )
        try:
            for route in ROUTES:
                progress(f"{NAME}: first load of {route}")
                fetched, offsite = _first_load(browser_url=server.url + route, browser=browser)
                blocked[route] = offsite
                html = client.get(route, headers={"Accept-Encoding": "identity"}).text
                for path, kind in fetched:
                    assets.append(_measure(client, route=route, path=path, kind=kind, html=html))
        finally:
            browser.close()

    tables = [_summary(assets)]
    tables.extend(_per_file(route, [a for a in assets if a.route == route]) for route in ROUTES)
    offsite_hosts = sorted({urlsplit(url).netloc for urls in blocked.values() for url in urls})
    hosts = ", ".join(offsite_hosts) or "none were made"
    notes = [
        "First load: a fresh browser context (empty cache) in Debian Chromium via Playwright, "
        "script and stylesheet responses collected until network idle.",
        "served: body bytes the server sent for Accept-Encoding: br, gzip (encoding in the "
        "per-file tables, 'identity' when it did not compress); gzip -9 and brotli 11 are "
        "computed here from the raw file, for reference.",
        "Later: fetched by a script after the page (not linked in the HTML).",
        f"Offline: third-party requests were blocked ({hosts}); their files are not counted.",
    ]
    data: dict[str, Any] = {
        "assets": [asdict(asset) for asset in assets],
        "blocked_third_party": {route: sorted(urls) for route, urls in blocked.items()},
    }
    return SectionReport(tables=tables, notes=notes, data=data)


def _first_load(*, browser_url: str, browser: Browser) -> tuple[list[tuple[str, str]], set[str]]:
    origin = urlsplit(browser_url).netloc
    fetched: list[tuple[str, str]] = []
    offsite: set[str] = set()

    def on_response(response: Response) -> None:
        request: Request = response.request
        url = urlsplit(response.url)
        if request.resource_type in KINDS and url.netloc == origin:
            entry = (url.path, KINDS[request.resource_type])
            if entry not in fetched:
                fetched.append(entry)

    def block_offsite(route: Route) -> None:
        offsite.add(route.request.url)
        route.abort()

    context = browser.new_context()
    try:
        context.route(lambda url: urlsplit(url).netloc != origin, block_offsite)
        page = context.new_page()
        page.on("response", on_response)
        page.goto(browser_url, wait_until="networkidle")
    finally:
        context.close()
    return fetched, offsite


def _measure(client: httpx.Client, *, route: str, path: str, kind: str, html: str) -> Asset:
    raw = client.get(path, headers={"Accept-Encoding": "identity"}).content
    with client.stream("GET", path, headers={"Accept-Encoding": ACCEPT_COMPRESSED}) as response:
        served = sum(len(chunk) for chunk in response.iter_raw())
        encoding = response.headers.get("content-encoding", "identity")
    return Asset(
        route=route,
        path=path,
        kind=kind,
        linked_in_html=path in html,
        raw_bytes=len(raw),
        served_bytes=served,
        served_encoding=encoding,
        gzip9_bytes=len(gzip.compress(raw, compresslevel=9)),
        brotli11_bytes=_brotli_size(raw),
    )


def _brotli_size(data: bytes) -> int:
    compressed: bytes = brotli.compress(data, quality=11)
    return len(compressed)


def _summary(assets: list[Asset]) -> Table:
    rows = []
    for route in ROUTES:
        for kind in KINDS.values():
            mine = [a for a in assets if a.route == route and a.kind == kind]
            later = sum(1 for a in mine if not a.linked_in_html)
            rows.append(
                [
                    route,
                    kind,
                    f"{len(mine) - later} + {later} later" if later else str(len(mine)),
                    thousands(sum(a.raw_bytes for a in mine)),
                    thousands(sum(a.served_bytes for a in mine)),
                    thousands(sum(a.gzip9_bytes for a in mine)),
                    thousands(sum(a.brotli11_bytes for a in mine)),
                ]
            )
    return Table(
        title=f"{TITLE}, per route (bytes)",
        columns=["route", "kind", "files", "raw", "served", "gzip -9", "brotli 11"],
        rows=rows,
    )


def _per_file(route: str, assets: list[Asset]) -> Table:
    rows = [
        [
            asset.path,
            asset.kind,
            "HTML" if asset.linked_in_html else "later",
            thousands(asset.raw_bytes),
            f"{asset.served_bytes:,} {asset.served_encoding}",
            thousands(asset.gzip9_bytes),
            thousands(asset.brotli11_bytes),
        ]
        for asset in assets
    ]
    return Table(
        title=f"{route}: files fetched (bytes)",
        columns=["file", "kind", "loaded", "raw", "served", "gzip -9", "brotli 11"],
        rows=rows,
    )
