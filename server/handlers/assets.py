"""The hashed client assets of bundles/client: immutable, precompressed by build.py."""

from __future__ import annotations

from contextlib import suppress

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from server.http.caching import CONTENT_IMAGE, IMMUTABLE
from server.http.compression import preferred_encoding

_SUFFIXES = {"br": ".br", "gzip": ".gz"}  # build.py writes name.br and name.gz beside an asset


class AssetFiles(StaticFiles):
    async def get_response(self, path: str, scope: Scope) -> Response:
        # The precompressed twins are served for their originals, not by name.
        if path.endswith(tuple(_SUFFIXES.values())):
            raise HTTPException(status_code=404)
        # The twin first: one file looked up per request where build.py wrote one.
        response: Response | None = None
        encoding = preferred_encoding(Headers(scope=scope))
        if encoding is not None:
            with suppress(HTTPException):  # no twin: not worth compressing
                response = await super().get_response(path + _SUFFIXES[encoding], scope)
                response.headers["Content-Encoding"] = encoding
        if response is None:
            response = await super().get_response(path, scope)
        response.headers["Cache-Control"] = IMMUTABLE
        response.headers["Vary"] = "Accept-Encoding"
        return response


class ContentImages(StaticFiles):
    """The local content's images (content/images), served at /images/."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            response.headers["Cache-Control"] = CONTENT_IMAGE
        return response
