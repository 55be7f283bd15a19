"""The hashed client assets of bundles/client: immutable, precompressed by build.py."""

from __future__ import annotations

import mimetypes
from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from server.compression import preferred_encoding
from server.http.caching import CONTENT_IMAGE, IMMUTABLE

# build.py writes name.br and name.gz beside each compressible asset.
_SUFFIXES = {"br": ".br", "gzip": ".gz"}


class AssetFiles:
    def __init__(self, directory: Path) -> None:
        self._root = directory.resolve()

    def _file(self, relative: str) -> Path:
        path = (self._root / relative).resolve()
        # No way out of the folder, and no serving of the precompressed twins by name.
        if (
            not path.is_relative_to(self._root)
            or not path.is_file()
            or path.suffix in {".br", ".gz"}
        ):
            raise HTTPException(status_code=404)
        return path

    async def serve(self, request: Request) -> Response:
        path = self._file(request.path_params["path"])
        media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        headers = {"Cache-Control": IMMUTABLE, "Vary": "Accept-Encoding"}
        encoding = preferred_encoding(request.headers)
        if encoding is not None:
            twin = path.with_name(path.name + _SUFFIXES[encoding])
            if twin.is_file():
                headers["Content-Encoding"] = encoding
                return FileResponse(twin, media_type=media_type, headers=headers)
        return FileResponse(path, media_type=media_type, headers=headers)


class ContentImages(StaticFiles):
    """The local content's images (content/images), served at /images/."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            response.headers["Cache-Control"] = CONTENT_IMAGE
        return response
