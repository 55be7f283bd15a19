"""Pillow's part: sizes and crops exact, never enlarged, turned upright, nothing but pixels."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from server.images.checks import ImageRefused
from server.images.transform import OutputFormat, make_variant
from server.images.variants import SQUARES, VARIANTS, WIDTHS
from tests.images.photos import (
    NOT_AN_IMAGE,
    SVG_WITH_SCRIPT,
    decoded,
    encoded,
    jpeg,
    png_claiming,
    rgb_at,
    truncated_jpeg,
)

CAMERA_PHOTO = jpeg((4000, 3000))


def variant(name: str) -> bytes:
    return make_variant(CAMERA_PHOTO, VARIANTS[name], OutputFormat.JPEG)


@pytest.mark.parametrize("width", WIDTHS)
def test_each_width_is_exact_and_keeps_the_aspect_ratio(width: int) -> None:
    assert decoded(variant(f"w{width}")).size == (width, width * 3 // 4)


@pytest.mark.parametrize("side", SQUARES)
def test_each_square_is_exact(side: int) -> None:
    assert decoded(variant(f"s{side}")).size == (side, side)


def test_a_square_is_cut_from_the_centre() -> None:
    # 4000x3000 with a red top-left quarter-block: the centred square loses its left
    # 500 px, so the red reaches only (1000 - 500) / 3000 of the square's width.
    square = decoded(variant("s400"))
    assert rgb_at(square, (10, 10))[0] > 200
    assert rgb_at(square, (80, 10))[0] < 200


@pytest.mark.parametrize(("name", "size"), [("w1920", (640, 480)), ("s800", (480, 480))])
def test_a_small_photo_is_never_enlarged(name: str, size: tuple[int, int]) -> None:
    made = make_variant(jpeg((640, 480)), VARIANTS[name], OutputFormat.WEBP)
    assert decoded(made).size == size


def test_a_photo_taken_sideways_is_turned_upright() -> None:
    # Stored 800x600 with EXIF orientation 6 (turn 90° clockwise): shown 600x800,
    # its stored top-left corner now at the top right.
    made = make_variant(jpeg((800, 600), orientation=6), VARIANTS["w480"], OutputFormat.JPEG)
    upright = decoded(made)
    assert upright.size == (480, 640)
    assert rgb_at(upright, (470, 10))[0] > 200
    assert rgb_at(upright, (10, 10))[0] < 200


def test_only_pixels_leave_no_exif_no_profile() -> None:
    photo = jpeg((1200, 900), orientation=1, with_icc=True)
    assert decoded(photo).getexif()
    assert decoded(photo).info.get("icc_profile")
    for output in OutputFormat:
        made = decoded(make_variant(photo, VARIANTS["w320"], output))
        assert not made.getexif(), output
        assert "icc_profile" not in made.info, output
        assert "exif" not in made.info, output


@pytest.mark.parametrize(
    ("source", "mode"),
    [
        (encoded((900, 600), "PNG", "RGBA"), "RGBA"),
        (encoded((900, 600), "PNG", "P"), "RGB"),
        (encoded((900, 600), "WEBP"), "RGB"),
        (encoded((900, 600), "AVIF"), "RGB"),
        (encoded((900, 600), "GIF", "L"), "RGB"),
    ],
    ids=["png-alpha", "png-palette", "webp", "avif", "gif"],
)
def test_every_raster_format_is_read(source: bytes, mode: str) -> None:
    made = decoded(make_variant(source, VARIANTS["w480"], OutputFormat.WEBP))
    assert made.size == (480, 320)
    assert made.mode == mode
    # JPEG has no transparency: it is laid on white.
    flat = decoded(make_variant(source, VARIANTS["w480"], OutputFormat.JPEG))
    assert flat.mode == "RGB"


def test_an_animated_gif_gives_its_first_frame() -> None:
    frames = [Image.new("RGB", (300, 200), colour) for colour in ((255, 0, 0), (0, 0, 255))]
    buffer = io.BytesIO()
    frames[0].save(buffer, "GIF", save_all=True, append_images=frames[1:], duration=100)
    made = decoded(make_variant(buffer.getvalue(), VARIANTS["w320"], OutputFormat.JPEG))
    red, _green, blue = rgb_at(made, (150, 100))
    assert red > 200
    assert blue < 50


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        (NOT_AN_IMAGE, "not a JPEG, PNG, WebP, AVIF or GIF"),
        (SVG_WITH_SCRIPT, "not a JPEG, PNG, WebP, AVIF or GIF"),
        (truncated_jpeg(), "cannot decode"),
        # Pillow's own guard: far beyond its limit, refused on opening.
        (png_claiming(100_000, 100_000), "too many pixels"),
        # Below Pillow's limit, above the route's: refused before decoding.
        (png_claiming(8000, 8000), "more than 50000000 pixels"),
    ],
    ids=["not-an-image", "svg-with-script", "truncated", "bomb", "too-large"],
)
def test_hostile_sources_are_refused_with_a_reason(source: bytes, reason: str) -> None:
    with pytest.raises(ImageRefused, match=reason):
        make_variant(source, VARIANTS["w640"], OutputFormat.AVIF)
