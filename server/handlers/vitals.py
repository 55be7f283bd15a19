"""POST /vitals: web-vitals beacons from visitors' browsers."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from server.http.beacon import read_beacon
from server.http.rate_limit import TokenBuckets
from server.site_map import ITEM_ROUTE, LIST_PAGES, PAGES
from server.vitals import MAX_REPORT_BYTES, InvalidReportError, log_report, parse_report

# The paths a web-vitals report may name: the pages, and the cards' pages as
# their route (ui/vitals.ts).
_KNOWN_PATHS = frozenset(
    [page.path for page in PAGES] + [page.path + ITEM_ROUTE for page in LIST_PAGES]
)


async def vitals_report(request: Request) -> Response:
    """One web-vitals beacon from a visitor's browser: checked, logged, answered 204."""
    limits: TokenBuckets = request.state.vitals_limits
    if not limits.allow(request.client.host if request.client else "unknown"):
        # The bucket gains a token a second.
        return PlainTextResponse("Too Many Requests", 429, {"Retry-After": "1"})
    body = await read_beacon(request, max_bytes=MAX_REPORT_BYTES)
    try:
        report = parse_report(body, known_paths=_KNOWN_PATHS)
    except InvalidReportError as error:
        return PlainTextResponse(f"Bad Request: {error}", 400)
    log_report(report)
    return Response(status_code=204)
