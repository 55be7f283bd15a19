"""Section: what Firestore costs the site, counted in bytes at the connection
(docs/benchmarks.md, "What Firestore costs")."""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import httpx2 as httpx

from bench.section import BenchContext, SectionReport, Table, fixed, progress
from harness.firestore_emulator import FirestoreEmulator
from harness.live_server import LiveServer, procfile_default_workers
from harness.tcp_proxy import TcpProxy
from server.content.local import collection_file, read_documents
from server.content.models import Collection
from server.settings import REPO_ROOT
from server.site.languages import DEFAULT_LOCALE
from server.site.pages import PAGES

NAME = "firestore"
TITLE = "5. What Firestore costs: bytes the database sent, counted at the connection"
EXTRA_PROJECTS = 1_000
EXTRA_DESCRIPTION = "A villa clad in Jerusalem stone, its terrace in Jordanian marble. " * 3
PAGE_VIEWS = 1_000
# The pages in English; the old site read each one's collections whole on every view.
ENGLISH_PAGES = [page for page in PAGES if page.locale is DEFAULT_LOCALE]


@dataclass(frozen=True, kw_only=True)
class Cost:
    content: str
    workers: int
    documents: int
    startup_bytes: int
    idle_seconds: float
    idle_bytes: int
    page_views: int
    page_view_bytes: int
    edit_bytes: int
    # Reads per page view of the old client-rendered site, the routes in turn.
    old_reads_per_view: float

    def row(self) -> dict[str, str]:
        # Start-up reads each document once per worker: bytes become reads by its bytes per one.
        per_read = self.startup_bytes / (self.workers * self.documents)
        idle_reads = self.idle_bytes / per_read * 3600 / self.idle_seconds / self.workers
        return {
            "content": self.content,
            "start-up bytes": fixed(self.startup_bytes),
            f"idle {self.idle_seconds:g} s bytes": fixed(self.idle_bytes),
            "idle / start-up": fixed(self.idle_bytes / self.startup_bytes, 3),
            "reads / idle h / worker": fixed(idle_reads, 1),
            "reads / 1,000 views": fixed(self.page_view_bytes / per_read * 1000 / self.page_views),
            "old site's": fixed(self.old_reads_per_view * 1000),
            "reads / edit / worker": fixed(self.edit_bytes / per_read / self.workers, 1),
        }


def wait_for_snapshots(server: LiveServer, starting: str, count: int) -> None:
    """Until the log holds `count` (worker, collection) listener snapshots with this beginning."""
    deadline = time.monotonic() + 60
    while True:
        # uvicorn's parent process writes a few plain lines among the workers' JSON.
        lines = [json.loads(line) for line in server.log().splitlines() if line.startswith("{")]
        logged = {
            (line["worker"], line["collection"])
            for line in lines
            if str(line.get("message", "")).startswith(starting) and "collection" in line
        }
        if len(logged) >= count:
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"not within 60 s: {count} snapshots logged as {starting!r}")
        time.sleep(0.1)


def measure(
    emulator: FirestoreEmulator,
    label: str,
    content: dict[str, list[dict[str, object]]],
    *,
    idle_seconds: float,
    logs: Path,
) -> Cost:
    emulator.reset()
    for collection, documents in content.items():
        emulator.seed(collection, documents)  # straight in, not through the proxy
    workers = procfile_default_workers()
    with TcpProxy(emulator.host) as proxy:
        env = {
            "CONTENT_SOURCE": "firestore",
            "FIRESTORE_EMULATOR_HOST": proxy.host,
            "GOOGLE_CLOUD_PROJECT": emulator.project,
            "LOG_FORMAT": "json",
        }
        log_path = logs / f"{NAME}-{label.replace(' ', '-').replace(',', '')}.log"
        with LiveServer(env=env, workers=workers, log_path=log_path) as server:
            wait_for_snapshots(server, "Listening to", workers * len(Collection))
            time.sleep(1.0)  # anything still on its way
            startup = proxy.pulled

            progress(f"{NAME}: {label}, idle for {idle_seconds:g} s")
            time.sleep(idle_seconds)
            idle = proxy.pulled - startup

            progress(f"{NAME}: {label}, {PAGE_VIEWS:,} page views")
            before = proxy.pulled
            with httpx.Client(base_url=server.url, timeout=10) as client:
                for index in range(PAGE_VIEWS):
                    client.get(ENGLISH_PAGES[index % len(ENGLISH_PAGES)].path).raise_for_status()
            time.sleep(1.0)
            views, before = proxy.pulled - before, proxy.pulled

            edited = dict(content["Projects"][0], name="Abdoun villa, terrace redone")
            emulator.seed("Projects", [edited])
            wait_for_snapshots(server, "Change in Projects", workers)
            time.sleep(1.0)
            edit = proxy.pulled - before
    sizes = {name: len(documents) for name, documents in content.items()}
    return Cost(
        content=label,
        workers=workers,
        documents=sum(sizes.values()),
        startup_bytes=startup,
        idle_seconds=idle_seconds,
        idle_bytes=idle,
        page_views=PAGE_VIEWS,
        page_view_bytes=views,
        edit_bytes=edit,
        old_reads_per_view=statistics.mean(
            sum(sizes[collection.firestore_name] for collection in page.collections)
            for page in ENGLISH_PAGES
        ),
    )


def run(context: BenchContext) -> SectionReport:
    idle = 60.0 if context.quick else 300.0
    progress(f"{NAME}: starting the Firestore emulator")
    with FirestoreEmulator(context.logs) as emulator:
        sample = {
            each.firestore_name: read_documents(collection_file(REPO_ROOT / "content", each))
            for each in Collection
        }
        extra = [
            {
                "id": f"bench-{index:04d}",
                "name": f"Project {index}",
                "description": EXTRA_DESCRIPTION,
                "photoUrl": sample["Projects"][0]["photoUrl"],
            }
            for index in range(EXTRA_PROJECTS)
        ]
        more = {**sample, "Projects": [*sample["Projects"], *extra]}
        contents = {"sample content": sample, f"{EXTRA_PROJECTS:,} projects more": more}
        costs = [
            measure(emulator, label, content, idle_seconds=idle, logs=context.logs)
            for label, content in contents.items()
        ]
    notes = [
        "reads: bytes / the start-up phase's bytes per document; the old client-rendered site"
        " read its route's collections on every view. The emulator answers an edit with the"
        " whole collection again, Firestore with the changed document: on the emulator the edit"
        " column is an upper bound (docs/benchmarks.md).",
    ]
    data = {"costs": [asdict(cost) for cost in costs]}
    return SectionReport(
        tables=[Table(title=TITLE, rows=[c.row() for c in costs])], notes=notes, data=data
    )
