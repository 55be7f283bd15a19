"""One photo in, one variant out (Pillow, in a worker thread); anything that is not a
sane raster photo is refused (server/images/checks.py)."""

from __future__ import annotations

import io
from contextlib import suppress
from enum import Enum
from typing import Any

from PIL import ExifTags, Image, ImageCms, ImageOps

from server.images.checks import opened_photo
from server.images.variants import Variant


class OutputFormat(Enum):
    # Best first: the first one a browser accepts is the one it gets.
    AVIF = ("image/avif", {"quality": 50, "speed": 8})
    WEBP = ("image/webp", {"quality": 75, "method": 4})
    JPEG = ("image/jpeg", {"quality": 80, "optimize": True, "progressive": True})

    def __init__(self, media_type: str, options: dict[str, Any]) -> None:
        self.media_type = media_type
        # Chosen by eye on the sample photos: no visible loss at the size shown.
        self.options = options


# Raster formats only; GIFs and animated WebP/AVIF give their first frame.
# (SVG and the like never reach a decoder: Pillow does not read them.)
SOURCE_FORMATS = ("JPEG", "PNG", "WEBP", "AVIF", "GIF")
_SRGB = ImageCms.createProfile("sRGB")


def make_variant(source: bytes, variant: Variant, output: OutputFormat) -> bytes:
    """The variant, or ImageRefused (server/images/checks.py) with the reason."""
    with opened_photo(source, SOURCE_FORMATS) as image:
        return _transform(image, variant, output)


def _transform(image: Image.Image, variant: Variant, output: OutputFormat) -> bytes:
    # The header is read; the pixels are not, yet.
    stored_width, stored_height = image.size
    # Orientations 5-8 turn the photo a quarter: its stored width is its height.
    turned = image.getexif().get(ExifTags.Base.Orientation, 1) > 4
    width, height = (stored_height, stored_width) if turned else (stored_width, stored_height)
    target = variant.size_for(width, height)
    # JPEG can decode at 1/2, 1/4 or 1/8 scale for a fraction of the work;
    # draft picks the smallest scale that still covers the target.
    image.draft(None, (target[1], target[0]) if turned else target)
    image = _in_srgb(ImageOps.exif_transpose(image))
    if variant.height is not None:
        image = ImageOps.fit(image, target, Image.Resampling.LANCZOS)
    elif image.size != target:
        image = image.resize(target, Image.Resampling.LANCZOS, reducing_gap=3.0)
    if output is OutputFormat.JPEG and image.mode == "RGBA":
        flat = Image.new("RGB", image.size, (255, 255, 255))
        flat.paste(image, mask=image.getchannel("A"))
        image = flat
    # No EXIF, no ICC, no comments: only pixels leave. (Pillow copies `info`
    # through every operation, and some encoders write what they find there.)
    image.info = {}
    buffer = io.BytesIO()
    image.save(buffer, output.name, **output.options)
    return buffer.getvalue()


def _in_srgb(image: Image.Image) -> Image.Image:
    """RGB (RGBA with transparency) in sRGB, whatever the photo's mode and profile."""
    mode = "RGBA" if image.has_transparency_data else "RGB"
    if image.mode in ("P", "PA"):
        image = image.convert(mode)
    # Phones tag photos Display P3 and cameras Adobe RGB; the output carries no
    # profile, so the colours are converted to the sRGB browsers then assume.
    icc = image.info.get("icc_profile")
    if icc:
        # A broken or unusual profile: the pixels as they are.
        with suppress(ImageCms.PyCMSError, OSError, ValueError):
            profile = ImageCms.ImageCmsProfile(io.BytesIO(icc))
            image = ImageCms.profileToProfile(image, profile, _SRGB, outputMode=mode) or image
    return image if image.mode == mode else image.convert(mode)
