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
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path

from bench.load import run_wrk
from bench.memory import sample_memory
from bench.prerequisites import ensure_debian_commands
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


def seed_collections() -> dict[str, dict[str, Mapping[str, str]]]:
    collections: dict[str, dict[str, Mapping[str, str]]] = {}
    for collection in Collection:
        file = REPO_ROOT / "content" / f"{collection.page_key}.json"
        documents = json.loads(file.read_text(encoding="utf-8"))
        collections[collection.firestore_name] = {d.pop("id"): d for d in documents}
    return collections


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--connections", type=int, default=100)
    parser.add_argument("--failure-rate", type=float, default=0.2)
    args = parser.parse_args()
    ensure_debian_commands(["wrk"])
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
            started = time.monotonic()
            samples = [(0.0, sample_memory(site.pids(), requests=0).rss_bytes)]
            done = threading.Event()

            def sample() -> None:
                while not done.wait(5):
                    rss = sample_memory(site.pids(), requests=0).rss_bytes
                    samples.append((time.monotonic() - started, rss))

            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            result = run_wrk(
                site.url,
                connections=args.connections,
                seconds=args.seconds,
                script=workdir / "paths.lua",
            )
            done.set()
            sampler.join()
            samples.append(
                (time.monotonic() - started, sample_memory(site.pids(), requests=0).rss_bytes)
            )
            log = site.log()
        reads = db.reads

    tracebacks = log.count("Traceback")
    socket_errors = ", ".join(f"{k} {v}" for k, v in result.socket_errors.items()) or "none"
    print(f"requests              {result.requests} ({result.command})")
    print(f"non-2xx/3xx responses {result.non_2xx_or_3xx}")
    print(f"socket errors         {socket_errors}")
    print(f"tracebacks in log     {tracebacks}")
    print(
        f"database reads        {reads} (about {args.failure_rate:.0%} failed; "
        f"{log.count('Error fetching ')} 'Error fetching' lines logged)"
    )
    print("RSS over time (s: MiB) " + ", ".join(f"{t:.0f}: {b / 2**20:.1f}" for t, b in samples))
    first_after_warmup = samples[1][1] if len(samples) > 2 else samples[0][1]
    growth = (samples[-1][1] - first_after_warmup) / max(first_after_warmup, 1)
    print(f"RSS growth after the first 5 s: {growth:+.1%}")
    return 0 if result.non_2xx_or_3xx == 0 and tracebacks == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
