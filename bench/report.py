"""What a section hands back: tables to print, notes, and data for the JSON file."""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

_NUMERIC = re.compile(r"^[-+~≈]?[\d.,]+")


@dataclass(frozen=True, kw_only=True)
class Table:
    title: str
    columns: Sequence[str]
    rows: Sequence[Sequence[str]]

    def render(self) -> str:
        widths = [len(column) for column in self.columns]
        for row in self.rows:
            for index, cell in enumerate(row):
                widths[index] = max(widths[index], len(cell))
        # A column of figures reads best aligned right; the first column names the row.
        right = [
            index > 0 and all(_NUMERIC.match(row[index]) or not row[index] for row in self.rows)
            for index in range(len(self.columns))
        ]

        def line(cells: Sequence[str]) -> str:
            padded = (
                cell.rjust(widths[index]) if right[index] else cell.ljust(widths[index])
                for index, cell in enumerate(cells)
            )
            return "  ".join(padded).rstrip()

        rule = "  ".join("-" * width for width in widths)
        body = [line(row) for row in self.rows]
        return "\n".join([self.title, line(self.columns), rule, *body])


@dataclass(kw_only=True)
class SectionReport:
    tables: list[Table] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # JSON-ready figures, written to bench/results/latest.json.
    data: dict[str, Any] = field(default_factory=dict)


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else math.nan


def thousands(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:,.0f}"


def fixed(value: float, digits: int = 1) -> str:
    return "-" if math.isnan(value) else f"{value:,.{digits}f}"


def ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator else math.nan
