"""Same-run comparison of versions of the site through the TLS + HTTP/2 edge
(docs/benchmarks.md, "What pays"): `python -m bench.variants [--runs N] [--routes ...] REV...`"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path

from bench.edge import DEBIAN_NEEDS, METRICS, SCORE_COLUMNS, EdgeRun, lighthouse_runs
from bench.nginx import run_edge
from bench.prerequisites import ensure_debian_commands, ensure_lighthouse
from bench.run import RESULTS_DIR, git
from bench.section import Table, fixed, median, progress
from harness.live_server import LiveServer, procfile_default_workers
from server.settings import REPO_ROOT
from server.site.languages import locale_named
from server.site.pages import LANDING, PROJECTS

ARABIC = locale_named("ar") or LANDING.locale
DEFAULT_ROUTES = (LANDING.path, PROJECTS.path, LANDING.in_locale(ARABIC).path)
FIGURES = [column for column in SCORE_COLUMNS if column[0] in METRICS]


def _check_out(revision: str, folder: Path) -> None:
    """The tree of `revision` in `folder`, built: its own bundles, this tree's node_modules."""
    archive = folder.with_suffix(".tar")
    git_archive = ["git", "archive", f"--output={archive}", revision]
    subprocess.run(git_archive, cwd=REPO_ROOT, check=True)  # noqa: S603 - fixed argv
    shutil.unpack_archive(archive, folder, filter="data")
    (folder / "node_modules").symlink_to(REPO_ROOT / "node_modules")
    subprocess.run([sys.executable, "build.py"], cwd=folder, check=True)


def _spread(runs: list[EdgeRun], figure: str, digits: int) -> str:
    values = [run.figures[figure] for run in runs]
    if not values:
        return "-"
    low, middle, high = (fixed(v, digits) for v in (min(values), median(values), max(values)))
    return f"{middle} ({low}-{high})"


def compare(revisions: Sequence[str], routes: Sequence[str], runs_per_page: int) -> Table:
    # A version is named by its commit and the start of its subject.
    labels = {rev: git("log", "-1", "--format=%h %<(44,trunc)%s", rev) for rev in revisions}
    logs = RESULTS_DIR / "runs" / f"{datetime.now(UTC):%Y%m%dT%H%M%SZ}-variants"
    with ExitStack() as stack:
        origins: dict[str, str] = {}
        for index, rev in enumerate(revisions):
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-variant-")))
            site = folder / "site"
            progress(f"variants: building {labels[rev]}")
            _check_out(rev, site)
            # `python -m uvicorn` in that tree imports its server package.
            log = logs / f"app-{index}.log"
            server = stack.enter_context(
                LiveServer(workers=procfile_default_workers(), cwd=site, log_path=log)
            )
            edge = run_edge(server.port, [], log_dir=logs / f"edge-{index}")
            origins[rev] = stack.enter_context(edge)["app"]
        results, lost = lighthouse_runs(origins, routes, runs_per_page, logs)
    for outcome in lost:
        progress(f"variants: left out: {outcome}")
    rows = []
    for route in routes:
        for rev in revisions:
            chosen = [r for r in results if r.route == route and r.variant == rev]
            figures = {
                heading: _spread(chosen, figure, digits) for figure, heading, digits in FIGURES
            }
            version = {"route": route if rev == revisions[0] else "", "version": labels[rev]}
            rows.append({**version, "runs": str(len(chosen)), **figures})
    loads = [r.load_average for r in results]
    return Table(
        title=(
            f"Through the edge, Lighthouse mobile: median (min-max) of {runs_per_page} run(s), "
            f"load average {min(loads):.1f} to {max(loads):.1f}; reports in {logs}"
        ),
        rows=rows,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revisions", nargs="+", metavar="REV")
    parser.add_argument("--runs", type=int, default=5, help="runs per page and version")
    parser.add_argument("--routes", nargs="+", default=list(DEFAULT_ROUTES), metavar="PATH")
    args = parser.parse_args(argv)
    if any(not route.startswith("/") for route in args.routes):  # a card's or stone's page too
        parser.error("--routes: each route is a path starting with /")
    ensure_debian_commands(DEBIAN_NEEDS)
    ensure_lighthouse()
    print(compare(args.revisions, args.routes, args.runs).render())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
