"""HTTP handlers: thin, they ask the page renderer and the content store."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from server.content.loading import log_fetch_error
from server.content.models import Collection
from server.content.store import ContentStore, ContentUnavailableError
from server.rendering.page_renderer import PageRenderer, items_for_page
from server.site_map import NOT_FOUND, SitePage

Endpoint = Callable[[Request], Awaitable[Response]]


def _renderer(request: Request) -> PageRenderer:
    renderer: PageRenderer = request.state.renderer
    return renderer


def page_endpoint(page: SitePage) -> Endpoint:
    async def endpoint(request: Request) -> Response:
        html = await _renderer(request).render(page, request.url.path)
        return HTMLResponse(html)

    return endpoint


async def content_api(request: Request) -> Response:
    """One collection as JSON, for lists the client needs after navigating."""
    collection = Collection.from_page_key(request.path_params["collection"])
    if collection is None:
        raise HTTPException(status_code=404)
    store: ContentStore = request.state.store
    try:
        items = await store.fetch(collection)
    except ContentUnavailableError as error:
        # The browser logs the spec's error line too, and leaves the list empty.
        log_fetch_error(collection, error)
        return JSONResponse({"error": str(error)}, status_code=503)
    return JSONResponse(items_for_page(items))


async def not_found(request: Request, _exc: Exception) -> Response:
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": "not found"}, status_code=404)
    html = await _renderer(request).render(NOT_FOUND, request.url.path)
    return HTMLResponse(html, status_code=404)
