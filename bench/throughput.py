"""Section: HTTP throughput and latency of the landing page, against nginx on a static copy."""

from __future__ import annotations

import os
from dataclasses import asdict

import httpx2 as httpx

from bench.load import WRK, WrkResult, run_wrk
from bench.nginx import serve_static_file
from bench.section import BenchContext, SectionReport, Table, fixed, progress, times
from harness.live_server import LiveServer, procfile_default_workers

NAME = "throughput"
TITLE = f"3. HTTP throughput and latency of / ({WRK}, loopback)"
PATH = "/"
# The environment of the "uncached" runs: every cache off (docs/configuration.md).
UNCACHED_ENV = {"CONTENT_CACHE_SECONDS": "0", "HTML_CACHE": "off"}


def run(context: BenchContext) -> SectionReport:
    seconds, warm_up_seconds = (3.0, 1.0) if context.quick else (10.0, 2.0)
    production = procfile_default_workers()
    other = 2 if production == 1 else 1
    variants = [
        ("cached", {}, production),
        ("uncached", UNCACHED_ENV, production),
        (f"cached, {other} {_processes(other)}", {}, other),
    ]

    def measure(url: str) -> WrkResult:
        run_wrk(url, seconds=warm_up_seconds)  # first renders, connection set-up, JIT
        return run_wrk(url, seconds=seconds)

    runs: list[tuple[str, str, WrkResult]] = []  # (row label, processes, figures)
    for name, env, workers in variants:
        progress(f"{NAME}: app, {name} ({workers} {_processes(workers)}), {seconds:g} s")
        label = name.replace(", ", "-").replace(" ", "-")
        with LiveServer(env=env, workers=workers, log_path=context.logs / f"{label}.log") as server:
            identity = {"Accept-Encoding": "identity"}  # as wrk asks: the copy nginx serves
            landing_html = httpx.get(server.url + PATH, headers=identity).content
            runs.append((f"app, {name}", str(workers), measure(server.url + PATH)))
    progress(f"{NAME}: nginx serving a {len(landing_html):,}-byte copy of {PATH}")
    with serve_static_file(landing_html, log_dir=context.logs) as url:
        nginx = measure(url)
    runs.append(("nginx, static copy", f"auto ({os.cpu_count()})", nginx))

    rows = [
        {
            "server": label,
            "processes": processes,
            "req/s": fixed(result.requests_per_second),
            "p50 ms": fixed(result.p50_ms, 2),
            "p99 ms": fixed(result.p99_ms, 2),
            "errors": fixed(result.errors),
            "req/s ÷ nginx": times(result.requests_per_second, nginx.requests_per_second, ".3g"),
            "p50 ÷ nginx": times(result.p50_ms, nginx.p50_ms, ".3g"),
            "p99 ÷ nginx": times(result.p99_ms, nginx.p99_ms, ".3g"),
        }
        for label, processes, result in runs
    ]
    uncached = ", ".join(f"{key}={value}" for key, value in UNCACHED_ENV.items())
    notes = [
        f"'cached' and 'uncached' run the Procfile's {production} uvicorn worker(s); "
        f"the '{other} {_processes(other)}' row is the check against it.",
        f"cached: default settings; uncached: {uncached}.",
        f"{seconds:g} s per run after a {warm_up_seconds:g} s warm-up; the page is "
        f"{len(landing_html):,} bytes uncompressed (wrk sends no Accept-Encoding).",
        "nginx: worker_processes auto, access log off. wrk, the server and nginx share "
        "this machine's cores, so the figures are relative, not capacity.",
        "errors: non-2xx/3xx responses plus socket errors (connect, read, write, timeout).",
    ]
    data = {
        "path": PATH,
        "wrk_seconds": seconds,
        "html_bytes": len(landing_html),
        "procfile_workers": production,
        "uncached_env": UNCACHED_ENV,
        "runs": {label: asdict(result) for label, _, result in runs},
    }
    return SectionReport(tables=[Table(title=TITLE, rows=rows)], notes=notes, data=data)


def _processes(count: int) -> str:
    return "process" if count == 1 else "processes"
