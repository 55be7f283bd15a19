"""What a photo must be before any of its pixels is decoded, for the image route and the studio
alike: one of the formats asked for, at most MAX_PIXELS (from its header)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager

from PIL import Image, UnidentifiedImageError

MAX_PIXELS = 50_000_000  # the largest phone and camera sensors pass; a decompression bomb does not


class ImageRefused(Exception):
    """Not something the site decodes; the message is the reason, to log."""


class TooManyPixels(ImageRefused):
    pass


@contextmanager
def opened_photo(data: bytes, formats: tuple[str, ...]) -> Iterator[Image.Image]:
    """The image, size checked, nothing decoded; ImageRefused, also for a failure as it decodes."""
    try:
        with Image.open(io.BytesIO(data), formats=formats) as image:
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise TooManyPixels(f"{width}x{height} is more than {MAX_PIXELS} pixels")
            yield image
    except UnidentifiedImageError:
        names = [name.replace("WEBP", "WebP") for name in formats]
        raise ImageRefused(f"not a {', '.join(names[:-1])} or {names[-1]} image") from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        # Pillow's own guard, far beyond the limit, on opening.
        raise TooManyPixels(f"too many pixels: {error}") from None
    except (OSError, SyntaxError, ValueError, EOFError) as error:
        # Truncated or corrupt data, or a mode Pillow cannot convert.
        raise ImageRefused(f"cannot decode: {error}") from None
