"""What the studio keeps of a phone photo: the picture, upright, not where it was taken."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

import pytest
from PIL import Image

from server.content.models import Collection
from server.studio.photo_store import HELD_SECONDS, LocalPhotoFolder
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
    kept = check_photo(sent)
    with Image.open(io.BytesIO(kept.data)) as image:
        assert image.format == kind
        assert dict(image.getexif()) == {}
        assert image.size == (40, 60)  # turned as the phone meant


def test_a_file_that_is_not_an_image_is_refused() -> None:
    with pytest.raises(PhotoProblem) as problem:
        check_photo(b"%PDF-1.7 not a photo")
    assert str(problem.value) == "photo_not_image"


@pytest.mark.anyio
async def test_a_held_photo_is_found_by_its_own_name_only_and_old_ones_go(tmp_path: Path) -> None:
    photos = LocalPhotoFolder(tmp_path)
    photo = check_photo(phone_photo("JPEG"))
    name = await photos.hold(Collection.PROJECTS, photo)
    held = await photos.held(Collection.PROJECTS, name)
    assert held is not None
    assert held.data == photo.data
    assert held.extension == "jpg"
    # Only a held photo's own name, in its own collection: no path leads elsewhere.
    (tmp_path / "projects.json").write_text("[]")
    assert await photos.held(Collection.PROJECTS, "../../projects.json") is None
    assert await photos.held(Collection.SLIDER, name) is None
    # A day later a new hold removes the abandoned one.
    path = tmp_path / ".held" / "projects" / name
    day_ago = time.time() - HELD_SECONDS - 1
    os.utime(path, (day_ago, day_ago))
    newer = await photos.hold(Collection.PROJECTS, photo)
    assert sorted(p.name for p in path.parent.iterdir()) == [newer]
    await photos.release(Collection.PROJECTS, newer)
    assert await photos.held(Collection.PROJECTS, newer) is None
