"""The pages' handlers: a page, a card's page, the 404 page; thin, they ask the page renderer."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from server.http.caching import NO_STORE
from server.http.page_response import page_response
from server.logs import current_request
from server.rendering.manifest import ASSETS_URL
from server.rendering.page_content import ContentUnavailable, UnknownItem
from server.rendering.page_renderer import PageRenderer
from server.site.pages import ItemPage, Page, SitePage, not_found_page


async def render_page(request: Request, page: Page, status_code: int = 200) -> Response:
    renderer: PageRenderer = request.state.renderer
    if isinstance(page, SitePage):  # the stones' list, filtered by the query
        page = page.filtered(request.query_params.multi_items())
    rendered = await renderer.render(page)
    current_request.get().html_cache = "hit" if rendered.from_cache else "miss"
    return page_response(request, rendered, status_code=status_code)


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
        return JSONResponse({"error": "not found"}, 404, {"Cache-Control": NO_STORE})
    return await render_page(request, not_found_page(request.url.path), status_code=404)
