"""GET /api/content/{collection}: one collection as JSON, for lists after client-side navigation."""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from server.content.cache import ContentCache
from server.content.models import Collection, photo_urls
from server.http.caching import NO_STORE
from server.http.compression import encoded, preferred_encoding
from server.images.urls import PhotoKeys
from server.rendering.page_content import items_for_page


async def content_api(request: Request) -> Response:
    try:
        collection = Collection(request.path_params["collection"])
    except ValueError:
        raise HTTPException(status_code=404) from None
    content: ContentCache = request.state.content
    snapshot = await content.get(collection)
    if snapshot.error is not None:
        # Nothing good to send: the browser logs the spec's error line and
        # leaves the list empty. The server logged it when the read failed.
        body = json.dumps({"error": "content unavailable"}).encode()
        return Response(body, 503, {"Cache-Control": NO_STORE}, media_type="application/json")
    photo_keys: PhotoKeys = request.state.photo_keys
    keys = await photo_keys.keys_for(photo_urls(snapshot.items))
    body = json.dumps(items_for_page(snapshot.items, keys), ensure_ascii=False).encode()
    headers = {"Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
    body, encoding = encoded(body, preferred_encoding(request.headers))
    if encoding is not None:
        headers["Content-Encoding"] = encoding
    return Response(body, headers=headers, media_type="application/json")
