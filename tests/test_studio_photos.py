"""What the studio keeps of a phone photo: the picture, upright, not where it was taken."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from server.studio.photos import PhotoProblem, check_photo

GPS_IFD = 0x8825
ORIENTATION = 0x0112
ROTATED_90 = 6  # EXIF: the camera was turned; show the picture turned by 90 degrees


def phone_photo(kind: str) -> bytes:
    image = Image.new("RGB", (60, 40), (150, 120, 90))
    exif = Image.Exif()
    exif[ORIENTATION] = ROTATED_90
    exif.get_ifd(GPS_IFD)[2] = (31.0, 57.0, 0.0)  # GPSLatitude: Amman
    buffer = io.BytesIO()
    image.save(buffer, kind, exif=exif.tobytes())
    return buffer.getvalue()


@pytest.mark.parametrize("kind", ["JPEG", "PNG", "WEBP"])
def test_a_phone_photo_is_kept_upright_without_its_metadata(kind: str) -> None:
    sent = phone_photo(kind)
    with Image.open(io.BytesIO(sent)) as image:
        assert image.getexif().get_ifd(GPS_IFD)  # the test's photo does carry a location
    kept = check_photo(sent, max_bytes=10**6)
    with Image.open(io.BytesIO(kept.data)) as image:
        assert image.format == kind
        assert dict(image.getexif()) == {}
        assert image.size == (40, 60)  # turned as the phone meant
    assert (kept.width, kept.height) == (40, 60)


def test_a_file_that_is_not_an_image_is_refused() -> None:
    with pytest.raises(PhotoProblem) as problem:
        check_photo(b"%PDF-1.7 not a photo", max_bytes=10**6)
    assert problem.value.key == "photo_not_image"
