"""HTTP caching and compression: ETags and 304s, brotli and gzip, immutable assets."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator
from pathlib import Path

import brotli
import pytest
from starlette.testclient import TestClient

from server.app import create_app
from server.settings import REPO_ROOT, Settings
from tests.content_files import sample_cards, write_content


@pytest.fixture(scope="module")
def content_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Enough projects that their JSON is worth compressing.
    return write_content(tmp_path_factory.mktemp("content"), projects=sample_cards("project", 20))


@pytest.fixture(scope="module")
def client(content_dir: Path) -> Iterator[TestClient]:
    settings = Settings(content_dir=content_dir, render_pool_size=1, content_cache_seconds=0)
    with TestClient(create_app(settings)) as client:
        yield client


def test_a_page_carries_a_strong_etag_and_revalidates_to_304(client: TestClient) -> None:
    first = client.get("/projects")
    etag = first.headers["etag"]
    assert re.fullmatch(r'"[A-Za-z0-9_-]{20,}"', etag)
    assert "s-maxage=60" in first.headers["cache-control"]
    assert "stale-while-revalidate" in first.headers["cache-control"]
    again = client.get("/projects", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert client.get("/projects", headers={"If-None-Match": '"other"'}).status_code == 200


def test_the_etag_changes_when_the_content_does(client: TestClient, content_dir: Path) -> None:
    before = client.get("/Collabrations").headers["etag"]
    assert client.get("/Collabrations").headers["etag"] == before
    (content_dir / "collabrations.json").write_text(json.dumps(sample_cards("new", 1)))
    after = client.get("/Collabrations")
    assert after.headers["etag"] != before
    assert "New 1" in after.text


@pytest.mark.parametrize(
    ("accept", "encoding"), [("gzip, deflate, br", "br"), ("gzip", "gzip"), ("identity", None)]
)
def test_pages_are_compressed_as_the_browser_prefers(
    client: TestClient, accept: str, encoding: str | None
) -> None:
    response = client.get("/", headers={"Accept-Encoding": accept})
    assert response.headers.get("content-encoding") == encoding
    assert response.headers["vary"] == "Accept-Encoding"
    assert "WELCOME TO THE WORLD OF FINE STONE" in response.text  # httpx decodes it


def test_the_content_api_is_compressed_too(client: TestClient) -> None:
    response = client.get("/api/content/projects", headers={"Accept-Encoding": "br"})
    assert response.headers["content-encoding"] == "br"
    assert response.json()[0]["id"] == "project-1"


def largest_script(client: TestClient) -> str:
    """The biggest of the scripts a page starts (named in its site-code): React DOM."""
    found = re.search(r'<meta name="site-code" content="([^"]+)"', client.get("/").text)
    assert found is not None
    client_dir = REPO_ROOT / "bundles" / "client"
    return max(
        found.group(1).split(),
        key=lambda url: (client_dir / url.removeprefix("/assets/")).stat().st_size,
    )


def test_hashed_assets_are_immutable_and_served_precompressed(client: TestClient) -> None:
    script = largest_script(client)
    raw = (REPO_ROOT / "bundles" / "client" / script.removeprefix("/assets/")).read_bytes()
    response = client.get(script, headers={"Accept-Encoding": "br"})
    assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert response.headers["content-encoding"] == "br"
    assert "javascript" in response.headers["content-type"]
    assert int(response.headers["content-length"]) < len(raw) / 2
    assert response.content == raw  # decoded by the client: the same bytes
    plain = client.get(script, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert plain.content == raw


def test_precompressed_files_match_their_originals() -> None:
    for path in (REPO_ROOT / "bundles" / "client").rglob("*.js"):
        body = path.read_bytes()
        assert brotli.decompress(path.with_name(path.name + ".br").read_bytes()) == body
        assert gzip.decompress(path.with_name(path.name + ".gz").read_bytes()) == body


@pytest.mark.parametrize(
    "path",
    [
        "/assets/../manifest.json",
        "/assets/%2e%2e/manifest.json",
        "/assets/..%2f..%2fserver/app.py",
        "/assets/nothing.js",
    ],
)
def test_assets_cannot_be_read_outside_their_folder(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_compressed_twins_are_not_served_by_their_own_names(client: TestClient) -> None:
    script = largest_script(client)
    assert client.get(script + ".br").status_code == 404


def test_content_images_may_be_cached_briefly(client: TestClient) -> None:
    response = client.get("/images/sample.jpg")
    assert response.headers["cache-control"].startswith("public, max-age=300")


def test_error_responses_are_not_stored(client: TestClient) -> None:
    assert client.get("/nowhere").headers["cache-control"] == "no-store"
