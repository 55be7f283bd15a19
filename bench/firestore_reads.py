"""Section: Firestore reads, counted where the database answers, listeners against polling.

Each variant runs the Procfile's server on the emulator, behind a counting
proxy (bench/firestore_wire.py), through three phases: start-up (the server
starts, nobody visits), 10,000 page requests with no edit, then ten edits
(each followed, 2 s later, by twenty reloads over fresh connections, which
either worker may answer: how many show the edit). The listeners then sit
quiet, no visitor and no edit, long enough for each worker to check every
listener's view against a read twice (CONTENT_MAX_STALENESS_SECONDS): what
healthy listeners cost per hour.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import httpx2 as httpx

from bench.context import ROUTES, BenchContext, progress
from bench.firestore_wire import ReadCountingProxy, WireCounts, WireTally
from bench.report import SectionReport, Table, fixed, thousands
from harness.firestore_emulator import FirestoreEmulator
from harness.live_server import LiveServer, procfile_default_workers, procfile_process_model
from server.content.local import LOCAL_FILES
from server.settings import REPO_ROOT, Settings
from server.site_map import PROJECTS

NAME = "firestore"
TITLE = "5. Firestore reads, counted on the wire at the emulator"
CONCURRENCY = 50
# How long to wait after the last answer for reads the server makes on its own
# (a cache refreshing in the background, a listener's snapshot).
SETTLE_SECONDS = 2.0
EDITS = 10
# The bar of issue 13: once this long has passed after an edit, every reload shows it.
EDIT_SHOWS_WITHIN = 2.0
RELOADS_PER_EDIT = 20
EDITED_COLLECTION = "Projects"
PHASES = ("start-up", "requests", "edits", "quiet")
# The quiet phase, listeners only: two checks of every listener, and a margin.
QUIET_SECONDS = 2 * Settings().content_check_seconds + 5


@dataclass(frozen=True, kw_only=True)
class LoadResult:
    requests: int
    seconds: float
    statuses: dict[int, int]
    transport_errors: int


@dataclass(frozen=True, kw_only=True)
class EditResult:
    # Of the reloads made EDIT_SHOWS_WITHIN after each edit, how many showed it.
    reloads_showing: list[int]


@dataclass(frozen=True, kw_only=True)
class VariantReads:
    variant: str
    load: LoadResult
    edits: EditResult
    wire: dict[str, WireCounts]  # by phase


def _variants(context: BenchContext) -> list[tuple[str, dict[str, str]]]:
    return [
        ("listeners", {}),
        ("polling", {"CONTENT_LIVE": "off"}),
        ("uncached", {"CONTENT_LIVE": "off", **context.uncached_env}),
    ]


def run(context: BenchContext) -> SectionReport:
    requests = 2_000 if context.quick else 10_000
    logs = context.run_dir / NAME
    progress(f"{NAME}: starting the Firestore emulator")
    emulator = FirestoreEmulator.start(log_dir=logs)
    collection_sizes: dict[str, int] = {}
    results: list[VariantReads] = []
    try:
        for variant, extra in _variants(context):
            emulator.reset()
            for collection, file_name in LOCAL_FILES.items():
                documents = json.loads((REPO_ROOT / "content" / file_name).read_text("utf-8"))
                emulator.seed(collection.firestore_name, documents)  # straight in, not counted
                collection_sizes[collection.firestore_name] = len(documents)
            with ReadCountingProxy(emulator.host) as proxy:
                results.append(_run_variant(variant, extra, emulator, proxy, requests, logs))
        index_usage = _index_usage(emulator)
    finally:
        emulator.stop()

    return _report(context, requests, collection_sizes, results, index_usage)


def _run_variant(
    variant: str,
    extra: dict[str, str],
    emulator: FirestoreEmulator,
    proxy: ReadCountingProxy,
    requests: int,
    logs: Path,
) -> VariantReads:
    env = {
        "CONTENT_SOURCE": "firestore",
        "FIRESTORE_EMULATOR_HOST": proxy.host,
        "GOOGLE_CLOUD_PROJECT": emulator.project,
        **extra,
    }
    server = LiveServer(
        env=env, workers=procfile_default_workers(), log_path=logs / f"{NAME}-{variant}.log"
    )
    wire: dict[str, WireCounts] = {}
    proxy.tally.reset()
    with server:
        time.sleep(SETTLE_SECONDS)
        wire["start-up"] = _phase_counts(proxy.tally)
        progress(f"{NAME}: {variant}, {requests:,} requests at {CONCURRENCY}")
        load = asyncio.run(_load(server.url, requests))
        time.sleep(SETTLE_SECONDS)
        wire["requests"] = _phase_counts(proxy.tally)
        progress(f"{NAME}: {variant}, {EDITS} edits")
        edits = _edits(server.url, emulator)
        time.sleep(SETTLE_SECONDS)
        wire["edits"] = _phase_counts(proxy.tally)
        if variant == "listeners":
            progress(f"{NAME}: {variant}, quiet for {QUIET_SECONDS:.0f} s")
            time.sleep(QUIET_SECONDS)
            wire["quiet"] = _phase_counts(proxy.tally)
    return VariantReads(variant=variant, load=load, edits=edits, wire=wire)


def _phase_counts(tally: WireTally) -> WireCounts:
    counts = tally.counts()
    tally.reset()
    return counts


def _edits(base_url: str, emulator: FirestoreEmulator) -> EditResult:
    documents = json.loads((REPO_ROOT / "content" / "projects.json").read_text("utf-8"))
    showing = []
    for number in range(1, EDITS + 1):
        target = documents[number % len(documents)]
        marker = f"Edit {number} of the benchmark"
        emulator.seed(EDITED_COLLECTION, [{**target, "description": marker}])
        time.sleep(EDIT_SHOWS_WITHIN)  # the bar: once 2 s have passed
        pages = [_fresh_reload(base_url + PROJECTS.path) for _ in range(RELOADS_PER_EDIT)]
        showing.append(sum(1 for page in pages if marker in page))
    return EditResult(reloads_showing=showing)


def _fresh_reload(url: str) -> str:
    # A new connection per reload, as a new visitor: either worker may answer.
    with httpx.Client(timeout=10.0) as client:
        return client.get(url).text


async def _load(base_url: str, requests: int) -> LoadResult:
    statuses: Counter[int] = Counter()
    errors = 0
    next_index = 0
    limits = httpx.Limits(max_connections=CONCURRENCY, max_keepalive_connections=CONCURRENCY)

    async def worker(client: httpx.AsyncClient) -> None:
        nonlocal next_index, errors
        while next_index < requests:
            path = ROUTES[next_index % len(ROUTES)]
            next_index += 1
            try:
                response = await client.get(path)
                statuses[response.status_code] += 1
            except httpx.TransportError:
                errors += 1

    started = time.perf_counter()
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=60.0) as client:
        await asyncio.gather(*(worker(client) for _ in range(CONCURRENCY)))
    return LoadResult(
        requests=requests,
        seconds=time.perf_counter() - started,
        statuses=dict(statuses),
        transport_errors=errors,
    )


def _index_usage(emulator: FirestoreEmulator) -> str:
    # The emulator's only usage report: which composite indexes served queries.
    database = f"projects/{emulator.project}/databases/(default)"
    path = f"/emulator/v1/projects/{emulator.project}:indexUsage?database={database}"
    response = httpx.get(f"http://{emulator.host}{path}", timeout=10.0)
    return f"HTTP {response.status_code}: {' '.join(response.text.split())}"


def _report(
    context: BenchContext,
    requests: int,
    sizes: dict[str, int],
    results: list[VariantReads],
    index_usage: str,
) -> SectionReport:
    per = 10_000 / requests
    rows = []
    for result in results:
        for phase in [phase for phase in PHASES if phase in result.wire]:
            wire = result.wire[phase]
            rows.append(
                [
                    result.variant,
                    phase,
                    *(thousands(wire.billed_reads.get(collection, 0)) for collection in sizes),
                    thousands(sum(wire.read_calls.values())),
                    thousands(wire.total_billed_reads),
                    fixed(wire.total_billed_reads * per, 0) if phase == "requests" else "",
                ]
            )
    sizes_text = ", ".join(f"{name} {size}" for name, size in sizes.items())
    reads = Table(
        title=f"{TITLE}: start-up, {requests:,} page requests ({', '.join(ROUTES)} in turn, "
        f"{CONCURRENCY} at a time), then {EDITS} edits of {EDITED_COLLECTION}; "
        f"documents: {sizes_text}",
        columns=[
            "variant",
            "phase",
            *(f"{collection} reads" for collection in sizes),
            "read calls",
            "billed reads",
            "reads / 10k requests",
        ],
        rows=rows,
    )
    edits = Table(
        title=f"5b. Edits seen: {RELOADS_PER_EDIT} reloads over fresh connections, "
        f"{EDIT_SHOWS_WITHIN:g} s after each of {EDITS} edits",
        columns=["variant", "reloads showing the edit", "edits shown by every reload"],
        rows=[
            [
                result.variant,
                f"{sum(result.edits.reloads_showing)} of {RELOADS_PER_EDIT * EDITS}",
                f"{sum(1 for n in result.edits.reloads_showing if n == RELOADS_PER_EDIT)}"
                f" of {EDITS}",
            ]
            for result in results
        ],
    )
    uncached = ", ".join(f"{key}={value}" for key, value in context.uncached_env.items())
    notes = [
        "How reads are counted: the emulator keeps no read counter for server traffic. Its "
        "only usage report (GET /emulator/v1/projects/P:indexUsage) lists queries served by "
        f"composite indexes and answered {index_usage!r} after the run; its request log and "
        ":ruleCoverage record security-rules evaluations only, which the server's emulator "
        "credentials bypass. So a TCP proxy between the app and the emulator reads the gRPC "
        "calls (HTTP/2 + HPACK for each call's :path, protobuf for the messages) and counts "
        "the documents each read call returns: RunQuery answers, and the documents a Listen "
        "stream sends (all at first, then each added or changed one). Billed reads = "
        "documents returned, and 1 for a read call returning none (Firestore's pricing rule). "
        "The emulator's Listen sends the whole result again after every change (a RESET, "
        "then every document); the production service sends the changed document only, and "
        "bills only added or changed documents, so a document a stream sends again unchanged "
        "is not counted (those resends are in the notes below).",
        "listeners: default settings (CONTENT_LIVE=on); polling: CONTENT_LIVE=off "
        f"(CONTENT_CACHE_SECONDS 60); uncached: CONTENT_LIVE=off, {uncached}. Process "
        f"model: {procfile_process_model()}. Each phase's counts include {SETTLE_SECONDS:g} s "
        "after its last answer; start-up runs from the server's start to that settle, "
        "with no visitor.",
    ]
    for result in results:
        load = result.load
        calls = ", ".join(
            f"{phase}: "
            + (
                ", ".join(
                    f"{method} {count:,}"
                    for method, count in sorted(result.wire[phase].calls_by_method.items())
                )
                or "none"
            )
            for phase in result.wire
        )
        failed = sum(wire.failed_calls for wire in result.wire.values())
        resent = sum(wire.listen_resent_unchanged for wire in result.wire.values())
        problems = [
            f"UNREAD compressed messages {wire.undecoded_messages}"
            for wire in result.wire.values()
            if wire.undecoded_messages
        ] + [
            f"COUNTING STOPPED: {wire.parse_errors}"
            for wire in result.wire.values()
            if wire.parse_errors
        ]
        notes.append(
            f"{result.variant}: {load.requests:,} requests in {load.seconds:.1f} s "
            f"(HTTP statuses {load.statuses}, transport errors {load.transport_errors}); "
            f"gRPC calls by phase: {calls}; failed calls {failed}; "
            f"unchanged documents Listen sent again {resent:,}"
            + ("; " + "; ".join(problems) if problems else "")
        )
    for result in results:
        quiet = result.wire.get("quiet")
        if quiet is not None:
            workers = procfile_default_workers()
            per_hour = quiet.total_billed_reads * 3600 / QUIET_SECONDS / workers
            notes.append(
                f"{result.variant}, healthy and quiet for {QUIET_SECONDS:.0f} s (no visitor, "
                f"no edit): {quiet.total_billed_reads:,} billed reads over {workers} workers, "
                f"so {per_hour:,.0f} reads per hour per worker: each listener's view checked "
                f"against a read every {Settings().content_check_seconds:g} s "
                "(CONTENT_MAX_STALENESS_SECONDS minus FIRESTORE_TIMEOUT_SECONDS), "
                f"{sum(sizes.values())} documents a round"
            )
    data: dict[str, Any] = {
        "requests": requests,
        "concurrency": CONCURRENCY,
        "collection_sizes": sizes,
        "emulator_index_usage": index_usage,
        "variants": [asdict(result) for result in results],
    }
    return SectionReport(tables=[reads, edits], notes=notes, data=data)
