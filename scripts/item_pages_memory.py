"""What card pages (/projects/{id}) cost a worker's memory, against the number of projects.

Usage: uv run python scripts/item_pages_memory.py [--items 18 200 1000]

For each count, the Procfile's server (its default workers) on
generated local content with that many projects; every card page is asked
for once, over a fresh connection each (either worker answers), as a browser
asks (Accept-Encoding: gzip, br). Prints one page's size and each worker's RSS
(VmRSS, /proc) before and after.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import httpx2 as httpx

from bench.memory import sample_memory
from harness.content_files import write_content
from harness.live_server import LiveServer, procfile_default_workers
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


def on_the_server(count: int, folder: Path) -> None:
    content = write_content(folder / "content", projects=projects(count))
    workers = procfile_default_workers()
    env = {"CONTENT_DIR": str(content), "IMAGE_CACHE_DIR": str(folder / "images")}
    with LiveServer(env=env, workers=workers, log_path=folder / "uvicorn.log") as server:
        # The first is uvicorn's parent; multiprocessing's resource tracker is no worker.
        worker_pids = [pid for pid in server.pids()[1:] if not _resource_tracker(pid)]
        for _ in range(workers * 4):  # every worker warm: a list page each
            httpx.get(server.url + PROJECTS.path, headers={**BROWSER, "Connection": "close"})
        before = sample_memory(worker_pids, requests=0).rss_by_pid
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
        after = sample_memory(worker_pids, requests=count).rss_by_pid
    print(
        json.dumps(
            {
                "projects": count,
                "workers": workers,
                "card_page_compressed_kb": round(size / 1024),
                "seconds": round(seconds, 1),
                "rss_mb_before": [round(before[pid] / 2**20) for pid in worker_pids],
                "rss_mb_after": [round(after[pid] / 2**20) for pid in worker_pids],
            }
        ),
        flush=True,
    )


def _resource_tracker(pid: int) -> bool:
    return b"resource_tracker" in Path(f"/proc/{pid}/cmdline").read_bytes()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, nargs="+", default=[18, 200, 1000])
    args = parser.parse_args()
    for count in args.items:
        with tempfile.TemporaryDirectory() as folder:
            on_the_server(count, Path(folder))


if __name__ == "__main__":
    main()
