"""What item pages (/projects/{id}) cost a worker's memory with many projects.

Usage: uv run python scripts/item_pages_memory.py [--items 1000] [--pages 300]

Serves generated content with `--items` projects in-process, asks for the
first `--pages` projects' pages twice (the second pass from the cache), and
prints the size of one page, the rendered-page cache's size and entries, and
the process's RSS. The cache is bounded in bytes (server/rendering/page_cache.py),
so past its bound more pages cost renders, not memory.
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

from starlette.testclient import TestClient

from harness.content_files import write_content
from server.app import create_app
from server.rendering.page_renderer import PageRenderer
from server.settings import Settings
from server.site_map import PROJECTS, ItemPage


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--pages", type=int, default=300)
    args = parser.parse_args()
    projects = [
        {
            "id": f"project-{index}",
            "name": f"Project {index}",
            "description": "Honed Jerusalem stone cladding for a villa, laid by hand. " * 3,
            "photoUrl": "/images/sample.jpg",
        }
        for index in range(args.items)
    ]
    with tempfile.TemporaryDirectory() as folder:
        content = write_content(Path(folder) / "content", projects=projects)
        settings = Settings(
            content_dir=content, render_pool_size=1, image_cache_dir=Path(folder) / "images"
        )
        with TestClient(create_app(settings)) as client:
            renderer: PageRenderer = client.app_state["renderer"]
            cache = renderer.cached_pages
            before = rss_mb()
            started = time.monotonic()
            size = 0
            for index in range(args.pages):
                response = client.get(ItemPage(PROJECTS, f"project-{index}").path)
                size = len(response.content)
            rendering = time.monotonic() - started
            started = time.monotonic()
            for index in range(args.pages):
                client.get(ItemPage(PROJECTS, f"project-{index}").path)
            second = time.monotonic() - started
            print(f"projects: {args.items}, item pages asked for: {args.pages} (twice)")
            print(f"one item page: {size / 1024:.0f} KB of HTML")
            print(f"first pass: {rendering / args.pages * 1000:.1f} ms a page (renders)")
            print(f"second pass: {second / args.pages * 1000:.1f} ms a page")
            print(f"cache: {len(cache)} pages, {cache.size_bytes / 2**20:.1f} MB of HTML")
            print(f"RSS: {before:.0f} MB before, {rss_mb():.0f} MB after")


if __name__ == "__main__":
    main()
