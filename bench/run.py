"""The benchmark's one command: a table per section, bench/results/latest.json, and the
run's logs in bench/results/runs/<UTC time>/ (docs/benchmarks.md)."""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from bench import edge, enquiries, firestore_cost, memory, throughput
from bench.prerequisites import build_bundles, ensure_debian_commands, ensure_lighthouse
from bench.section import BenchContext, SectionReport, progress
from server.settings import REPO_ROOT

RESULTS_DIR = REPO_ROOT / "bench" / "results"
Section = Callable[[BenchContext], SectionReport]
# Name on the command line -> (section, Debian commands it needs), in running order.
SECTIONS: dict[str, tuple[Section, tuple[str, ...]]] = {
    throughput.NAME: (throughput.run, ("wrk", "nginx")),
    firestore_cost.NAME: (firestore_cost.run, ()),
    memory.NAME: (memory.run, ("wrk",)),
    edge.NAME: (edge.run, edge.DEBIAN_NEEDS),
    enquiries.NAME: (enquiries.run, ("wrk",)),
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer runs, shorter loads")
    parser.add_argument(
        "--only", nargs="+", choices=list(SECTIONS), metavar="SECTION", help=", ".join(SECTIONS)
    )
    parser.add_argument("--routes", nargs="+", metavar="PATH", help="edge: only these pages")
    args = parser.parse_args(argv)
    # A SIGTERM (a timeout, a supervisor) ends the run as Ctrl-C does: through every
    # section's `finally`, which stops its servers, nginx and browsers.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    if args.routes and any(not route.startswith("/") for route in args.routes):
        parser.error("--routes: each route is a path starting with /")
    chosen = [name for name in SECTIONS if not args.only or name in args.only]

    started_at = datetime.now(UTC)
    ensure_debian_commands({command for name in chosen for command in SECTIONS[name][1]})
    if edge.NAME in chosen:
        ensure_lighthouse()
    build_bundles()
    run_dir = RESULTS_DIR / "runs" / started_at.strftime("%Y%m%dT%H%M%SZ")
    run_dir.mkdir(parents=True, exist_ok=True)
    context = BenchContext(quick=args.quick, logs=run_dir, routes=tuple(args.routes or ()))

    commit = git("rev-parse", "HEAD")
    branch = git("rev-parse", "--abbrev-ref", "HEAD")
    dirty = bool(git("status", "--porcelain"))
    print(
        f"Fine Stone benchmark, {'quick' if args.quick else 'full'} run, "
        f"{started_at:%Y-%m-%d %H:%M} UTC\ncommit {commit[:10]} on {branch}"
        f"{' (uncommitted changes)' if dirty else ''}; {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}; load average (1, 5, 15 min) at start: "
        + ", ".join(f"{value:.1f}" for value in os.getloadavg())
    )
    sections = {name: _run_section(name, SECTIONS[name][0], context) for name in chosen}
    failed = [name for name, section in sections.items() if "error" in section]
    wall = (datetime.now(UTC) - started_at).total_seconds()
    result = {
        "started_at": started_at.isoformat(),
        "wall_seconds": wall,
        "quick": args.quick,
        "sections_run": chosen,
        "failed": failed,
        "git": {"commit": commit, "branch": branch, "dirty": dirty},
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "sections": sections,
    }
    # NaN (a figure that could not be taken) as null: strict JSON has no NaN.
    strict = json.loads(json.dumps(result), parse_constant=lambda _: None)
    text = json.dumps(strict, indent=2, ensure_ascii=False) + "\n"
    (RESULTS_DIR / "latest.json").write_text(text, encoding="utf-8")
    (run_dir / "results.json").write_text(text, encoding="utf-8")
    print(f"\nWall time {wall:.0f} s ({wall / 60:.1f} min). Wrote {RESULTS_DIR / 'latest.json'}")
    if failed:
        print(f"Sections that failed: {', '.join(failed)}")
    return 1 if failed else 0


def _run_section(name: str, run: Section, context: BenchContext) -> dict[str, Any]:
    """Print the section's tables and notes; its figures for the JSON file."""
    progress(f"section {name}")
    started = time.monotonic()
    load_before = os.getloadavg()
    try:
        report = run(replace(context, logs=context.logs / name))
    except Exception as error:  # one broken section must not hide the others' figures
        detail = "".join(traceback.format_exception(error))
        print(f"\n[{name}] FAILED: {error}\n", flush=True)
        print(detail, file=sys.stderr)
        return {"error": detail, "section_seconds": time.monotonic() - started}
    seconds = time.monotonic() - started
    load_after = os.getloadavg()
    print()
    for table in report.tables:
        print(table.render(), end="\n\n")
    for note in report.notes:
        print(f"  - {note}")
    print(
        f"  ({name}: {seconds:.0f} s; 1-minute load average {load_before[0]:.1f} before, "
        f"{load_after[0]:.1f} after, on {os.cpu_count()} CPUs)",
        flush=True,
    )
    return {
        "section_seconds": seconds,
        "load_average_before": load_before,
        "load_average_after": load_after,
        "notes": report.notes,
        **report.data,
    }


def git(*args: str) -> str:
    """What git prints for `args` in this repository, stripped ("" when it fails)."""
    completed = subprocess.run(["git", *args], cwd=REPO_ROOT, capture_output=True, text=True)  # noqa: S603, S607
    return completed.stdout.strip()


if __name__ == "__main__":
    sys.exit(main())
