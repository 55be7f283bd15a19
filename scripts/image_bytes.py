"""How many bytes of photos a phone downloads, with the image route and without.

Usage: uv run python scripts/image_bytes.py [--dpr 3] [--width 390] [--height 844]
       [--min-ratio 5]

Starts the site twice on the shipped content, on loopback: as it is (IMAGE_ROUTE=on,
with an empty image cache) and with IMAGE_ROUTE=off, so pages link the original
photos. Chromium (Debian's) loads each page as a phone would, scrolls to the end
so every lazy photo that would load does, and counts the bytes of the content's
photos (/images/..., /img/...; not the hero or fonts, which the route leaves
alone). A photo counts in both columns or in neither (the slider's autoplay may
reach one more slide in one run than the other). Exits non-zero if a page
saves less than --min-ratio.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from collections import defaultdict

from playwright.sync_api import Browser, Request, Response, sync_playwright

from harness.chromium import CHROMIUM, CHROMIUM_ARGS
from harness.live_server import LiveServer
from server.site_map import ENGLISH_ROUTE_PATHS

PAGES = ENGLISH_ROUTE_PATHS
# /images/projects/x.jpg and /img/w640/<version>/local/projects/x.jpg are one photo.
PHOTO = re.compile(r"^/(?:images|img/\w+/[\w-]{12}/local)/(.+)$")


def photo_bytes(browser: Browser, url: str, args: argparse.Namespace) -> dict[str, int]:
    """Bytes per photo (all its variants together) that loading `url` downloaded."""
    context = browser.new_context(
        viewport={"width": args.width, "height": args.height}, device_scale_factor=args.dpr
    )
    # Third parties are out of reach here and out of the count anyway.
    context.route(re.compile(r"^https://(?!127\.0\.0\.1)"), lambda route: route.fulfill(status=204))
    page = context.new_page()
    responses: list[Response] = []
    page.on("response", lambda response: responses.append(response))
    pending: set[Request] = set()
    page.on("request", lambda request: pending.add(request))
    page.on("requestfinished", lambda request: pending.discard(request))
    page.on("requestfailed", lambda request: pending.discard(request))
    page.goto(url, wait_until="networkidle")
    page.evaluate(
        "async () => { for (let y = 0; y < document.body.scrollHeight; y += 400) {"
        " window.scrollTo(0, y); await new Promise(r => setTimeout(r, 200)); } }"
    )
    # Until every photo the scroll asked for has arrived (a cold image route
    # takes a moment to make the first ones).
    deadline = time.monotonic() + 60
    quiet_since = time.monotonic()
    while time.monotonic() < deadline and time.monotonic() - quiet_since < 1.0:
        page.wait_for_timeout(100)
        if pending:
            quiet_since = time.monotonic()
    sizes: dict[str, int] = defaultdict(int)
    for response in responses:
        path = "/" + response.url.split("/", 3)[3]
        found = PHOTO.match(path.split("?")[0])
        if found is not None and response.status == 200:
            sizes[found.group(1)] += len(response.body())
    context.close()
    return sizes


def kilobytes(count: int) -> str:
    return f"{count / 1024:,.0f} KB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dpr", type=float, default=3.0)
    parser.add_argument("--width", type=int, default=390)
    parser.add_argument("--height", type=int, default=844)
    parser.add_argument("--min-ratio", type=float, default=5.0)
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as cache,
        LiveServer(env={"IMAGE_CACHE_DIR": cache}) as routed,
        LiveServer(env={"IMAGE_ROUTE": "off"}) as original,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS)
        )
        print(f"Photos downloaded at {args.width}x{args.height}, device pixel ratio {args.dpr:g}")
        print(f"{'page':<16}{'photos':>7}{'original':>13}{'image route':>14}{'smaller':>9}")
        worst = float("inf")
        for page in PAGES:
            before = photo_bytes(browser, original.url + page, args)
            after = photo_bytes(browser, routed.url + page, args)
            shared = before.keys() & after.keys()
            total_before = sum(before[name] for name in shared)
            total_after = sum(after[name] for name in shared)
            ratio = total_before / total_after if total_after else float("inf")
            worst = min(worst, ratio)
            print(
                f"{page:<16}{len(shared):>7}{kilobytes(total_before):>13}"
                f"{kilobytes(total_after):>14}{ratio:>8.1f}x"
            )
        browser.close()
    if worst < args.min_ratio:
        print(f"Below the target: {worst:.1f}x < {args.min_ratio:g}x", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
