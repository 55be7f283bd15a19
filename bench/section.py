"""What a section is given (the run's options, where its files go) and hands back (tables to
print, notes, data for the JSON file)."""

from __future__ import annotations

import math
import re
import statistics
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_NUMERIC = re.compile(r"^[-+~≈]?[\d.,]+")


@dataclass(frozen=True, kw_only=True)
class BenchContext:
    quick: bool
    logs: Path  # the section's files: server logs, nginx.conf, Lighthouse reports
    routes: tuple[str, ...] = ()  # --routes (edge); empty: each section's own


@dataclass(frozen=True, kw_only=True)
class Table:
    title: str
    rows: Sequence[Mapping[str, str]]  # heading -> cell, the first row's headings in order

    def render(self) -> str:
        columns = {column: [row[column] for row in self.rows] for column in self.rows[0]}
        widths = {column: max(map(len, [column, *cells])) for column, cells in columns.items()}
        # A column of figures reads best aligned right; the first column names the row.
        right = {
            column: index > 0 and all(_NUMERIC.match(cell) or not cell for cell in cells)
            for index, (column, cells) in enumerate(columns.items())
        }

        def line(row: Mapping[str, str]) -> str:
            padded = (
                row[c].rjust(widths[c]) if right[c] else row[c].ljust(widths[c]) for c in columns
            )
            return "  ".join(padded).rstrip()

        rule = "  ".join("-" * width for width in widths.values())
        return "\n".join([self.title, line({c: c for c in columns}), rule, *map(line, self.rows)])


@dataclass(frozen=True, kw_only=True)
class SectionReport:
    tables: list[Table]
    notes: list[str]
    data: dict[str, Any]  # JSON-ready figures, written to bench/results/latest.json


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else math.nan


def fixed(value: float, digits: int = 0) -> str:
    return "-" if math.isnan(value) else f"{value:,.{digits}f}"


def times(numerator: float, denominator: float, spec: str = ".2f") -> str:
    """The ratio as "1.05x"; "-" where there is none."""
    value = numerator / denominator if denominator else math.nan
    return "-" if math.isnan(value) else f"{value:{spec}}x"


def progress(message: str) -> None:
    """A line on stderr, so stdout holds only the tables."""
    print(f"==> {message}", file=sys.stderr, flush=True)
