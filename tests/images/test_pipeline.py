"""The pipeline's bookkeeping: shared work, remembered refusals."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from server.images.disk_cache import DiskCache
from server.images.pipeline import REFUSAL_MEMORY_SECONDS, PhotoPipeline, PhotoRefused
from server.images.sources import LocalPhotos, RemotePhotos
from server.images.transform import OutputFormat
from server.images.urls import photo_source
from server.images.variants import VARIANTS
from tests.clock import Clock
from tests.images.photos import NOT_AN_IMAGE, jpeg


async def nothing_remote(_url: str) -> bool:
    return False


def make_pipeline(tmp_path: Path, clock: Clock) -> PhotoPipeline:
    images = tmp_path / "images"
    images.mkdir()
    (images / "photo.jpg").write_bytes(jpeg((1600, 1200)))
    (images / "broken.jpg").write_bytes(NOT_AN_IMAGE)
    return PhotoPipeline(
        local=LocalPhotos(images, max_bytes=10**8),
        remote=RemotePhotos(hosts=(), allow_http=False, max_bytes=10**8, timeout_seconds=1),
        cache=DiskCache(tmp_path / "cache", max_bytes=10**8),
        is_content_photo=nothing_remote,
        clock=clock,
    )


@pytest.mark.anyio
async def test_concurrent_requests_for_a_variant_share_one_encoding(
    tmp_path: Path, encodings: list[str]
) -> None:
    pipeline = make_pipeline(tmp_path, Clock())
    source = photo_source("/images/photo.jpg")
    made = await asyncio.gather(
        *(
            pipeline.variant(source, "AAAAAAAAAAAA", VARIANTS["w960"], OutputFormat.AVIF)
            for _ in range(8)
        )
    )
    assert encodings == ["w960"]
    assert len({body for body, _current in made}) == 1
    await pipeline.remote.aclose()


@pytest.mark.anyio
async def test_a_refused_photo_is_tried_again_only_after_a_while(
    tmp_path: Path, encodings: list[str]
) -> None:
    clock = Clock()
    pipeline = make_pipeline(tmp_path, clock)
    source = photo_source("/images/broken.jpg")

    async def attempt() -> str:
        with pytest.raises(PhotoRefused) as refusal:
            await pipeline.variant(source, "AAAAAAAAAAAA", VARIANTS["w320"], OutputFormat.JPEG)
        return str(refusal.value)

    assert "not a JPEG" in await attempt()
    clock.now += REFUSAL_MEMORY_SECONDS - 1
    assert "refused less than 60 s ago" in await attempt()
    assert len(encodings) == 1
    clock.now += 2
    await attempt()
    assert len(encodings) == 2
    await pipeline.remote.aclose()
