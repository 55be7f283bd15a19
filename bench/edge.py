"""Section: the pages through a TLS + HTTP/2 edge (nginx) to the app, against a static copy,
Lighthouse mobile on both (docs/benchmarks.md, "Through the edge")."""

from __future__ import annotations

import itertools
import json
import math
import os
import signal
import subprocess
import time
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

import httpx2 as httpx

from bench.nginx import run_edge
from bench.page_copy import capture
from bench.prerequisites import BROTLI_STATIC, LIGHTHOUSE
from bench.section import BenchContext, SectionReport, Table, fixed, median, progress, times
from harness.chromium import CHROMIUM, CHROMIUM_ARGS
from harness.live_server import LiveServer, process_tree, procfile_default_workers
from server.site.pages import ROUTE_PATHS

NAME = "edge"
TITLE = "Through a TLS + HTTP/2 edge (nginx), Lighthouse mobile"
VARIANTS = ("app", "static")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = {
    "lcp_ms": "largest-contentful-paint",
    "fcp_ms": "first-contentful-paint",
    "tbt_ms": "total-blocking-time",
    "cls": "cumulative-layout-shift",
}
# resource-summary's rows, as transferred (headers included).
BYTE_KINDS = ("document", "script", "stylesheet", "font", "image", "other", "total")
# The first table's (figure, heading, digits).
SCORE_COLUMNS = (
    ("performance", "perf", 0),
    ("accessibility", "a11y", 0),
    ("best-practices", "best pr.", 0),
    ("seo", "SEO", 0),
    ("lcp_ms", "LCP ms", 0),
    ("fcp_ms", "FCP ms", 0),
    ("tbt_ms", "TBT ms", 0),
    ("cls", "CLS", 3),
    ("scripts_before_lcp", "scripts<LCP", 0),
)
FIGURES = (*CATEGORIES, *METRICS, *(f"{kind}_bytes" for kind in BYTE_KINDS), "scripts_before_lcp")
LIGHTHOUSE_TRIES = 4
# What this section and bench/variants.py need from Debian.
DEBIAN_NEEDS = ("chromium", "nginx", "openssl", BROTLI_STATIC)


@dataclass(frozen=True, kw_only=True)
class EdgeRun:
    variant: str  # "app" or "static"
    route: str
    attempt: int
    figures: dict[str, float]
    scripts_before_lcp: list[str]
    console_errors: list[str]
    load_average: float  # the machine's 1-minute load average as the run started
    report: str


def run(context: BenchContext) -> SectionReport:
    routes = context.routes or ROUTE_PATHS
    runs_per_page = 1 if context.quick else 3
    workers = procfile_default_workers()
    with LiveServer(workers=workers, log_path=context.logs / "app.log") as server:
        progress(f"{NAME}: capturing the static copy of {len(routes)} page(s)")
        files = capture(server.url, routes)
        with run_edge(server.port, files, log_dir=context.logs) as origins:
            encodings = {name: _encoding(origin) for name, origin in origins.items()}
            runs, lost = lighthouse_runs(origins, routes, runs_per_page, context.logs)
    missing = _static_misses(context.logs / "nginx-access.log", origins["static"])
    if not runs:
        raise RuntimeError("no Lighthouse run finished:\n" + "\n".join(lost))
    # Each figure's median over the runs of a variant and route (NaN: none).
    medians = {
        key: {
            figure: median([r.figures[figure] for r in runs if (r.variant, r.route) == key])
            for figure in FIGURES
        }
        for key in itertools.product(VARIANTS, routes)
    }

    def table(title: str, columns: tuple[tuple[str, str, int], ...]) -> Table:
        """(figure, heading, digits) columns: per route, app, static and their ratio."""
        rows = []
        for route in routes:
            app, static = medians["app", route], medians["static", route]
            for label, figures in (("app", app), ("static", static)):
                cells = {heading: fixed(figures[f], d) for f, heading, d in columns}
                rows.append({"route": route if label == "app" else "", "served by": label, **cells})
            # Of the figures as printed: 0.004 over 0.000 shows no ratio.
            ratios = {h: times(round(app[f], d), round(static[f], d)) for f, h, d in columns}
            rows.append({"route": "", "served by": "app÷static", **ratios})
        return Table(title=f"{TITLE}: {title}", rows=rows)

    tables = [
        table(f"scores and timings, median of {runs_per_page} run(s)", SCORE_COLUMNS),
        table(
            f"bytes transferred by type, median of {runs_per_page} run(s)",
            tuple((f"{kind}_bytes", kind, 0) for kind in BYTE_KINDS),
        ),
    ]
    loads = [r.load_average for r in runs]
    notes = [
        "Lighthouse 12 mobile (simulated slow 4G, 4x CPU slowdown). app: nginx (TLS, HTTP/2) "
        "proxying to the Procfile's uvicorn; static: the same nginx serving the captured copy "
        f"({len(files)} files). Content-Encoding of /: "
        + ", ".join(f"{variant} {encoding}" for variant, encoding in encodings.items())
        + f". 1-minute load average as the runs started: {min(loads):.1f} to {max(loads):.1f} "
        f"(median {median(loads):.1f}) on {os.cpu_count()} CPUs; TBT grows with it.",
    ]
    if missing:
        notes.append("The static copy lacked (404): " + ", ".join(missing))
    console = sorted({f"{r.variant} {r.route}: {e}" for r in runs for e in r.console_errors})
    if console:
        notes.append("Console errors: " + " | ".join(console))
    if lost:
        notes.append(f"Lighthouse runs left out ({len(lost)}): " + " | ".join(lost))
    notes.append(f"Reports and nginx.conf: {context.logs}")
    data: dict[str, Any] = {
        "routes": list(routes),
        "runs_per_page": runs_per_page,
        "medians": {
            variant: {route: medians[variant, route] for route in routes} for variant in VARIANTS
        },
        "content_encoding": encodings,
        "static_missing": missing,
        "runs": [asdict(run) for run in runs],
        "runs_left_out": lost,
    }
    return SectionReport(tables=tables, notes=notes, data=data)


def lighthouse_runs(
    origins: dict[str, str], routes: Sequence[str], runs_per_page: int, logs: Path
) -> tuple[list[EdgeRun], list[str]]:
    """Every route from every origin, run after run, so a busy moment hits all of them alike;
    the runs, and what went wrong in those left out (every try failing)."""
    runs: list[EdgeRun] = []
    lost: list[str] = []
    rounds = range(1, runs_per_page + 1)
    for attempt, route, (variant, origin) in itertools.product(rounds, routes, origins.items()):
        progress(f"Lighthouse: {variant} {route} run {attempt}/{runs_per_page}")
        report = logs / f"{variant.replace('/', '-')}{route.replace('/', '_')}-{attempt}.json"
        load_average = os.getloadavg()[0]
        result = _lighthouse(origin + route, report)
        if isinstance(result, str):
            lost.append(f"{variant} {route} run {attempt}: {result}")
            continue
        console_errors = [
            f"{item.get('description', '')} ({(item.get('sourceLocation') or {}).get('url', '')})"
            for item in _items(result, "errors-in-console")
        ]
        runs.append(
            EdgeRun(
                variant=variant,
                route=route,
                attempt=attempt,
                figures=_figures(result),
                scripts_before_lcp=_scripts_before_lcp(result),
                console_errors=console_errors,
                load_average=load_average,
                report=str(report),
            )
        )
    return runs, lost


def _lighthouse(url: str, report: Path) -> dict[str, Any] | str:
    """Lighthouse's report of `url`, written to `report`; when every try fails, why."""
    argv = [
        str(LIGHTHOUSE),
        url,
        "--output=json",
        f"--output-path={report}",
        "--quiet",
        # The certificate is self-signed; the rest as harness/chromium.py launches Chromium.
        f"--chrome-flags={' '.join(['--headless', *CHROMIUM_ARGS, '--ignore-certificate-errors'])}",
        f"--only-categories={','.join(CATEGORIES)}",
    ]
    failure = ""
    # On a busy machine Lighthouse now and then loses the trace (NO_NAVSTART,
    # NO_FCP): such a run has no figures, so it is run again, a few times at most.
    for _ in range(LIGHTHOUSE_TRIES):
        report.unlink(missing_ok=True)
        exit_code, stderr = _run_to_the_end(argv)
        result = json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}
        problem = (result.get("runtimeError") or {}).get("message")
        if exit_code == 0 and result and not problem:
            return cast(dict[str, Any], result)
        failure = (problem or stderr.strip()[-500:] or f"exit {exit_code}")[:200]
        progress(f"Lighthouse failed on {url} ({failure})")
        time.sleep(2.0)
    return f"{LIGHTHOUSE_TRIES} tries failed ({failure})"


def _figures(report: dict[str, Any]) -> dict[str, float]:
    """Category scores (0-100), metrics (ms; CLS unitless), bytes by type, scripts before LCP;
    NaN where the report has none."""
    rows = {str(item.get("resourceType")): item for item in _items(report, "resource-summary")}
    found: dict[str, Any] = {
        **{c: report["categories"].get(c, {}).get("score") for c in CATEGORIES},
        **{f: report["audits"].get(audit, {}).get("numericValue") for f, audit in METRICS.items()},
        **{f"{k}_bytes": rows[k].get("transferSize", 0) for k in BYTE_KINDS if k in rows},
        "scripts_before_lcp": len(_scripts_before_lcp(report)),
    }
    figures = {f: math.nan if found.get(f) is None else float(found[f]) for f in FIGURES}
    return figures | {c: figures[c] * 100 for c in CATEGORIES}


def _scripts_before_lcp(report: dict[str, Any]) -> list[str]:
    """Script requests the page started before its (observed) LCP. The trace's clock is in µs:
    a request's time is ms after `networkStartTimeTs`."""
    metrics = _items(report, "metrics")
    details = report["audits"].get("network-requests", {}).get("details") or {}
    start = (details.get("debugData") or {}).get("networkStartTimeTs")
    lcp = metrics[0].get("observedLargestContentfulPaintTs") if metrics else None
    if start is None or lcp is None:
        return []
    return [
        str(item.get("url", ""))
        for item in details.get("items", [])
        if item.get("resourceType") == "Script"
        and float(start) + float(item.get("networkRequestTime", math.inf)) * 1000 < float(lcp)
    ]


def _items(report: dict[str, Any], audit: str) -> list[dict[str, Any]]:
    details = report["audits"].get(audit, {}).get("details") or {}
    return cast(list[dict[str, Any]], details.get("items", []))


def _run_to_the_end(argv: list[str]) -> tuple[int, str]:
    """Run Lighthouse: its exit code and stderr; on a timeout or an interruption, end it and
    the Chromium it started.

    chrome-launcher starts Chromium in a session of its own, so killing Lighthouse's
    process group would leave it running: its process tree is ended instead, by id.
    """
    env = {**os.environ, "CHROME_PATH": str(CHROMIUM)}
    process = subprocess.Popen(  # noqa: S603 - our own argv
        argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        stderr = process.communicate(timeout=300)[1]
    except BaseException:
        for pid in process_tree(process.pid):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        process.communicate()
        raise
    return process.returncode, stderr


def _encoding(origin: str) -> str:
    """The Content-Encoding a browser's Accept-Encoding gets for the landing page."""
    with httpx.Client(verify=False, timeout=30.0) as client:  # our own throw-away certificate
        response = client.get(origin + "/", headers={"Accept-Encoding": "br, gzip"})
        return response.headers.get("content-encoding", "identity")


def _static_misses(access_log: Path, static_origin: str) -> list[str]:
    """Paths the static copy answered 404 to: files the capture did not get."""
    port, missing = str(urlsplit(static_origin).port), set()
    for line in access_log.read_text(encoding="utf-8", errors="replace").splitlines():
        fields = line.split(" ", 4)
        if len(fields) >= 4 and fields[0] == port and fields[1] == "404":
            missing.add(fields[3].strip('"'))
    return sorted(missing)
