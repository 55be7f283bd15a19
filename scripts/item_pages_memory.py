"""What card pages (/projects/{id}) cost a worker's memory, against the number of projects.

Usage:
  uv run python scripts/item_pages_memory.py [--items 18 200 1000]
  uv run python scripts/item_pages_memory.py --breakdown [--items 1000]

Default: for each count, the Procfile's server (its default workers) on
generated local content with that many projects; every card page is asked
for once, over a fresh connection each (either worker answers), as a browser
asks (Accept-Encoding: gzip, br). Prints one page's size and each worker's RSS
(VmRSS, /proc) before and after.

--breakdown: the same requests in this process (one worker's work), then where
the memory is: the rendered-page cache (HTML, compressed copies), the V8
heaps, the C allocator's bytes in use and free but kept, and RSS once more
after the allocator returns what it keeps (malloc_trim) and V8 collects.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import tempfile
import time
from pathlib import Path

import httpx2 as httpx
from starlette.testclient import TestClient

from harness.content_files import write_content
from harness.live_server import LiveServer, procfile_default_workers
from server.app import create_app
from server.rendering.allocator import malloc_figures
from server.rendering.page_renderer import PageRenderer
from server.settings import Settings
from server.site_map import PROJECTS, ItemPage

BROWSER = {"Accept-Encoding": "gzip, deflate, br"}


def projects(count: int) -> list[dict[str, str]]:
    return [
        {
            "id": f"project-{index}",
            "name": f"Project {index}",
            "description": "Honed Jerusalem stone cladding for a villa, laid by hand. " * 3,
            "photoUrl": "/images/sample.jpg",
        }
        for index in range(count)
    ]


def rss_mb(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def on_the_server(count: int, folder: Path) -> None:
    content = write_content(folder / "content", projects=projects(count))
    workers = procfile_default_workers()
    env = {"CONTENT_DIR": str(content), "IMAGE_CACHE_DIR": str(folder / "images")}
    with LiveServer(env=env, workers=workers, log_path=folder / "uvicorn.log") as server:
        # The first is uvicorn's parent; multiprocessing's resource tracker is no worker.
        worker_pids = [pid for pid in server.pids()[1:] if not _resource_tracker(pid)]
        for _ in range(workers * 4):  # every worker warm: a list page each
            httpx.get(server.url + PROJECTS.path, headers={**BROWSER, "Connection": "close"})
        before = {pid: rss_mb(pid) for pid in worker_pids}
        size = 0
        started = time.monotonic()
        for index in range(count):
            with httpx.Client(timeout=30) as client:
                response = client.get(
                    server.url + ItemPage(PROJECTS, f"project-{index}").path, headers=BROWSER
                )
            size = max(size, response.num_bytes_downloaded)
            assert response.status_code == 200
        seconds = time.monotonic() - started
        after = {pid: rss_mb(pid) for pid in worker_pids}
    print(
        json.dumps(
            {
                "projects": count,
                "workers": workers,
                "card_page_compressed_kb": round(size / 1024),
                "seconds": round(seconds, 1),
                "rss_mb_before": [round(before[pid]) for pid in worker_pids],
                "rss_mb_after": [round(after[pid]) for pid in worker_pids],
            }
        ),
        flush=True,
    )


def _resource_tracker(pid: int) -> bool:
    return b"resource_tracker" in Path(f"/proc/{pid}/cmdline").read_bytes()


def breakdown(count: int, folder: Path) -> None:
    content = write_content(folder / "content", projects=projects(count))
    settings = Settings(content_dir=content, render_pool_size=1, image_cache_dir=folder / "images")
    with TestClient(create_app(settings)) as client:
        renderer: PageRenderer = client.app_state["renderer"]
        client.get(PROJECTS.path, headers=BROWSER)
        before = rss_mb()
        size = 0
        for index in range(count):
            response = client.get(ItemPage(PROJECTS, f"project-{index}").path, headers=BROWSER)
            size = max(size, len(response.text.encode()))
        cache = renderer.cached_pages
        allocator = malloc_figures()
        figures: dict[str, object] = {
            "projects": count,
            "card_page_html_kb": round(size / 1024),
            "rss_mb_before": round(before),
            "rss_mb_after": round(rss_mb()),
            "page_cache_pages": len(cache),
            "page_cache_html_mb": round(cache.size_bytes / 2**20, 1),
            "page_cache_compressed_mb": round(cache.compressed_bytes / 2**20, 1),
            "in_use_mb": round(allocator.in_use_bytes / 2**20, 1),
            "free_kept_mb": round(allocator.free_kept_bytes / 2**20, 1),
        }
        contexts = renderer.render_pool.contexts()
        heaps = [context.heap_stats() for context in contexts]
        figures["v8_heap_used_mb"] = round(sum(h["used_heap_size"] for h in heaps) / 2**20, 1)
        figures["v8_heap_total_mb"] = round(sum(h["total_heap_size"] for h in heaps) / 2**20, 1)
        ctypes.CDLL("libc.so.6").malloc_trim(0)
        figures["rss_mb_after_malloc_trim"] = round(rss_mb())
        for context in contexts:
            context.low_memory_notification()
        figures["rss_mb_after_v8_gc"] = round(rss_mb())
        print(json.dumps(figures), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, nargs="+", default=[18, 200, 1000])
    parser.add_argument("--breakdown", action="store_true")
    args = parser.parse_args()
    for count in args.items:
        with tempfile.TemporaryDirectory() as folder:
            (breakdown if args.breakdown else on_the_server)(count, Path(folder))


if __name__ == "__main__":
    main()
