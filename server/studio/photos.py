"""Photos staff upload: checked to be a real image within limits, then stored.

A photo is stored re-encoded in its own format, turned upright and without
its metadata: a phone's photo carries where it was taken (EXIF GPS), and the
stored original is public. The image route makes the sizes and formats
visitors get; the file's name and type come from what Pillow found in it,
never from the name the phone gave.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import secrets
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import anyio
from PIL import Image, ImageOps

from server.content.local import IMAGES_FOLDER
from server.content.models import Collection
from server.content.photo_urls import LOCAL_IMAGES_PREFIX

# Pillow's format name -> the stored file's extension.
ACCEPTED_FORMATS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp"}
# A 50-megapixel phone photo passes; a decompression bomb does not.
MAX_PIXELS = 50_000_000
# A photo held for a form that came back with a mistake is kept this long;
# a form abandoned with one leaves it to be removed by a later hold.
HELD_SECONDS = 24 * 3600
HELD_NAME = re.compile(r"[0-9a-f]{24}\.(?:jpg|png|webp)")


class PhotoProblem(Exception):
    """Why an upload is refused: a key of the studio's messages."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


@dataclass(frozen=True)
class CheckedPhoto:
    data: bytes
    extension: str
    width: int
    height: int


def check_photo(data: bytes, *, max_bytes: int) -> CheckedPhoto:
    """The photo, upright and without metadata, or PhotoProblem.

    The limits are checked on the header alone, before any pixel is decoded."""
    if not data:
        raise PhotoProblem("photo_required")
    if len(data) > max_bytes:
        raise PhotoProblem("photo_too_big")
    try:
        with warnings.catch_warnings():
            # Pillow warns on large images; the limit below decides instead.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                kind, (width, height) = image.format, image.size
                if kind not in ACCEPTED_FORMATS:
                    raise PhotoProblem("photo_not_image")
                if width * height > MAX_PIXELS:
                    raise PhotoProblem("photo_too_many_pixels")
                image.verify()  # structure and checksums, without decoding the pixels
    except PhotoProblem:
        raise
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise PhotoProblem("photo_not_image") from None
    upright = _without_metadata(data, kind)
    return CheckedPhoto(upright, ACCEPTED_FORMATS[kind], *_size(upright))


# What each format is saved with: close to the phone's own quality.
_SAVE_OPTIONS: dict[str, dict[str, object]] = {
    "JPEG": {"quality": 92},
    "WEBP": {"quality": 92},
    "PNG": {},
}


def _without_metadata(data: bytes, kind: str) -> bytes:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                upright = ImageOps.exif_transpose(image)
                # The colour profile stays: without it the colours shift.
                options = dict(_SAVE_OPTIONS[kind], icc_profile=image.info.get("icc_profile"))
                buffer = io.BytesIO()
                upright.save(buffer, kind, **options)
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise PhotoProblem("photo_not_image") from None
    return buffer.getvalue()


def _size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        return image.size


def held_name(photo: CheckedPhoto) -> str:
    """A new, unguessable name for a photo held between a form and its next Save."""
    return f"{secrets.token_hex(12)}.{photo.extension}"


def from_held(name: str, data: bytes) -> CheckedPhoto:
    """A held photo read back: it was checked and cleaned when it was first sent."""
    return CheckedPhoto(data, name.rsplit(".", 1)[1], *_size(data))


def preview_data_url(photo: CheckedPhoto, width: int = 480) -> str:
    """A small JPEG of the photo as a data: URL, for the form that holds it."""
    with Image.open(io.BytesIO(photo.data)) as image:
        image.thumbnail((width, width))
        buffer = io.BytesIO()
        image.convert("RGB").save(buffer, "JPEG", quality=75)
    return "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


class LocalPhotoFolder:
    """Photos in content/images/<collection>/, linked as /images/<collection>/<file>."""

    def __init__(self, content_dir: Path) -> None:
        self._root = content_dir / IMAGES_FOLDER
        # Outside the images folder: a held photo is not public.
        self._held = content_dir / ".held"

    async def store(self, collection: Collection, document_id: str, photo: CheckedPhoto) -> str:
        """Write the photo under a name of its own (so no other photo is replaced); its URL."""
        digest = hashlib.sha256(photo.data).hexdigest()[:12]
        relative = f"{collection.page_key}/{document_id}-{digest}.{photo.extension}"
        path = self._root / relative
        temporary = path.with_name(f".{path.name}.tmp")

        def write() -> None:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(photo.data)
            temporary.replace(path)

        await anyio.to_thread.run_sync(write)
        return LOCAL_IMAGES_PREFIX + relative

    async def discard(self, collection: Collection, photo_url: str) -> None:
        """Remove a photo the studio no longer links; only ever in the collection's folder."""
        prefix = f"{LOCAL_IMAGES_PREFIX}{collection.page_key}/"
        if not photo_url.startswith(prefix):
            return
        folder = (self._root / collection.page_key).resolve()
        path = (folder / photo_url.removeprefix(prefix)).resolve()
        if path.parent == folder:
            await anyio.Path(path).unlink(missing_ok=True)

    async def hold(self, collection: Collection, photo: CheckedPhoto) -> str:
        """Keep a checked photo for the form's next Save; its name. Old held ones go."""
        name = held_name(photo)
        folder = self._held / collection.page_key

        def write() -> None:
            folder.mkdir(parents=True, exist_ok=True)
            stale = time.time() - HELD_SECONDS
            for old in folder.iterdir():
                if old.stat().st_mtime < stale:
                    old.unlink(missing_ok=True)
            (folder / name).write_bytes(photo.data)

        await anyio.to_thread.run_sync(write)
        return name

    async def held(self, collection: Collection, name: str) -> CheckedPhoto | None:
        """The photo held under `name`, or None (gone, or not a held photo's name)."""
        if not HELD_NAME.fullmatch(name):
            return None
        path = anyio.Path(self._held / collection.page_key / name)
        try:
            return from_held(name, await path.read_bytes())
        except FileNotFoundError:
            return None

    async def close(self) -> None:
        """Nothing to close: files."""

    async def release(self, collection: Collection, name: str) -> None:
        if HELD_NAME.fullmatch(name):
            await anyio.Path(self._held / collection.page_key / name).unlink(missing_ok=True)
