"""Figures read from one Lighthouse 12 JSON report (lhr): what the edge section prints."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = {
    "lcp_ms": "largest-contentful-paint",
    "fcp_ms": "first-contentful-paint",
    "tbt_ms": "total-blocking-time",
    "cls": "cumulative-layout-shift",
}
# resource-summary's rows, as transferred (headers included).
BYTE_KINDS = ("document", "script", "stylesheet", "font", "image", "other", "total")


@dataclass(frozen=True, kw_only=True)
class LcpElement:
    selector: str
    snippet: str
    # TTFB, Load Delay, Load Time, Render Delay (ms, simulated), as Lighthouse splits LCP.
    phases: dict[str, float]


def figures(report: dict[str, Any]) -> dict[str, float]:
    """Category scores (0-100), metrics (ms; CLS unitless), bytes by type, scripts before LCP."""
    result: dict[str, float] = {}
    for category in CATEGORIES:
        score = report["categories"].get(category, {}).get("score")
        result[category] = math.nan if score is None else float(score) * 100
    for figure, audit in METRICS.items():
        value = report["audits"].get(audit, {}).get("numericValue")
        result[figure] = math.nan if value is None else float(value)
    summary = {str(item.get("resourceType")): item for item in items(report, "resource-summary")}
    for kind in BYTE_KINDS:
        row = summary.get(kind)
        result[f"{kind}_bytes"] = math.nan if row is None else float(row.get("transferSize", 0))
    result["scripts_before_lcp"] = float(len(scripts_before_lcp(report)))
    return result


def lcp_element(report: dict[str, Any]) -> LcpElement | None:
    details = report["audits"].get("largest-contentful-paint-element", {}).get("details") or {}
    node: dict[str, Any] | None = None
    phases: dict[str, float] = {}
    # Lighthouse 12: a list of two tables, the element and then the phases.
    for part in details.get("items", []):
        for row in part.get("items", []) if isinstance(part, dict) else []:
            if isinstance(row.get("node"), dict):
                node = row["node"]
            elif "phase" in row and "timing" in row:
                phases[str(row["phase"])] = float(row["timing"])
    if node is None:
        return None
    return LcpElement(
        selector=str(node.get("selector", "")), snippet=str(node.get("snippet", "")), phases=phases
    )


def scripts_before_lcp(report: dict[str, Any]) -> list[str]:
    """Script requests the page started before its (observed) LCP.

    Both clocks are the trace's, in microseconds: the requests' times are ms
    after `networkStartTimeTs`, the LCP is `observedLargestContentfulPaintTs`.
    """
    metrics = items(report, "metrics")
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


FONT_SUFFIXES = (".woff2", ".woff", ".ttf", ".otf")


def font_files(report: dict[str, Any]) -> dict[str, float]:
    """Each font file the page downloaded (file name) and its transfer size.

    Fonts a page fetches for the next one (ui/boot/nextPageFonts.ts) are
    `fetch` requests, which Lighthouse counts as "other": they are fonts all
    the same, on the page's first load.
    """
    fonts = {}
    for item in items(report, "network-requests"):
        path = urlsplit(str(item.get("url", ""))).path
        if item.get("resourceType") == "Font" or path.endswith(FONT_SUFFIXES):
            fonts[path.rsplit("/", 1)[-1]] = float(item.get("transferSize", 0))
    return fonts


def failed_audits(report: dict[str, Any]) -> dict[str, list[str]]:
    """Per category, the audits that cost it points: weight above 0, score below 1."""
    failed: dict[str, list[str]] = {}
    for category in CATEGORIES:
        for reference in report["categories"].get(category, {}).get("auditRefs", []):
            audit = report["audits"].get(reference.get("id"), {})
            score = audit.get("score")
            if reference.get("weight", 0) > 0 and score is not None and score < 1:
                failed.setdefault(category, []).append(str(reference["id"]))
    return failed


def flagged_diagnostics(report: dict[str, Any]) -> list[str]:
    """Ids of performance insights and diagnostics below 0.9 (they weigh nothing themselves)."""
    flagged = []
    for reference in report["categories"].get("performance", {}).get("auditRefs", []):
        audit = report["audits"].get(reference.get("id"), {})
        score = audit.get("score")
        if (
            reference.get("weight", 0) == 0
            and score is not None
            and score < 0.9
            and audit.get("scoreDisplayMode") not in ("manual", "informative", "notApplicable")
        ):
            flagged.append(str(reference["id"]))
    return flagged


def document_protocol(report: dict[str, Any]) -> str:
    """The protocol the page itself came over ("h2" through the edge)."""
    for item in items(report, "network-requests"):
        if item.get("resourceType") == "Document":
            return str(item.get("protocol", ""))
    return ""


def console_errors(report: dict[str, Any]) -> list[str]:
    errors = []
    for item in items(report, "errors-in-console"):
        location = item.get("sourceLocation") or {}
        url = str(location.get("url") or item.get("url") or item.get("source") or "")
        errors.append(f"{item.get('description', '')} ({urlsplit(url).path or url})")
    return errors


def items(report: dict[str, Any], audit: str) -> list[dict[str, Any]]:
    details = report["audits"].get(audit, {}).get("details") or {}
    found: list[dict[str, Any]] = details.get("items", [])
    return found
