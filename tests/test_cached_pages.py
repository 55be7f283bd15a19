"""A page answered from the rendered-page cache does no work that grows with the items.

Before a render, a page's meta (the JSON-LD of every card), its photo keys and
its page data cost time in proportion to the number of cards; a cached page
must cost none of it (issue 20), and a request looks the cache up once. The
spies below count every call of that work while the cached pages are asked
for again.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from server.app import create_app
from server.images.urls import PhotoKeys
from server.rendering import page_content, page_renderer
from server.rendering.page_content import items_for_page, shown_item
from server.rendering.page_renderer import RenderedPageCache
from server.seo import structured_data
from server.settings import Settings
from tests.content_files import write_content

PATHS = ("/projects", "/projects/project-7", "/Collabrations", "/")


def many_projects(count: int) -> list[dict[str, str]]:
    return [
        {
            "id": f"project-{index}",
            "name": f"Project {index}",
            "description": "Honed Jerusalem stone.",
            "photoUrl": "/images/sample.jpg",
        }
        for index in range(count)
    ]


def spy(calls: Counter[str], name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:  # noqa: ANN401 - any function's
        calls[name] += 1
        return function(*args, **kwargs)

    return counted


def test_a_cached_page_builds_no_meta_keys_or_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    content = write_content(tmp_path / "content", projects=many_projects(200))
    settings = Settings(content_dir=content, render_pool_size=1, image_cache_dir=tmp_path / "img")
    with TestClient(create_app(settings)) as client:
        keys: PhotoKeys = client.app_state["photo_keys"]
        deadline = time.monotonic() + 10
        while keys.generation is None:  # the image folder's watch is set
            assert time.monotonic() < deadline, "the image folder is never watched"
            time.sleep(0.05)
        first = {path: client.get(path) for path in PATHS}
        calls: Counter[str] = Counter()
        for name in ("item_list", "card_page", "organization"):
            monkeypatch.setattr(
                structured_data, name, spy(calls, name, getattr(structured_data, name))
            )
        monkeypatch.setattr(PhotoKeys, "keys_for", spy(calls, "keys_for", PhotoKeys.keys_for))
        monkeypatch.setattr(
            page_content, "items_for_page", spy(calls, "items_for_page", items_for_page)
        )
        # The card of an item page is looked up only for a render.
        monkeypatch.setattr(page_renderer, "shown_item", spy(calls, "card", shown_item))
        monkeypatch.setattr(
            RenderedPageCache, "get", spy(calls, "cache lookup", RenderedPageCache.get)
        )
        again = {path: client.get(path) for path in PATHS}
    assert all(response.status_code == 200 for response in first.values())
    assert {path: again[path].content for path in PATHS} == {
        path: first[path].content for path in PATHS
    }
    assert calls == Counter({"cache lookup": len(PATHS)})


def test_a_changed_photo_still_renders_the_page_again(tmp_path: Path) -> None:
    content = write_content(tmp_path / "content", projects=many_projects(3))
    settings = Settings(content_dir=content, render_pool_size=1, image_cache_dir=tmp_path / "img")
    with TestClient(create_app(settings)) as client:
        keys: PhotoKeys = client.app_state["photo_keys"]
        deadline = time.monotonic() + 10
        while keys.generation is None:
            assert time.monotonic() < deadline, "the image folder is never watched"
            time.sleep(0.05)
        before = client.get("/projects/project-1").text
        generation = keys.generation
        photo = content / "images" / "sample.jpg"
        photo.write_bytes(photo.read_bytes() + b"\0")  # a new file: a new key
        while keys.generation == generation:
            assert time.monotonic() < deadline + 10, "the change is never seen"
            time.sleep(0.05)
        after = client.get("/projects/project-1").text
    assert before != after
