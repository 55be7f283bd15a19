"""Rendered pages as HTTP responses: ETag, 304, compression, caching."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from server.http.caching import NO_STORE, PAGE
from server.rendering.page_renderer import PageRender


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


def _etags(if_none_match: str) -> set[str]:
    return {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
