"""The pages' handlers: a page, a card's page, the 404 page; thin, they ask the page renderer."""

from __future__ import annotations

import logging

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from server.compression import preferred_encoding
from server.http.access_log import HTML_CACHE_STATE
from server.http.caching import NO_STORE, PAGE
from server.rendering.manifest import ASSETS_URL
from server.rendering.page_content import ContentUnavailable, UnknownItem
from server.rendering.page_renderer import PageRender, PageRenderer
from server.rendering.render_pool import RenderError
from server.site_map import ItemPage, Page, SitePage, not_found_page

logger = logging.getLogger(__name__)


async def render_page(request: Request, page: Page, status_code: int = 200) -> Response:
    renderer: PageRenderer = request.state.renderer
    encoding = preferred_encoding(request.headers)
    if isinstance(page, SitePage):  # the stones' list, filtered by the query
        page = page.filtered(request.query_params.multi_items())
    try:
        rendered = await renderer.render(page, encoding=encoding)
    except RenderError as error:
        logger.error("%s: %s", request.url.path, error)
        rendered = renderer.render_fallback(page.list_page, encoding=encoding)
        status_code = 500
    setattr(request.state, HTML_CACHE_STATE, "hit" if rendered.from_cache else "miss")
    return _response(request, rendered, status_code=status_code)


def _response(request: Request, rendered: PageRender, *, status_code: int) -> Response:
    """A rendered page, in the encoding it was asked for; 304 when the browser already has it."""
    headers = {"Cache-Control": PAGE if status_code == 200 else NO_STORE, "Vary": "Accept-Encoding"}
    if status_code == 200:
        headers["ETag"] = rendered.page.etag
        etags = request.headers.get("if-none-match", "").split(",")
        if rendered.page.etag in {tag.strip().removeprefix("W/") for tag in etags}:
            return Response(status_code=304, headers=headers)
    if rendered.encoding is not None:
        headers["Content-Encoding"] = rendered.encoding
    return Response(rendered.body, status_code=status_code, headers=headers, media_type="text/html")


async def item_page(request: Request, list_page: SitePage) -> Response:
    """/projects/{id} and the like: the list page with that card's modal open."""
    try:
        return await render_page(request, ItemPage(list_page, request.path_params["item_id"]))
    except UnknownItem as unknown:
        if unknown.other_case is not None:
            # A link typed by hand: the id exists, spelt otherwise. The
            # target is an exact id, so this never redirects twice.
            moved = ItemPage(list_page, unknown.other_case)
            return RedirectResponse(moved.path, 301, {"Cache-Control": NO_STORE})
        return await render_page(request, not_found_page(request.url.path), status_code=404)
    except ContentUnavailable:
        # Not a 404: the item may well exist. The list, empty, as the spec
        # has it for a failed read; the server logged the reason.
        return await render_page(request, list_page, status_code=503)


async def not_found(request: Request, _exc: Exception) -> Response:
    if request.url.path.startswith(("/api/", ASSETS_URL, "/images/", "/img/")):
        body = b'{"error":"not found"}'
        return Response(body, 404, {"Cache-Control": NO_STORE}, media_type="application/json")
    return await render_page(request, not_found_page(request.url.path), status_code=404)
