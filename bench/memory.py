"""Section: the server's memory (from /proc) before, during and after a long run of requests."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from pathlib import Path

from bench.load import WRK, run_wrk
from bench.section import BenchContext, SectionReport, Table, fixed, progress
from harness.live_server import LiveServer, procfile_default_workers
from server.site.pages import ENGLISH_ROUTE_PATHS as ROUTES

NAME = "memory"
TITLE = f"6. Server memory (RSS from /proc) under load: {', '.join(ROUTES)} in turn, {WRK}"


@dataclass(frozen=True, kw_only=True)
class MemorySample:
    requests: int  # answered so far, as wrk counted them
    processes: int
    rss_bytes: int  # summed over the server's processes
    pss_bytes: int  # the same, shared pages split between the processes that share them


def run(context: BenchContext) -> SectionReport:
    checkpoints = (1_000, 10_000) if context.quick else (10_000, 50_000, 100_000)
    workers = procfile_default_workers()
    with LiveServer(workers=workers, log_path=context.logs / f"{NAME}.log") as server:
        samples = [_sample(server.pids(), requests=0)]
        for checkpoint in checkpoints:
            answered = samples[-1].requests
            progress(f"{NAME}: requests {answered:,} to {checkpoint:,}")
            # The time limit only matters if the server stops answering.
            count = checkpoint - answered
            result = run_wrk(server.url, seconds=max(60.0, count / 20), paths=ROUTES, limit=count)
            time.sleep(1.0)  # the requests wrk dropped at its stop finish
            samples.append(_sample(server.pids(), requests=answered + result.requests))

    rows = [
        {
            "when": f"after {item.requests:,}" if previous else "start (before any page)",
            "processes": str(item.processes),
            "RSS MiB": fixed(item.rss_bytes / 2**20, 1),
            "PSS MiB": fixed(item.pss_bytes / 2**20, 1),
            "Δ RSS vs previous": _rss_change(previous, item),
            "Δ RSS vs start": _rss_change(samples[0] if previous else None, item),
        }
        for item, previous in zip(samples, [None, *samples], strict=False)
    ]
    later, last = samples[1], samples[-1]
    per_thousand = (last.rss_bytes - later.rss_bytes) / max(1, last.requests - later.requests)
    notes = [
        f"Default settings, local content, the Procfile's {workers} uvicorn worker(s). "
        "Request counts are wrk's answered responses (each thread stops at its share; "
        "up to 50 in flight at a stop are answered but not counted).",
        f"From {later.requests:,} to {last.requests:,} requests RSS moved "
        f"{_rss_change(later, last)} MiB ({per_thousand * 1000:+,.0f} bytes per 1,000 requests).",
        "RSS: VmRSS of /proc/PID/status; PSS: Pss of /proc/PID/smaps_rollup.",
    ]
    data = {"workers": workers, "samples": [asdict(item) for item in samples]}
    return SectionReport(tables=[Table(title=TITLE, rows=rows)], notes=notes, data=data)


def _sample(pids: list[int], *, requests: int) -> MemorySample:
    return MemorySample(
        requests=requests,
        processes=len(pids),
        rss_bytes=sum(_proc_kib(Path(f"/proc/{pid}/status"), "VmRSS:") * 1024 for pid in pids),
        pss_bytes=sum(_proc_kib(Path(f"/proc/{pid}/smaps_rollup"), "Pss:") * 1024 for pid in pids),
    )


def _proc_kib(path: Path, key: str) -> int:
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return 0  # the process ended between listing and reading
    return next((int(line.split()[1]) for line in lines if line.startswith(key)), 0)


def _rss_change(before: MemorySample | None, after: MemorySample) -> str:
    """In MiB, signed; none for the start."""
    return "" if before is None else f"{(after.rss_bytes - before.rss_bytes) / 2**20:+,.1f}"
