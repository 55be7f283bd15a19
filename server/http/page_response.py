"""A rendered page as an HTTP response: 304 when the browser has it, else its HTML in the
encoding the request takes (a cached page keeps the copy made, for the next visitor)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from server.http.caching import NO_STORE, PAGE
from server.http.compression import encoded, preferred_encoding


def page_response(
    request: Request, html: bytes, *, etag: str, copies: dict[str, bytes], status_code: int
) -> Response:
    """Only a 200 is cached (by browsers and a CDN)."""
    headers = {"Cache-Control": PAGE if status_code == 200 else NO_STORE, "Vary": "Accept-Encoding"}
    if status_code == 200:
        headers["ETag"] = etag
        etags = request.headers.get("if-none-match", "").split(",")
        if etag in {tag.strip().removeprefix("W/") for tag in etags}:
            return Response(status_code=304, headers=headers)
    body, encoding = encoded(html, preferred_encoding(request.headers), copies)
    if encoding is not None:
        headers["Content-Encoding"] = encoding
    return Response(body, status_code=status_code, headers=headers, media_type="text/html")
