"""What every section is given: the run's options and where to put its files."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
RESULTS_DIR = REPO_ROOT / "bench" / "results"


@dataclass(frozen=True, kw_only=True)
class BenchContext:
    quick: bool
    # This run's files: server logs, Lighthouse reports (section by section).
    run_dir: Path
    # Routes chosen with --routes (sections that take them: edge); empty: each section's own.
    routes: tuple[str, ...] = ()


def progress(message: str) -> None:
    """A line on stderr, so stdout holds only the tables."""
    print(f"==> {message}", file=sys.stderr, flush=True)


def git(*args: str) -> str:
    """What git prints for `args` in this repository, stripped ("" when it fails)."""
    completed = subprocess.run(  # noqa: S603 - fixed argv
        ["git", *args],  # noqa: S607
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    return completed.stdout.strip()
