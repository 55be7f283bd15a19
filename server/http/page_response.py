"""Rendered pages and other bodies as HTTP responses: ETag, 304, compression, caching."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from server.compression import MIN_COMPRESS_BYTES, compress, preferred_encoding
from server.http.caching import NO_STORE, PAGE
from server.rendering.page_renderer import PageRender


def accepted_encoding(request: Request) -> str | None:
    """The compression the client prefers, to ask the renderer for."""
    return preferred_encoding(request.headers.get("accept-encoding", ""))


def page_response(request: Request, rendered: PageRender, *, status_code: int = 200) -> Response:
    """A rendered page, in the encoding it was asked for; 304 when the browser already has it."""
    headers = {"Cache-Control": PAGE if status_code == 200 else NO_STORE, "Vary": "Accept-Encoding"}
    if status_code == 200:
        headers["ETag"] = rendered.page.etag
        if rendered.page.etag in _etags(request.headers.get("if-none-match", "")):
            return Response(status_code=304, headers=headers)
    if rendered.encoding is not None:
        headers["Content-Encoding"] = rendered.encoding
    return Response(rendered.body, status_code=status_code, headers=headers, media_type="text/html")


def encoded_response(
    request: Request,
    body: bytes,
    media_type: str,
    *,
    status_code: int = 200,
    headers: dict[str, str] | None = None,
) -> Response:
    """`body` compressed as the client prefers."""
    headers = {**(headers or {}), "Vary": "Accept-Encoding"}
    encoding = accepted_encoding(request)
    if encoding is not None and len(body) >= MIN_COMPRESS_BYTES:
        body = compress(body, encoding)
        headers["Content-Encoding"] = encoding
    return Response(body, status_code=status_code, headers=headers, media_type=media_type)


def _etags(if_none_match: str) -> set[str]:
    return {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
