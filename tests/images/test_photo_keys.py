"""Photo keys cost no filesystem call per request while the image folder is watched,
and still follow a photo that changes."""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from server.app import create_app
from server.images.urls import PhotoKeys
from server.settings import REPO_ROOT, Settings
from tests.support import parse

PAGES = ("/", "/projects", "/Collabrations", "/ar/projects")


class FilesystemCalls:
    """Every open, stat and folder listing this process makes while `recording`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.recording = False
        self.calls: list[str] = []
        for name in ("stat", "lstat"):
            monkeypatch.setattr(os, name, self._spy(name, getattr(os, name)))
        # open(), os.open(), os.listdir() and os.scandir() raise audit events.
        sys.addaudithook(self._audit)

    def _spy(self, name: str, call: Callable[..., os.stat_result]) -> Callable[..., os.stat_result]:
        def spied(path: object, *args: object, **kwargs: object) -> os.stat_result:
            if self.recording:
                self.calls.append(f"{name} {path}")
            return call(path, *args, **kwargs)

        return spied

    def _audit(self, event: str, args: tuple[Any, ...]) -> None:
        if self.recording and event in ("open", "os.listdir", "os.scandir"):
            self.calls.append(f"{event} {args[0]}")


@pytest.fixture
def content_dir(tmp_path: Path) -> Path:
    return Path(shutil.copytree(REPO_ROOT / "content", tmp_path / "content"))


@pytest.fixture
def client(content_dir: Path, tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        content_dir=content_dir, render_pool_size=1, image_cache_dir=tmp_path / "cache"
    )
    with TestClient(create_app(settings)) as client:
        yield client


def wait_until_keys_are_remembered(client: TestClient) -> None:
    keys: PhotoKeys = client.app_state["photo_keys"]
    deadline = time.monotonic() + 10
    while keys.generation is None:
        assert time.monotonic() < deadline, "the image folder is not being watched"
        time.sleep(0.05)


def project_keys(client: TestClient) -> dict[str, str]:
    items = parse(client.get("/projects").text).page_data["content"]["projects"]  # type: ignore[index]
    return {item["id"]: item["photoKey"] for item in items}


def test_a_cached_page_request_makes_no_filesystem_call(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    wait_until_keys_are_remembered(client)
    for path in PAGES:
        assert client.get(path).status_code == 200  # rendered, keys worked out once
    spy = FilesystemCalls(monkeypatch)
    spy.recording = True
    try:
        responses = [client.get(path) for path in PAGES]
    finally:
        spy.recording = False
    assert [response.status_code for response in responses] == [200] * len(PAGES)
    # Every page names its photos by key; the list pages link them in their HTML
    # (the landing page's slider adds its photos as it nears the viewport).
    assert all('"photoKey":' in response.text for response in responses)
    assert all("/img/" in response.text for response in responses[1:])
    assert spy.calls == []
    # The spy does see the server's filesystem calls: a photo file is one.
    spy.recording = True
    try:
        client.get("/images/projects/dead-sea-resort-lobby.jpg")
    finally:
        spy.recording = False
    assert any("dead-sea-resort-lobby.jpg" in call for call in spy.calls)


def test_a_changed_photo_gets_a_new_key_once_the_watch_sees_it(
    client: TestClient, content_dir: Path
) -> None:
    wait_until_keys_are_remembered(client)
    before = project_keys(client)
    [(item_id, key)] = [(i, k) for i, k in before.items() if "dead-sea" in k]
    photo = content_dir / "images" / "projects" / "dead-sea-resort-lobby.jpg"
    photo.write_bytes(photo.read_bytes() + b"\0")  # other bytes, another version
    deadline = time.monotonic() + 5
    while project_keys(client)[item_id] == key:
        assert time.monotonic() < deadline, "the page still names the old photo"
        time.sleep(0.05)
    after = project_keys(client)
    assert after[item_id] != key
    assert {i: k for i, k in after.items() if i != item_id} == {
        i: k for i, k in before.items() if i != item_id
    }
