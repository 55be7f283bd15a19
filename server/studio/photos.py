"""A photo staff upload with a form: checked to be a real image within limits (server/images/
checks.py), re-encoded in its own format (the type Pillow found, never the phone's file name),
upright, without metadata: a phone's photo carries where it was taken (EXIF GPS), and the stored
original is public."""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass

from PIL import Image, ImageOps

from server.images.checks import MAX_PIXELS, ImageRefused, TooManyPixels, opened_photo

ACCEPTED_FORMATS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp"}


class PhotoProblem(Exception):
    """Why an upload is refused: its message is a key of the studio's messages."""


@dataclass(frozen=True)
class CheckedPhoto:
    data: bytes
    extension: str


def photo_limits(max_bytes: int) -> dict[str, object]:
    """The photo limits, as the studio's messages state them."""
    return {"mb": f"{max_bytes / 1_000_000:g}", "mp": MAX_PIXELS // 1_000_000}


def check_photo(data: bytes) -> CheckedPhoto:
    """The photo re-encoded, or PhotoProblem; its pixels counted from the header, none decoded."""
    try:
        with opened_photo(data, tuple(ACCEPTED_FORMATS)) as image:
            kind = str(image.format)
            image.verify()  # structure and checksums, without decoding the pixels
        with opened_photo(data, (kind,)) as image:
            # Close to the phone's own quality; the colour profile stays (else colours shift).
            options = {"quality": 92} if kind != "PNG" else {}
            buffer = io.BytesIO()
            ImageOps.exif_transpose(image).save(
                buffer, kind, **options, icc_profile=image.info.get("icc_profile")
            )
    except TooManyPixels:
        raise PhotoProblem("photo_too_many_pixels") from None
    except ImageRefused:
        raise PhotoProblem("photo_not_image") from None
    return CheckedPhoto(buffer.getvalue(), ACCEPTED_FORMATS[kind])


def preview_data_url(photo: CheckedPhoto) -> str:
    """A small JPEG of the photo as a data: URL, for the form that holds it."""
    with Image.open(io.BytesIO(photo.data)) as image:
        image.thumbnail((480, 480))
        buffer = io.BytesIO()
        image.convert("RGB").save(buffer, "JPEG", quality=75)
    return "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
