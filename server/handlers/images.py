"""GET /img/{variant}/{version}/{kind}/{source}: a photo sized for the screen (thin)."""

from __future__ import annotations

import logging

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from server.http.caching import CONTENT_IMAGE, IMMUTABLE, NO_STORE
from server.http.compression import accepted
from server.images.pipeline import PhotoPipeline, PhotoRefused, UnknownPhoto
from server.images.transform import OutputFormat
from server.images.urls import VERSION, source_from_route
from server.images.variants import VARIANTS

logger = logging.getLogger(__name__)

ROUTE_PATH = "/img/{variant}/{version}/{kind}/{source:path}"


def negotiate(accept: str) -> OutputFormat:
    """AVIF or WebP when the browser names it, else JPEG, which all take. ("image/*"
    and "*/*" are sent by browsers that decode neither AVIF nor WebP too.)"""
    names = accepted(accept)
    return next((f for f in OutputFormat if names.get(f.media_type)), OutputFormat.JPEG)


async def photo_variant(request: Request) -> Response:
    pipeline: PhotoPipeline = request.state.photos  # routed only with IMAGE_ROUTE on
    params = request.path_params
    variant = VARIANTS.get(params["variant"])
    source = source_from_route(params["kind"], params["source"])
    if variant is None or source is None or not VERSION.fullmatch(params["version"]):
        raise HTTPException(status_code=404)
    problem = pipeline.problem(source)
    if problem is not None:
        # Never a redirect here: that would send visitors wherever a URL says.
        logger.warning("Image route: refused %s: %s", source.photo_url[:300], problem)
        raise HTTPException(status_code=404)
    output = (
        OutputFormat.JPEG if variant.jpeg_only else negotiate(request.headers.get("accept", ""))
    )
    try:
        body, current = await pipeline.variant(source, params["version"], variant, output)
    except UnknownPhoto:
        logger.warning("Image route: refused %s: not a photo of the content", source.photo_url)
        raise HTTPException(status_code=404) from None
    except PhotoRefused as refusal:
        # The page must not break: the browser gets the photo as it is.
        logger.warning(
            "Image route: %s for %s: %s; sending the original",
            variant.name,
            source.photo_url,
            refusal,
        )
        return RedirectResponse(source.photo_url, 302, {"Cache-Control": NO_STORE})
    headers = {
        # A changed local file answers an old URL too, but only for a while.
        "Cache-Control": IMMUTABLE if current else CONTENT_IMAGE,
        # A JPEG-only variant is the same whatever the Accept header.
        **({} if variant.jpeg_only else {"Vary": "Accept"}),
    }
    return Response(body, media_type=output.media_type, headers=headers)
