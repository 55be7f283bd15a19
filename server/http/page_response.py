"""A rendered page as an HTTP response: 304 when the browser has it, else its HTML in the
encoding the request takes (a cached page keeps the copy made, for the next visitor)."""

from __future__ import annotations

from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import Response

from server.http.caching import NO_STORE, PAGE
from server.http.compression import encoded, preferred_encoding


def page_response(
    request: Request,
    html: bytes,
    *,
    status_code: int,
    etag: str | None,
    copies: dict[str, bytes] | None = None,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """A page with an `etag` is the same for every visitor: a 200 is cached, by browsers and a
    CDN. One without (a form, made for this request) is never kept."""
    cached = status_code == 200 and etag is not None
    all_headers = {
        "Cache-Control": PAGE if cached else NO_STORE,
        "Vary": "Accept-Encoding",
        **(headers or {}),
    }
    if cached and etag is not None:
        all_headers["ETag"] = etag
        etags = request.headers.get("if-none-match", "").split(",")
        if etag in {tag.strip().removeprefix("W/") for tag in etags}:
            return Response(status_code=304, headers=all_headers)
    body, encoding = encoded(html, preferred_encoding(request.headers), copies)
    if encoding is not None:
        all_headers["Content-Encoding"] = encoding
    return Response(body, status_code=status_code, headers=all_headers, media_type="text/html")
