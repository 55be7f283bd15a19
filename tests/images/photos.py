"""Photos made for the image tests: real ones, and hostile ones."""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image, ImageCms

EXIF_ORIENTATION = 0x0112


def jpeg(
    size: tuple[int, int] = (2000, 1500),
    *,
    colour: tuple[int, int, int] = (180, 160, 130),
    orientation: int | None = None,
    with_icc: bool = False,
) -> bytes:
    """A JPEG with a red block in its stored top-left corner, to see where it ends up."""
    image = Image.new("RGB", size, colour)
    image.paste((255, 0, 0), (0, 0, size[0] // 4, size[1] // 4))
    options: dict[str, object] = {"quality": 90}
    exif = Image.Exif()
    exif[0x010F] = "Test Camera Maker"  # Make: metadata a variant must not carry
    if orientation is not None:
        exif[EXIF_ORIENTATION] = orientation
    options["exif"] = exif.tobytes()
    if with_icc:
        options["icc_profile"] = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", **options)
    return buffer.getvalue()


def encoded(size: tuple[int, int], image_format: str, mode: str = "RGB") -> bytes:
    buffer = io.BytesIO()
    Image.new(mode, size, (90, 120, 150, 200)[: len(mode)]).save(buffer, image_format)
    return buffer.getvalue()


def truncated_jpeg() -> bytes:
    whole = jpeg((1600, 1200))
    return whole[: len(whole) // 2]


def png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims width x height: a decompression bomb."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)  # 1-bit greyscale
    pixels = zlib.compress(b"\x00" * 1024)
    signature = b"\x89PNG\r\n\x1a\n"
    return signature + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


SVG_WITH_SCRIPT = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" onload="alert(1)">'
    b"<script>alert(document.cookie)</script><rect width='400' height='300'/></svg>"
)
NOT_AN_IMAGE = b"<!doctype html><title>Not a photo</title><p>Hello"


def decoded(body: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(body))
    image.load()
    return image


def rgb_at(image: Image.Image, xy: tuple[int, int]) -> tuple[int, int, int]:
    pixel = image.convert("RGB").getpixel(xy)
    assert isinstance(pixel, tuple)
    red, green, blue = pixel[:3]
    return int(red), int(green), int(blue)
