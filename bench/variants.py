"""Same-run comparison of versions of the site through the TLS + HTTP/2 edge.

`uv run python -m bench.variants [--runs 5] [--routes / /projects /ar] REV REV...`
(docs/benchmarks.md, "What pays")
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path

from bench.context import REPO_ROOT, git, progress
from bench.edge import DEBIAN_NEEDS, EdgeRun, lighthouse_runs
from bench.nginx import EdgeLayout, run_edge
from bench.prerequisites import ensure_debian_commands, ensure_lighthouse
from bench.report import Table, median, thousands
from harness.live_server import LiveServer, procfile_default_workers
from server.i18n import locale_named
from server.site_map import LANDING, PROJECTS, ROUTE_PATHS

ARABIC = locale_named("ar") or LANDING.locale
DEFAULT_ROUTES = (LANDING.path, PROJECTS.path, LANDING.in_locale(ARABIC).path)
FIGURES = (("lcp_ms", 0), ("fcp_ms", 0), ("tbt_ms", 0), ("cls", 3))


def _check_out(revision: str, folder: Path) -> None:
    """The tree of `revision` in `folder`, built: its own bundles, this tree's node_modules."""
    archive = subprocess.run(  # noqa: S603 - fixed argv
        ["git", "archive", "--format=tar", revision],  # noqa: S607
        cwd=REPO_ROOT,
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    (folder / "node_modules").symlink_to(REPO_ROOT / "node_modules")
    subprocess.run([sys.executable, "build.py"], cwd=folder, check=True)


def _spread(runs: list[EdgeRun], figure: str, digits: int) -> str:
    values = [run.figures[figure] for run in runs]
    if not values:
        return "-"
    show = (lambda v: f"{v:.{digits}f}") if digits else thousands
    return f"{show(median(values))} ({show(min(values))}-{show(max(values))})"


def compare(revisions: Sequence[str], routes: Sequence[str], runs_per_page: int) -> Table:
    # A version is named by its commit and the start of its subject.
    labels = {rev: git("log", "-1", "--format=%h %<(44,trunc)%s", rev).strip() for rev in revisions}
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    logs = REPO_ROOT / "bench" / "results" / "runs" / f"{stamp}-variants"
    logs.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        origins: dict[str, str] = {}
        for rev in revisions:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-variant-")))
            folder.chmod(0o755)
            progress(f"variants: building {labels[rev]}")
            _check_out(rev, folder / "site")
            server = LiveServer(
                workers=procfile_default_workers(),
                cwd=folder / "site",  # `python -m uvicorn` imports that tree's server package
                log_path=logs / f"app-{len(origins)}.log",
            )
            stack.enter_context(server)
            layout = EdgeLayout(root=folder, app_port=server.port)
            stack.enter_context(run_edge(layout, [], log_dir=logs / f"edge-{len(origins)}"))
            origins[rev] = layout.origins["app"]
        results, lost = lighthouse_runs(origins, routes, runs_per_page, logs)
    for outcome in lost:
        progress(f"variants: left out: {outcome}")
    rows = []
    for route in routes:
        for rev in revisions:
            chosen = [r for r in results if r.route == route and r.variant == rev]
            rows.append(
                [
                    route if rev == revisions[0] else "",
                    labels[rev],
                    str(len(chosen)),
                    *(_spread(chosen, figure, digits) for figure, digits in FIGURES),
                ]
            )
    loads = [r.load_average for r in results]
    return Table(
        title=(
            f"Through the edge, Lighthouse mobile: median (min-max) of {runs_per_page} run(s), "
            f"load average {min(loads):.1f} to {max(loads):.1f}; reports in {logs}"
        ),
        columns=["route", "version", "runs", "LCP ms", "FCP ms", "TBT ms", "CLS"],
        rows=rows,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revisions", nargs="+", metavar="REV")
    parser.add_argument("--runs", type=int, default=5, help="runs per page and version")
    parser.add_argument("--routes", nargs="+", default=list(DEFAULT_ROUTES), choices=ROUTE_PATHS)
    args = parser.parse_args(argv)
    ensure_debian_commands(DEBIAN_NEEDS)
    ensure_lighthouse()
    print(compare(args.revisions, args.routes, args.runs).render())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
