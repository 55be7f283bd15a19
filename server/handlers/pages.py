"""HTTP handlers: thin, they ask the page renderer, the content cache and the checks."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response

from server.content.cache import ContentCache
from server.content.models import Collection
from server.http.access_log import HTML_CACHE_STATE
from server.http.beacon import read_beacon
from server.http.caching import NO_STORE
from server.http.page_response import encoded_response, page_response
from server.http.rate_limit import TokenBuckets
from server.images.urls import PhotoKeys
from server.readiness import ReadinessCheck
from server.rendering.page_renderer import (
    ContentUnavailable,
    PageRender,
    PageRenderer,
    UnknownItem,
    items_for_page,
)
from server.rendering.render_pool import RenderError
from server.site_map import ITEM_ROUTE, LIST_PAGES, PAGES, ItemPage, SitePage, not_found_page
from server.vitals import MAX_REPORT_BYTES, InvalidReportError, log_report, parse_report

logger = logging.getLogger(__name__)

Endpoint = Callable[[Request], Awaitable[Response]]


async def _render(request: Request, page: SitePage, *, status_code: int) -> Response:
    renderer: PageRenderer = request.state.renderer
    try:
        rendered = await renderer.render(page)
    except RenderError as error:
        return _fallback(request, page, error)
    return _rendered(request, rendered, status_code=status_code)


def _rendered(request: Request, rendered: PageRender, *, status_code: int) -> Response:
    setattr(request.state, HTML_CACHE_STATE, "hit" if rendered.from_cache else "miss")
    return page_response(request, rendered.page, status_code=status_code)


def _fallback(request: Request, page: SitePage, error: RenderError) -> Response:
    renderer: PageRenderer = request.state.renderer
    logger.error("%s: %s", request.url.path, error)
    setattr(request.state, HTML_CACHE_STATE, "miss")
    return page_response(request, renderer.render_fallback(page), status_code=500)


def page_endpoint(page: SitePage) -> Endpoint:
    async def endpoint(request: Request) -> Response:
        return await _render(request, page, status_code=200)

    return endpoint


def item_endpoint(list_page: SitePage) -> Endpoint:
    """/projects/{id} and the like: the list page with that card's modal open."""

    async def endpoint(request: Request) -> Response:
        item_page = ItemPage(list_page, request.path_params["item_id"])
        renderer: PageRenderer = request.state.renderer
        try:
            rendered = await renderer.render_item(item_page)
        except UnknownItem as unknown:
            if unknown.other_case is not None:
                # A link typed by hand: the id exists, spelt otherwise. The
                # target is an exact id, so this never redirects twice.
                moved = ItemPage(list_page, unknown.other_case)
                return RedirectResponse(moved.path, 301, {"Cache-Control": NO_STORE})
            return await _render(request, not_found_page(request.url.path), status_code=404)
        except ContentUnavailable:
            # Not a 404: the item may well exist. The list, empty, as the spec
            # has it for a failed read; the server logged the reason.
            return await _render(request, list_page, status_code=503)
        except RenderError as error:
            return _fallback(request, list_page, error)
        return _rendered(request, rendered, status_code=200)

    return endpoint


async def content_api(request: Request) -> Response:
    """One collection as JSON, for lists the client needs after navigating."""
    collection = Collection.from_page_key(request.path_params["collection"])
    if collection is None:
        raise HTTPException(status_code=404)
    content: ContentCache = request.state.content
    snapshot = await content.get(collection)
    if snapshot.error is not None:
        # Nothing good to send: the browser logs the spec's error line and
        # leaves the list empty. The server logged it when the read failed.
        body = json.dumps({"error": "content unavailable"}).encode()
        return Response(body, 503, {"Cache-Control": NO_STORE}, media_type="application/json")
    photo_keys: PhotoKeys = request.state.photo_keys
    keys = await photo_keys.keys_for(item.photoUrl for item in snapshot.items)
    body = json.dumps(items_for_page(snapshot.items, keys), ensure_ascii=False).encode()
    return encoded_response(
        request, body, "application/json", headers={"Cache-Control": "no-cache"}
    )


async def not_found(request: Request, _exc: Exception) -> Response:
    if request.url.path.startswith(("/api/", "/assets/", "/images/", "/img/")):
        body = b'{"error":"not found"}'
        return Response(body, 404, {"Cache-Control": NO_STORE}, media_type="application/json")
    return await _render(request, not_found_page(request.url.path), status_code=404)


async def healthz(_request: Request) -> Response:
    """Liveness: the process answers. Nothing else is checked, so nothing else restarts it."""
    return JSONResponse({"status": "ok"}, headers={"Cache-Control": NO_STORE})


async def readyz(request: Request) -> Response:
    """Readiness: whether this instance should get visitors (server/readiness.py)."""
    readiness: ReadinessCheck = request.state.readiness
    report = await readiness.run()
    return JSONResponse(
        report.as_json(),
        status_code=200 if report.ready else 503,
        headers={"Cache-Control": NO_STORE},
    )


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
