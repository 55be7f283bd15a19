"""The pages' handlers: a page, a card's page, the 404 page; thin, they ask the page renderer.
And a rendered page as a response, theirs and the enquiry page's."""

from __future__ import annotations

from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from server.http.caching import NO_STORE, PAGE
from server.http.compression import encoded, preferred_encoding
from server.logs import current_request
from server.rendering.manifest import ASSETS_URL
from server.rendering.page_content import ContentUnavailable, UnknownItem
from server.rendering.page_renderer import PageRender, PageRenderer
from server.site.pages import ItemPage, Page, SitePage, not_found_page


async def render_page(request: Request, page: Page, status_code: int = 200) -> Response:
    renderer: PageRenderer = request.state.renderer
    if isinstance(page, SitePage):  # the stones' list, filtered by the query
        page = page.filtered(request.query_params.multi_items())
    rendered = await renderer.render(page)
    current_request.get().html_cache = "hit" if rendered.from_cache else "miss"
    return page_response(request, rendered, status_code)


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


def page_response(
    request: Request,
    rendered: PageRender,
    status_code: int,
    *,
    shared: bool = True,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """A `shared` page is the same for every visitor: a 200 has an ETag and is cached, by
    browsers and a CDN, and its compressed copy is kept for the next. One made for this
    request (a form) is never kept. A failed render is a 500."""
    page = rendered.page
    status_code = 500 if rendered.failed else status_code
    cached = shared and status_code == 200
    all_headers = {
        "Cache-Control": PAGE if cached else NO_STORE,
        "Vary": "Accept-Encoding",
        **(headers or {}),
    }
    if cached:
        all_headers["ETag"] = page.etag
        etags = request.headers.get("if-none-match", "").split(",")
        if page.etag in {tag.strip().removeprefix("W/") for tag in etags}:
            return Response(status_code=304, headers=all_headers)
    copies = page.copies if shared else None
    body, encoding = encoded(page.html, preferred_encoding(request.headers), copies)
    if encoding is not None:
        all_headers["Content-Encoding"] = encoding
    return Response(body, status_code=status_code, headers=all_headers, media_type="text/html")
