"""A rendered page as an HTTP response: 304 when the browser has it, else its HTML in the
encoding the request takes (a cached page keeps the copy made, for the next visitor)."""

from __future__ import annotations

from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import Response

from server.http.caching import NO_STORE, PAGE
from server.http.compression import encoded, preferred_encoding
from server.rendering.page_renderer import PageRender


def page_response(
    request: Request,
    rendered: PageRender,
    *,
    status_code: int,
    shared: bool = True,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """A `shared` page is the same for every visitor: a 200 is cached, by browsers and a CDN.
    One that is not (a form, made for this request) is never kept; one React failed on is a
    500."""
    status_code = 500 if rendered.failed else status_code
    cached = shared and status_code == 200
    all_headers = {
        "Cache-Control": PAGE if cached else NO_STORE,
        "Vary": "Accept-Encoding",
        **(headers or {}),
    }
    page = rendered.page
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
