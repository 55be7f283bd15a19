"""POST /vitals: web-vitals beacons from visitors' browsers."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from server.http.rate_limit import TokenBuckets
from server.site_map import ITEM_ROUTE, LIST_PAGES, PAGES
from server.vitals import MAX_REPORT_BYTES, InvalidReportError, log_report, parse_report

# The paths a web-vitals report may name: the pages, and the cards' pages as
# their route (ui/vitals.ts).
_KNOWN_PATHS = frozenset(
    [page.path for page in PAGES] + [page.path + ITEM_ROUTE for page in LIST_PAGES]
)
# sendBeacon sends a string as text/plain (no CORS preflight needed);
# application/json is what a script posting by hand would say.
BEACON_MEDIA_TYPES = frozenset({"text/plain", "application/json"})


async def vitals_report(request: Request) -> Response:
    """One web-vitals beacon from a visitor's browser: checked, logged, answered 204."""
    limits: TokenBuckets = request.state.vitals_limits
    if not limits.allow(request.client.host if request.client else "unknown"):
        # The bucket gains a token a second.
        return PlainTextResponse("Too Many Requests", 429, {"Retry-After": "1"})
    media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media_type not in BEACON_MEDIA_TYPES:
        raise HTTPException(415, "Unsupported Media Type")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_REPORT_BYTES:
        raise HTTPException(413, "Content Too Large")
    body = bytearray()
    # Counted as it arrives: a chunked body has no length to check up front.
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_REPORT_BYTES:
            raise HTTPException(413, "Content Too Large")
    try:
        report = parse_report(bytes(body), known_paths=_KNOWN_PATHS)
    except InvalidReportError as error:
        return PlainTextResponse(f"Bad Request: {error}", 400)
    log_report(report)
    return Response(status_code=204)
