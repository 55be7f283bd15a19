"""Section: Lighthouse (npm, devDependency) on each route, mobile and desktop."""

from __future__ import annotations

import json
import math
import os
import subprocess
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.context import ROUTES, BenchContext, progress
from bench.lighthouse_figures import CATEGORIES
from bench.prerequisites import LIGHTHOUSE
from bench.report import SectionReport, Table, fixed, median_figures, thousands
from harness.chromium import CHROMIUM, CHROMIUM_ARGS
from harness.live_server import LiveServer, procfile_default_workers

NAME = "lighthouse"
TITLE = "1. Lighthouse"
# Mobile is Lighthouse's default form factor; desktop is its preset.
FORM_FACTORS: dict[str, tuple[str, ...]] = {"mobile": (), "desktop": ("--preset=desktop",)}
FIGURES = (
    "performance",
    "accessibility",
    "best-practices",
    "seo",
    "lcp_ms",
    "tbt_ms",
    "cls",
    "total_bytes",
    "script_bytes",
)


@dataclass(frozen=True, kw_only=True)
class LighthouseRun:
    form_factor: str
    route: str
    # Category scores 0-100, metrics in ms, byte weights as transferred.
    figures: dict[str, float]
    failed_third_party: list[str]
    console_errors: list[str]
    runtime_error: str | None
    report: str


def run(context: BenchContext) -> SectionReport:
    runs_per_page = 1 if context.quick else 3
    reports_dir = context.run_dir / NAME
    runs: list[LighthouseRun] = []
    server = LiveServer(
        env={}, workers=procfile_default_workers(), log_path=context.run_dir / NAME / f"{NAME}.log"
    )
    with server:
        for form_factor, flags in FORM_FACTORS.items():
            for route in ROUTES:
                for attempt in range(1, runs_per_page + 1):
                    progress(f"{NAME}: {form_factor} {route} run {attempt}/{runs_per_page}")
                    name = f"{form_factor}{route.replace('/', '_')}-{attempt}.json"
                    runs.append(
                        _lighthouse(
                            server.url + route,
                            form_factor=form_factor,
                            route=route,
                            flags=flags,
                            report=reports_dir / name,
                        )
                    )

    medians = median_figures(
        runs,
        FIGURES,
        keys=[(form_factor, route) for form_factor in FORM_FACTORS for route in ROUTES],
        key=lambda run: (run.form_factor, run.route),
    )
    tables = [
        Table(
            title=f"{TITLE}, {form_factor}: median of {runs_per_page} run(s)",
            columns=[
                "route",
                "perf",
                "a11y",
                "best pr.",
                "SEO",
                "LCP ms",
                "TBT ms",
                "CLS",
                "total bytes",
                "script bytes",
            ],
            rows=[
                [
                    route,
                    *(thousands(medians[form_factor, route][c]) for c in CATEGORIES),
                    thousands(medians[form_factor, route]["lcp_ms"]),
                    thousands(medians[form_factor, route]["tbt_ms"]),
                    fixed(medians[form_factor, route]["cls"], 3),
                    thousands(medians[form_factor, route]["total_bytes"]),
                    thousands(medians[form_factor, route]["script_bytes"]),
                ]
                for route in ROUTES
            ],
        )
        for form_factor in FORM_FACTORS
    ]
    offsite = sorted({urlsplit(url).netloc for run in runs for url in run.failed_third_party})
    console = sorted({error for run in runs for error in run.console_errors})
    errors = sorted({run.runtime_error for run in runs if run.runtime_error})
    notes = [
        "Scores 0-100; each figure is the median of the runs on its own. Mobile: Lighthouse's "
        "default (simulated slow 4G, 4x CPU slowdown); desktop: --preset=desktop.",
        "Byte weights are transfer sizes (headers included); script bytes from the "
        "resource-summary audit.",
        "Offline: third-party requests fail"
        + (f" ({', '.join(offsite)})" if offsite else "")
        + ", so what they would load (the YouTube player of the video iframe) is missing "
        "from total bytes, script bytes and TBT; online it would add to them.",
    ]
    if console:
        notes.append("Console errors (they cost Best Practices): " + " | ".join(console))
    if errors:
        notes.append("Lighthouse runtime errors: " + " | ".join(errors))
    notes.append(f"Reports: {reports_dir}")
    data: dict[str, Any] = {
        "runs_per_page": runs_per_page,
        "medians": {
            form_factor: {route: medians[form_factor, route] for route in ROUTES}
            for form_factor in FORM_FACTORS
        },
        "runs": [asdict(run) for run in runs],
    }
    return SectionReport(tables=tables, notes=notes, data=data)


def lighthouse_command(
    url: str, *, report: Path, chromium_args: Sequence[str], flags: Sequence[str] = ()
) -> list[str]:
    """Lighthouse (the npm devDependency) on `url`: the four categories, JSON to `report`."""
    return [
        str(LIGHTHOUSE),
        url,
        "--output=json",
        f"--output-path={report}",
        "--quiet",
        f"--chrome-flags={' '.join(['--headless', *chromium_args])}",
        f"--only-categories={','.join(CATEGORIES)}",
        *flags,
    ]


def _lighthouse(
    url: str, *, form_factor: str, route: str, flags: tuple[str, ...], report: Path
) -> LighthouseRun:
    argv = lighthouse_command(url, report=report, chromium_args=CHROMIUM_ARGS, flags=flags)
    completed = subprocess.run(  # noqa: S603 - our own argv
        argv,
        env={**os.environ, "CHROME_PATH": str(CHROMIUM)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if completed.returncode != 0 or not report.exists():
        raise RuntimeError(f"lighthouse failed on {url}:\n{completed.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    return LighthouseRun(
        form_factor=form_factor,
        route=route,
        figures=_figures(result),
        failed_third_party=_failed_third_party(result, urlsplit(url).netloc),
        console_errors=[
            f"{item.get('description', '')} ({_error_source(item)})"
            for item in _items(result, "errors-in-console")
        ],
        runtime_error=(result.get("runtimeError") or {}).get("message"),
        report=str(report),
    )


def _figures(result: dict[str, Any]) -> dict[str, float]:
    figures: dict[str, float] = {}
    for category in CATEGORIES:
        score = result["categories"].get(category, {}).get("score")
        figures[category] = math.nan if score is None else float(score) * 100
    for figure, audit in (
        ("lcp_ms", "largest-contentful-paint"),
        ("tbt_ms", "total-blocking-time"),
        ("cls", "cumulative-layout-shift"),
        ("total_bytes", "total-byte-weight"),
    ):
        value = result["audits"].get(audit, {}).get("numericValue")
        figures[figure] = math.nan if value is None else float(value)
    scripts = [i for i in _items(result, "resource-summary") if i.get("resourceType") == "script"]
    if scripts:
        figures["script_bytes"] = float(scripts[0].get("transferSize", math.nan))
    else:  # older or newer Lighthouse without that audit: add up the requests
        figures["script_bytes"] = float(
            sum(
                item.get("transferSize", 0)
                for item in _items(result, "network-requests")
                if item.get("resourceType") == "Script"
            )
        )
    return figures


def _failed_third_party(result: dict[str, Any], origin: str) -> list[str]:
    return sorted(
        str(item["url"])
        for item in _items(result, "network-requests")
        if urlsplit(str(item.get("url", ""))).netloc not in ("", origin)
        and int(item.get("statusCode", 0)) <= 0
    )


def _error_source(item: dict[str, Any]) -> str:
    location = item.get("sourceLocation") or {}
    url = str(location.get("url") or item.get("url") or item.get("source") or "")
    # Ports change from run to run; the path names the resource.
    parts = urlsplit(url)
    return parts.path if parts.hostname in ("127.0.0.1", "localhost") else url


def _items(result: dict[str, Any], audit: str) -> list[dict[str, Any]]:
    details = result["audits"].get(audit, {}).get("details") or {}
    items: list[dict[str, Any]] = details.get("items", [])
    return items
