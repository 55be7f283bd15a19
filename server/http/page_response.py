"""Rendered pages and other bodies as HTTP responses: ETag, 304, compression, caching."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from server.http.caching import NO_STORE, PAGE
from server.http.compression import MIN_COMPRESS_BYTES, compress, preferred_encoding
from server.rendering.page_renderer import RenderedPage


def page_response(request: Request, page: RenderedPage, *, status_code: int = 200) -> Response:
    """A cached page; 304 when the browser already has it."""
    headers = {"Cache-Control": PAGE if status_code == 200 else NO_STORE}
    if status_code == 200:
        headers["ETag"] = page.etag
        if page.etag in _etags(request.headers.get("if-none-match", "")):
            return Response(status_code=304, headers={**headers, "Vary": "Accept-Encoding"})
    return encoded_response(
        request,
        page.html,
        "text/html",
        status_code=status_code,
        headers=headers,
        encoded=page.encoded,
    )


def encoded_response(
    request: Request,
    body: bytes,
    media_type: str,
    *,
    status_code: int = 200,
    headers: dict[str, str] | None = None,
    encoded: dict[str, bytes] | None = None,
) -> Response:
    """`body` compressed as the client prefers; `encoded` keeps the compressed copies."""
    headers = {**(headers or {}), "Vary": "Accept-Encoding"}
    encoding = preferred_encoding(request.headers.get("accept-encoding", ""))
    if encoding is not None and len(body) >= MIN_COMPRESS_BYTES:
        cache = encoded if encoded is not None else {}
        if encoding not in cache:
            cache[encoding] = compress(body, encoding)
        body = cache[encoding]
        headers["Content-Encoding"] = encoding
    return Response(body, status_code=status_code, headers=headers, media_type=media_type)


def _etags(if_none_match: str) -> set[str]:
    return {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
