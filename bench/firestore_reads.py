"""Section: Firestore reads per 10,000 page requests, counted where the database answers."""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any

import httpx2 as httpx

from bench.context import ROUTES, BenchContext, progress
from bench.firestore_wire import ReadCountingProxy, WireCounts
from bench.report import SectionReport, Table, fixed, thousands
from server.content.local import LOCAL_FILES
from server.settings import REPO_ROOT
from tests.firestore_emulator import FirestoreEmulator
from tests.live_server import LiveServer, procfile_default_workers, procfile_process_model

NAME = "firestore"
TITLE = "5. Firestore reads, counted on the wire at the emulator"
CONCURRENCY = 50
# How long to wait after the last answer for reads the server makes on its own
# (a cache refreshing in the background would make them then).
SETTLE_SECONDS = 2.0


@dataclass(frozen=True, kw_only=True)
class LoadResult:
    requests: int
    seconds: float
    statuses: dict[int, int]
    transport_errors: int


@dataclass(frozen=True, kw_only=True)
class VariantReads:
    variant: str
    load: LoadResult
    wire: WireCounts


def run(context: BenchContext) -> SectionReport:
    requests = 2_000 if context.quick else 10_000
    logs = context.run_dir / NAME
    progress(f"{NAME}: starting the Firestore emulator")
    emulator = FirestoreEmulator.start(log_dir=logs)
    collection_sizes: dict[str, int] = {}
    results: list[VariantReads] = []
    try:
        for collection, file_name in LOCAL_FILES.items():
            documents = json.loads((REPO_ROOT / "content" / file_name).read_text("utf-8"))
            emulator.seed(collection.firestore_name, documents)  # straight in, not counted
            collection_sizes[collection.firestore_name] = len(documents)
        with ReadCountingProxy(emulator.host) as proxy:
            for variant, extra in (("cached", {}), ("uncached", dict(context.uncached_env))):
                env = {
                    "CONTENT_SOURCE": "firestore",
                    "FIRESTORE_EMULATOR_HOST": proxy.host,
                    "GOOGLE_CLOUD_PROJECT": emulator.project,
                    **extra,
                }
                server = LiveServer(
                    env=env,
                    workers=procfile_default_workers(),
                    log_path=logs / f"{NAME}-{variant}.log",
                )
                with server:
                    proxy.tally.reset()
                    progress(f"{NAME}: {variant}, {requests:,} requests at {CONCURRENCY}")
                    load = asyncio.run(_load(server.url, requests))
                    time.sleep(SETTLE_SECONDS)
                    results.append(
                        VariantReads(variant=variant, load=load, wire=proxy.tally.counts())
                    )
        index_usage = _index_usage(emulator)
    finally:
        emulator.stop()

    return _report(context, requests, collection_sizes, results, index_usage)


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
        wire = result.wire
        for collection, size in sizes.items():
            rows.append(
                [
                    result.variant,
                    collection,
                    str(size),
                    thousands(wire.read_calls.get(collection, 0)),
                    thousands(wire.documents.get(collection, 0)),
                    thousands(wire.billed_reads.get(collection, 0)),
                    fixed(wire.billed_reads.get(collection, 0) * per, 0),
                ]
            )
        rows.append(
            [
                result.variant,
                "total",
                str(sum(sizes.values())),
                thousands(sum(wire.read_calls.values())),
                thousands(sum(wire.documents.values())),
                thousands(wire.total_billed_reads),
                fixed(wire.total_billed_reads * per, 0),
            ]
        )
    table = Table(
        title=f"{TITLE}: {requests:,} page requests ({', '.join(ROUTES)} in turn), "
        f"{CONCURRENCY} at a time",
        columns=[
            "variant",
            "collection",
            "docs",
            "queries",
            "docs returned",
            "billed reads",
            "reads / 10k requests",
        ],
        rows=rows,
    )
    uncached = ", ".join(f"{key}={value}" for key, value in context.uncached_env.items())
    notes = [
        "How reads are counted: the emulator keeps no read counter for server traffic. Its "
        "only usage report (GET /emulator/v1/projects/P:indexUsage) lists queries served by "
        f"composite indexes and answered {index_usage!r} after the run; its request log and "
        ":ruleCoverage record security-rules evaluations only, which the server's emulator "
        "credentials bypass. So a TCP proxy between the app and the emulator reads the gRPC "
        "calls (HTTP/2 + HPACK for each call's :path, protobuf for the messages) and counts "
        "the documents each read call returns. Billed reads = documents returned, and 1 for "
        "a query returning none (Firestore's pricing rule).",
        f"cached: default settings; uncached: {uncached}. Process model: "
        f"{procfile_process_model()}. Start-up traffic is not counted; counts include "
        f"{SETTLE_SECONDS:g} s after the last answer.",
    ]
    for result in results:
        load, wire = result.load, result.wire
        calls = ", ".join(
            f"{method} {count:,}" for method, count in sorted(wire.calls_by_method.items())
        )
        notes.append(
            f"{result.variant}: {load.requests:,} requests in {load.seconds:.1f} s "
            f"(HTTP statuses {load.statuses}, transport errors {load.transport_errors}); "
            f"gRPC calls: {calls or 'none'}; failed calls {wire.failed_calls}"
            + (
                f"; UNREAD compressed messages {wire.undecoded_messages}"
                if wire.undecoded_messages
                else ""
            )
            + (f"; COUNTING STOPPED: {wire.parse_errors}" if wire.parse_errors else "")
        )
    data: dict[str, Any] = {
        "requests": requests,
        "concurrency": CONCURRENCY,
        "collection_sizes": sizes,
        "emulator_index_usage": index_usage,
        "variants": [asdict(result) for result in results],
    }
    return SectionReport(tables=[table], notes=notes, data=data)
