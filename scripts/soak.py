"""Soak test: real traffic against a real server while the database fails 20% of reads.

Usage: uv run python scripts/soak.py [--seconds 60] [--connections 100] [--failure-rate 0.2]

Starts the fault-injecting Firestore stand-in (seeded with content/*.json), the
site on uvicorn reading it with CONTENT_CACHE_SECONDS=0 (so every request reads
and meets the failures), and wrk (Debian's, installed if missing) on loopback
over the three pages and the content API. Prints requests, non-2xx responses,
tracebacks in the server log, database reads and RSS over time. Exits non-zero
if any response was not 2xx/3xx or the log has a traceback.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path

from harness.firestore_standin import FirestoreStandIn
from harness.live_server import LiveServer
from server.content.models import Collection
from server.settings import REPO_ROOT
from server.site_map import ENGLISH_ROUTE_PATHS

# wrk walks these paths in turn, one per request: the pages and one content API.
WALKED_PATHS = (*ENGLISH_ROUTE_PATHS, f"/api/content/{Collection.PROJECTS.page_key}")
WRK_SCRIPT = (
    "local paths = {"
    + ", ".join(f'"{path}"' for path in WALKED_PATHS)
    + "}\n"
    + """local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1])
end
"""
)


def ensure_wrk() -> str:
    found = shutil.which("wrk")
    if found is None:
        subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=True)  # noqa: S607
        found = shutil.which("wrk")
    assert found is not None
    return found


def seed_collections() -> dict[str, dict[str, Mapping[str, str]]]:
    collections: dict[str, dict[str, Mapping[str, str]]] = {}
    for collection in Collection:
        file = REPO_ROOT / "content" / f"{collection.page_key}.json"
        documents = json.loads(file.read_text(encoding="utf-8"))
        collections[collection.firestore_name] = {d.pop("id"): d for d in documents}
    return collections


def rss_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"VmRSS:\s+(\d+) kB", status)
    return int(match.group(1)) if match else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--connections", type=int, default=100)
    parser.add_argument("--failure-rate", type=float, default=0.2)
    args = parser.parse_args()
    wrk = ensure_wrk()
    workdir = Path(tempfile.mkdtemp(prefix="soak-"))
    (workdir / "paths.lua").write_text(WRK_SCRIPT)

    with FirestoreStandIn(collections=seed_collections(), failure_rate=args.failure_rate) as db:
        env = {
            "CONTENT_SOURCE": "firestore",
            "FIRESTORE_EMULATOR_HOST": db.host,
            "GOOGLE_CLOUD_PROJECT": db.project,
            "CONTENT_CACHE_SECONDS": "0",
            "LOG_LEVEL": "WARNING",
        }
        with LiveServer(env=env, log_path=workdir / "uvicorn.log") as site:
            assert site.process is not None
            pid = site.process.pid
            samples: list[tuple[float, int]] = [(0.0, rss_kib(pid))]
            done = threading.Event()
            started = time.monotonic()

            def sample_memory() -> None:
                while not done.wait(5):
                    samples.append((time.monotonic() - started, rss_kib(pid)))

            sampler = threading.Thread(target=sample_memory, daemon=True)
            sampler.start()
            result = subprocess.run(  # noqa: S603 - our own command line
                [
                    wrk,
                    "-t2",
                    f"-c{args.connections}",
                    f"-d{args.seconds}s",
                    "--latency",
                    "-s",
                    str(workdir / "paths.lua"),
                    site.url,
                ],
                capture_output=True,
                text=True,
                check=True,
            )
            done.set()
            sampler.join()
            samples.append((time.monotonic() - started, rss_kib(pid)))
            log = site.log()
        reads = db.reads

    output = result.stdout
    requests = int(re.search(r"(\d+) requests in", output).group(1))  # type: ignore[union-attr]
    non_2xx_match = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    non_2xx = int(non_2xx_match.group(1)) if non_2xx_match else 0
    errors_match = re.search(r"Socket errors: (.*)", output)
    tracebacks = log.count("Traceback")
    fetch_errors = len(re.findall(r"Error fetching ", log))
    print(output)
    print(f"requests              {requests}")
    print(f"non-2xx/3xx responses {non_2xx}")
    print(f"socket errors         {errors_match.group(1) if errors_match else 'none'}")
    print(f"tracebacks in log     {tracebacks}")
    print(
        f"database reads        {reads} (about {args.failure_rate:.0%} failed; "
        f"{fetch_errors} 'Error fetching' lines logged)"
    )
    print("RSS over time (s: MiB) " + ", ".join(f"{t:.0f}: {kib / 1024:.1f}" for t, kib in samples))
    first_after_warmup = samples[1][1] if len(samples) > 2 else samples[0][1]
    growth = (samples[-1][1] - first_after_warmup) / max(first_after_warmup, 1)
    print(f"RSS growth after the first 5 s: {growth:+.1%}")
    return 0 if non_2xx == 0 and tracebacks == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
