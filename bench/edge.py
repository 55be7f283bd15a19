"""Section: the pages as visitors get them, through a TLS + HTTP/2 edge, against a static copy.

nginx (Debian's) with a certificate made for the run speaks TLS and HTTP/2 to
Chromium, as the platform's router or a CDN does, and HTTP/1.1 with keep-alive
to the app started by the Procfile's command. The same nginx serves a static
copy of every page (its HTML and each same-origin file it loads, precompressed):
the physical limit for this markup. Lighthouse 12 mobile on both, route by
route, interleaved so that a busy moment of the machine hits both alike.
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from contextlib import suppress
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import httpx2 as httpx

from bench import lighthouse_figures as lhr
from bench.context import BenchContext, progress
from bench.edge_server import EdgeLayout, run_edge
from bench.page_copy import capture, write_copy
from bench.prerequisites import LIGHTHOUSE
from bench.report import SectionReport, Table, fixed, median, ratio, thousands
from harness.chromium import CHROMIUM, CHROMIUM_ARGS
from harness.live_server import LiveServer, process_tree, procfile_default_workers
from server.site_map import ROUTE_PATHS

NAME = "edge"
TITLE = "Through a TLS + HTTP/2 edge (nginx), Lighthouse mobile"
# The six pages, English and Arabic.
EDGE_ROUTES = ROUTE_PATHS
VARIANTS = ("app", "static")
FIGURES = (
    *lhr.CATEGORIES,
    *lhr.METRICS,
    *(f"{kind}_bytes" for kind in lhr.BYTE_KINDS),
    "scripts_before_lcp",
)
# The certificate is self-signed; everything else as harness/chromium.py launches it.
EDGE_CHROMIUM_ARGS = (*CHROMIUM_ARGS, "--ignore-certificate-errors")
LIGHTHOUSE_TRIES = 4


@dataclass(frozen=True, kw_only=True)
class EdgeRun:
    variant: str  # "app" or "static"
    route: str
    attempt: int
    figures: dict[str, float]
    lcp_element: lhr.LcpElement | None
    scripts_before_lcp: list[str]
    fonts: dict[str, float]
    failed_audits: dict[str, list[str]]
    flagged_diagnostics: list[str]
    protocol: str
    console_errors: list[str]
    retried_after: list[str]  # the failures of the tries before this run
    load_average: float  # the machine's 1-minute load average as the run started
    report: str


def run(context: BenchContext) -> SectionReport:
    routes = context.routes or EDGE_ROUTES
    runs_per_page = 1 if context.quick else 3
    logs = context.run_dir / NAME
    runs: list[EdgeRun] = []
    lost: list[str] = []  # runs Lighthouse could not finish, each try failing
    with tempfile.TemporaryDirectory(prefix="bench-edge-") as folder:
        root = Path(folder)
        root.chmod(0o755)  # nginx's workers run as `nobody` when the master is root
        server = LiveServer(env={}, workers=procfile_default_workers(), log_path=logs / "app.log")
        with server:
            progress(f"{NAME}: capturing the static copy of {len(routes)} page(s)")
            layout = EdgeLayout(root=root, app_port=server.port)
            files = write_copy(capture(server.url, routes), layout.static_root)
            origins = {"app": layout.edge_origin, "static": layout.static_origin}
            with run_edge(layout, files, log_dir=logs):
                encodings = {variant: _encoding(origin) for variant, origin in origins.items()}
                for attempt in range(1, runs_per_page + 1):
                    for route in routes:
                        for variant in VARIANTS:
                            progress(f"{NAME}: {variant} {route} run {attempt}/{runs_per_page}")
                            name = f"{variant}{route.replace('/', '_')}-{attempt}.json"
                            outcome = lighthouse_run(
                                origins[variant] + route,
                                variant=variant,
                                route=route,
                                attempt=attempt,
                                report=logs / name,
                            )
                            if isinstance(outcome, EdgeRun):
                                runs.append(outcome)
                            else:
                                lost.append(outcome)
            missing = _static_misses(logs / "nginx-access.log", layout.static_port)
    if not runs:
        raise RuntimeError("no Lighthouse run finished:\n" + "\n".join(lost))
    return _report(
        runs,
        lost=lost,
        routes=routes,
        runs_per_page=runs_per_page,
        files=len(files),
        encodings=encodings,
        missing=missing,
        logs=logs,
    )


def lighthouse_run(
    url: str, *, variant: str, route: str, attempt: int, report: Path
) -> EdgeRun | str:
    """One Lighthouse run; when every try fails, what went wrong (the run is left out)."""
    argv = [
        str(LIGHTHOUSE),
        url,
        "--output=json",
        f"--output-path={report}",
        "--quiet",
        f"--chrome-flags={' '.join(['--headless', *EDGE_CHROMIUM_ARGS])}",
        f"--only-categories={','.join(lhr.CATEGORIES)}",
    ]
    failures: list[str] = []
    load_average = os.getloadavg()[0]
    # On a busy machine Lighthouse now and then loses the trace (NO_NAVSTART,
    # NO_FCP): such a run has no figures, so it is run again, a few times at most.
    while len(failures) < LIGHTHOUSE_TRIES:
        report.unlink(missing_ok=True)
        completed = _run_to_the_end(argv, env={**os.environ, "CHROME_PATH": str(CHROMIUM)})
        result: dict[str, Any] = (
            json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}
        )
        problem = (result.get("runtimeError") or {}).get("message")
        if completed.returncode == 0 and result and not problem:
            break
        failures.append(
            problem or completed.stderr.strip()[-500:] or f"exit {completed.returncode}"
        )
        progress(f"{NAME}: Lighthouse failed on {url} ({failures[-1][:200]})")
        time.sleep(2.0)
    else:
        last = failures[-1][:200]
        return f"{variant} {route} run {attempt}: {LIGHTHOUSE_TRIES} tries failed ({last})"
    return EdgeRun(
        variant=variant,
        route=route,
        attempt=attempt,
        figures=lhr.figures(result),
        lcp_element=lhr.lcp_element(result),
        scripts_before_lcp=lhr.scripts_before_lcp(result),
        fonts=lhr.font_files(result),
        failed_audits=lhr.failed_audits(result),
        flagged_diagnostics=lhr.flagged_diagnostics(result),
        protocol=lhr.document_protocol(result),
        console_errors=lhr.console_errors(result),
        retried_after=failures,
        load_average=load_average,
        report=str(report),
    )


def _run_to_the_end(
    argv: list[str], *, env: dict[str, str], timeout: float = 300.0
) -> subprocess.CompletedProcess[str]:
    """Run Lighthouse; on a timeout or an interruption, end it and the Chromium it started.

    chrome-launcher starts Chromium in a session of its own, so killing Lighthouse's
    process group would leave it running: its process tree is ended instead, by id.
    """
    process = subprocess.Popen(  # noqa: S603 - our own argv
        argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except BaseException:
        for pid in process_tree(process.pid):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        process.communicate()
        raise
    return subprocess.CompletedProcess(argv, process.returncode, stdout, stderr)


def _encoding(origin: str) -> str:
    """The Content-Encoding a browser's Accept-Encoding gets for the landing page."""
    with httpx.Client(verify=False, timeout=30.0) as client:  # our own throw-away certificate
        response = client.get(origin + "/", headers={"Accept-Encoding": "br, gzip"})
        return response.headers.get("content-encoding", "identity")


def _static_misses(access_log: Path, static_port: int) -> list[str]:
    """Paths the static copy answered 404 to: files the capture did not get."""
    if not access_log.exists():
        return []
    missing = set()
    for line in access_log.read_text(encoding="utf-8", errors="replace").splitlines():
        fields = line.split(" ", 4)
        if len(fields) >= 4 and fields[0] == str(static_port) and fields[1] == "404":
            missing.add(fields[3].strip('"'))
    return sorted(missing)


def _report(
    runs: list[EdgeRun],
    *,
    lost: list[str],
    routes: tuple[str, ...],
    runs_per_page: int,
    files: int,
    encodings: dict[str, str],
    missing: list[str],
    logs: Path,
) -> SectionReport:
    # Each figure's median over the runs of a variant and route (NaN: none).
    medians = {
        (variant, route): {
            figure: median(
                [
                    r.figures.get(figure, math.nan)
                    for r in runs
                    if (r.variant, r.route) == (variant, route)
                ]
            )
            for figure in FIGURES
        }
        for variant in VARIANTS
        for route in routes
    }

    def rows(columns: tuple[tuple[str, int], ...]) -> list[list[str]]:
        table = []
        for route in routes:
            app, static = medians["app", route], medians["static", route]
            table.append([route, "app", *(_cell(app[f], d) for f, d in columns)])
            table.append(["", "static", *(_cell(static[f], d) for f, d in columns)])
            # The ratio of the figures as printed: 0.004 over 0.000 shows no ratio.
            shown = [ratio(_rounded(app[f], d), _rounded(static[f], d)) for f, d in columns]
            table.append(["", "app÷static", *(_times(value) for value in shown)])
        return table

    timing_columns = (
        ("performance", 0),
        ("accessibility", 0),
        ("best-practices", 0),
        ("seo", 0),
        ("lcp_ms", 0),
        ("fcp_ms", 0),
        ("tbt_ms", 0),
        ("cls", 3),
        ("scripts_before_lcp", 0),
    )
    byte_columns = tuple((f"{kind}_bytes", 0) for kind in lhr.BYTE_KINDS)
    tables = [
        Table(
            title=f"{TITLE}: scores and timings, median of {runs_per_page} run(s)",
            columns=[
                "route",
                "served by",
                "perf",
                "a11y",
                "best pr.",
                "SEO",
                "LCP ms",
                "FCP ms",
                "TBT ms",
                "CLS",
                "scripts<LCP",
            ],
            rows=rows(timing_columns),
        ),
        Table(
            title=f"{TITLE}: bytes transferred by type, median of {runs_per_page} run(s)",
            columns=["route", "served by", *(kind for kind in lhr.BYTE_KINDS)],
            rows=rows(byte_columns),
        ),
        Table(
            title=f"{TITLE}: the LCP element (most frequent) and LCP phases (median, ms)",
            columns=["route", "served by", "LCP element", "TTFB", "load delay", "load", "render"],
            rows=[
                [
                    route if variant == "app" else "",
                    variant,
                    _lcp_label([r for r in runs if r.variant == variant and r.route == route]),
                    *_phases([r for r in runs if r.variant == variant and r.route == route]),
                ]
                for route in routes
                for variant in VARIANTS
            ],
        ),
    ]
    notes = [
        "Lighthouse 12, mobile (its default: simulated slow 4G, 4x CPU slowdown), Debian "
        "Chromium with --ignore-certificate-errors; each figure is the median of its runs. "
        "app: nginx (TLS, HTTP/2) proxying to the Procfile's uvicorn (HTTP/1.1, keep-alive); "
        "static: the same nginx serving the captured copy, brotli/gzip made beforehand.",
        "Content-Encoding of / for Accept-Encoding 'br, gzip': "
        + ", ".join(f"{variant} {encoding}" for variant, encoding in encodings.items())
        + f". Static copy: {files} files.",
        "scripts<LCP: script requests started before the observed (unthrottled) LCP (their "
        "URLs are in the JSON). Bytes: resource-summary transfer sizes; 'other' holds the "
        "manifest and icons. TBT counts main-thread work, so it grows with the machine's load.",
    ]
    if missing:
        notes.append("The static copy lacked (404): " + ", ".join(missing))
    protocols = {
        variant: ", ".join(sorted({r.protocol for r in runs if r.variant == variant}))
        for variant in VARIANTS
    }
    loads = [r.load_average for r in runs]
    notes.append(
        "Protocol of the page: "
        + ", ".join(f"{v} {p}" for v, p in protocols.items())
        + f". 1-minute load average as the runs started: {min(loads):.1f} to {max(loads):.1f} "
        f"(median {median(loads):.1f}) on {os.cpu_count()} CPUs."
    )
    for route in routes:
        notes.extend(_route_notes(route, [r for r in runs if r.route == route]))
    console = sorted({f"{r.variant}: {e}" for r in runs for e in r.console_errors})
    if console:
        notes.append("Console errors: " + " | ".join(console))
    if lost:
        notes.append(f"Lighthouse runs left out ({len(lost)}): " + " | ".join(lost))
    retried = [f"{r.variant} {r.route}: {e[:120]}" for r in runs for e in r.retried_after]
    if retried:
        notes.append(f"Lighthouse runs tried again ({len(retried)}): " + " | ".join(retried))
    notes.append(f"Reports and nginx.conf: {logs}")
    data: dict[str, Any] = {
        "routes": list(routes),
        "runs_per_page": runs_per_page,
        "medians": {
            variant: {route: medians[variant, route] for route in routes} for variant in VARIANTS
        },
        "ratios": {
            route: {
                figure: ratio(medians["app", route][figure], medians["static", route][figure])
                for figure in FIGURES
            }
            for route in routes
        },
        "content_encoding": encodings,
        "static_files": files,
        "static_missing": missing,
        "runs": [asdict(run) for run in runs],
        "runs_left_out": lost,
    }
    return SectionReport(tables=tables, notes=notes, data=data)


def _route_notes(route: str, runs: list[EdgeRun]) -> list[str]:
    """Fonts, failed audits and flagged diagnostics of one route (those of most runs)."""
    notes = []
    app_fonts = ""
    for variant in VARIANTS:
        chosen = [r for r in runs if r.variant == variant]
        sizes = {name: size for r in chosen for name, size in r.fonts.items()}
        fonts = ", ".join(f"{name} {size / 1000:,.0f} kB" for name, size in sorted(sizes.items()))
        failed = _most(
            chosen,
            lambda r: [
                f"{category}: {audit}"
                for category, audits in r.failed_audits.items()
                if category != "performance"
                for audit in audits
            ],
        )
        parts = []
        if variant == "app" or fonts != app_fonts:
            parts.append(f"fonts {fonts or 'none'}")
        if failed:
            parts.append("audits failed: " + ", ".join(failed))
        if variant == "app":
            app_fonts = fonts
            flagged = _most(chosen, lambda r: r.flagged_diagnostics)
            if flagged:
                parts.append("diagnostics below 0.9: " + ", ".join(flagged))
        if parts:
            notes.append(f"{route} {variant}: " + "; ".join(parts))
    return notes


def _most(runs: list[EdgeRun], values: Callable[[EdgeRun], list[str]]) -> list[str]:
    """The values found in at least half of the runs, in first-seen order."""
    counts = Counter(value for run in runs for value in dict.fromkeys(values(run)))
    return [value for value, count in counts.items() if count * 2 >= len(runs)]


def _rounded(value: float, digits: int) -> float:
    return value if math.isnan(value) else round(value, digits)


def _lcp_label(runs: list[EdgeRun]) -> str:
    labels = Counter(run.lcp_element.selector for run in runs if run.lcp_element)
    if not labels:
        return "-"
    selector, count = labels.most_common(1)[0]
    return selector if count == len(runs) else f"{selector} ({count}/{len(runs)})"


def _phases(runs: list[EdgeRun]) -> list[str]:
    names = ("TTFB", "Load Delay", "Load Time", "Render Delay")
    return [
        thousands(
            median(
                [
                    r.lcp_element.phases[n]
                    for r in runs
                    if r.lcp_element and n in r.lcp_element.phases
                ]
            )
        )
        for n in names
    ]


def _cell(value: float, digits: int) -> str:
    return fixed(value, digits) if digits else thousands(value)


def _times(value: float) -> str:
    return "-" if math.isnan(value) or math.isinf(value) else f"{value:.2f}x"
