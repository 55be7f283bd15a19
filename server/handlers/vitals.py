"""POST /vitals: web-vitals beacons from visitors' browsers (ui/vitals.ts), checked and logged.
What a report is, and what the server takes: docs/operating.md, "Web vitals from visitors"."""

from __future__ import annotations

import json
import logging
from collections.abc import Collection
from dataclasses import dataclass

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from server.http.rate_limit import TokenBuckets
from server.site.pages import ITEM_ROUTE, LIST_PAGES, PAGES

# The pages, and the cards' pages as their route.
_KNOWN_PATHS = frozenset([p.path for p in PAGES] + [p.path + ITEM_ROUTE for p in LIST_PAGES])
# sendBeacon sends a string as text/plain (no CORS preflight needed);
# application/json is what a script posting by hand would say.
BEACON_MEDIA_TYPES = frozenset({"text/plain", "application/json"})
# The largest value taken as real (LCP and INP in ms): past it a report is a bug or made up.
METRIC_LIMITS = {"LCP": 120_000.0, "INP": 60_000.0, "CLS": 100.0}
RATINGS = frozenset({"good", "needs-improvement", "poor"})
REPORT_FIELDS = frozenset({"name", "value", "rating", "path"})
MAX_REPORT_BYTES = 2048

logger = logging.getLogger("server.vitals")


class InvalidReportError(ValueError):
    """The body is not a report the site would send."""


@dataclass(frozen=True, kw_only=True)
class VitalsReport:
    name: str
    value: float
    rating: str
    path: str  # the route the visitor landed on


def parse_report(body: bytes, *, known_paths: Collection[str]) -> VitalsReport:
    """The report in `body`, or InvalidReportError saying what is wrong."""
    try:
        data = json.loads(body.decode("utf-8"))
    except ValueError as error:  # not UTF-8, or not JSON
        raise InvalidReportError(f"not JSON: {error}") from None
    if not isinstance(data, dict) or set(data) != REPORT_FIELDS:
        raise InvalidReportError(f"expected an object with exactly {sorted(REPORT_FIELDS)}")
    for field, allowed in (("name", METRIC_LIMITS), ("rating", RATINGS)):
        if not isinstance(data[field], str) or data[field] not in allowed:
            raise InvalidReportError(f"{field}: expected one of {sorted(allowed)}")
    name, value, path = data["name"], data["value"], data["path"]
    # bool is an int in Python: true is no measurement. NaN and Infinity, which Python's json
    # reads, are out of range too.
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if not number or not 0 <= value <= METRIC_LIMITS[name]:
        raise InvalidReportError(f"value: expected a number from 0 to {METRIC_LIMITS[name]:g}")
    if not isinstance(path, str) or path not in known_paths:
        raise InvalidReportError("path: not a page of the site")
    return VitalsReport(name=name, value=float(value), rating=data["rating"], path=path)


async def vitals_report(request: Request) -> Response:
    limits: TokenBuckets = request.state.vitals_limits
    if not limits.allow(request.client.host if request.client else "unknown"):
        # The bucket gains a token a second.
        return PlainTextResponse("Too Many Requests", 429, {"Retry-After": "1"})
    media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media_type not in BEACON_MEDIA_TYPES:
        raise HTTPException(415, "Unsupported Media Type")
    body = bytearray()
    # Counted as it arrives, whatever Content-Length says (a chunked body has none).
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_REPORT_BYTES:
            raise HTTPException(413, "Content Too Large")
    try:
        report = parse_report(bytes(body), known_paths=_KNOWN_PATHS)
    except InvalidReportError as error:
        return PlainTextResponse(f"Bad Request: {error}", 400)
    name, value, rating, path = report.name, report.value, report.rating, report.path
    # Readable, and with each part as a field for JSON logs.
    extra = {"metric": name, "value": value, "rating": rating, "page": path}
    logger.info("web vital %s %g (%s) on %s", name, round(value, 4), rating, path, extra=extra)
    return Response(status_code=204)
