"""Section: what Firestore costs the site, counted in bytes at the connection
(docs/benchmarks.md, "What Firestore costs")."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import httpx2 as httpx

from bench.context import BenchContext, progress
from bench.report import SectionReport, Table, fixed, thousands
from harness.firestore_emulator import FirestoreEmulator
from harness.live_server import LiveServer, procfile_default_workers
from harness.tcp_proxy import TcpProxy
from server.content.local import collection_file, read_documents
from server.content.models import Collection
from server.i18n import DEFAULT_LOCALE
from server.settings import REPO_ROOT
from server.site_map import PAGES

NAME = "firestore"
TITLE = "5. What Firestore costs: bytes the database sent, counted at the connection"
EXTRA_PROJECTS = 1_000
EXTRA_DESCRIPTION = "A villa clad in Jerusalem stone, its terrace in Jordanian marble. " * 3
PAGE_VIEWS = 1_000
# The three routes in English; the old site read each one's collections whole on every view.
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

    @property
    def bytes_per_document(self) -> float:
        return self.startup_bytes / (self.workers * self.documents)

    def reads(self, pulled: float) -> float:
        return pulled / self.bytes_per_document

    @property
    def idle_reads_per_hour_per_worker(self) -> float:
        return self.reads(self.idle_bytes) * 3600 / self.idle_seconds / self.workers


def wait_until(what: str, check: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"not within {timeout:g} s: {what}")
        time.sleep(0.1)


def snapshots(server: LiveServer, starting: str) -> set[tuple[int, str]]:
    """(worker, collection) of each listener snapshot logged with this beginning."""
    # uvicorn's parent process writes a few plain lines among the workers' JSON.
    lines = [json.loads(line) for line in server.log().splitlines() if line.startswith("{")]
    return {
        (line["worker"], line["collection"])
        for line in lines
        if str(line.get("message", "")).startswith(starting) and "collection" in line
    }


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
            every_listener = workers * len(Collection)
            wait_until(
                "every worker's listeners deliver",
                lambda: len(snapshots(server, "Listening to")) == every_listener,
            )
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
            views = proxy.pulled - before

            before = proxy.pulled
            edited = dict(content["Projects"][0], name="Abdoun villa, terrace redone")
            emulator.seed("Projects", [edited])
            wait_until(
                "every worker has the edit",
                lambda: (
                    len({w for w, c in snapshots(server, "Change in") if c == "Projects"})
                    == workers
                ),
            )
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
    logs = context.run_dir / NAME
    progress(f"{NAME}: starting the Firestore emulator")
    emulator = FirestoreEmulator(logs).start()
    try:
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
            measure(emulator, label, content, idle_seconds=idle, logs=logs)
            for label, content in contents.items()
        ]
    finally:
        emulator.stop()
    rows = [
        [
            cost.content,
            thousands(cost.startup_bytes),
            thousands(cost.idle_bytes),
            fixed(cost.idle_bytes / cost.startup_bytes, 3),
            fixed(cost.idle_reads_per_hour_per_worker, 1),
            thousands(cost.reads(cost.page_view_bytes) * 1000 / cost.page_views),
            thousands(cost.old_reads_per_view * 1000),
            fixed(cost.reads(cost.edit_bytes) / cost.workers, 1),
        ]
        for cost in costs
    ]
    table = Table(
        title=TITLE,
        columns=[
            "content",
            "start-up bytes",
            f"idle {idle:g} s bytes",
            "idle / start-up",
            "reads / idle h / worker",
            "reads / 1,000 views",
            "old site's",
            "reads / edit / worker",
        ],
        rows=rows,
    )
    notes = [
        "reads are bytes / bytes per document, the start-up phase reading each document once"
        " per worker; the old client-rendered site read its route's collection on every view",
        "past CONTENT_MAX_STALENESS_SECONDS a page's request probes the listeners' connection"
        " (ListCollectionIds: no document read), at most once per bound per worker",
        "the emulator answers an edit with the whole collection again (a RESET, then every"
        " document); Firestore sends, and bills, the changed document only: on the emulator"
        " the edit column is an upper bound",
    ]
    return SectionReport(
        tables=[table], notes=notes, data={"costs": [asdict(cost) for cost in costs]}
    )
