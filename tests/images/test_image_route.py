"""The image route over HTTP: formats, sizes, caching, and every way a photo can be bad."""

from __future__ import annotations

import base64
import logging
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from server.app import create_app
from server.images.variants import VARIANTS, WIDTHS
from server.settings import Settings
from tests.content_files import write_content
from tests.images.loopback import PhotoServer
from tests.images.photos import (
    NOT_AN_IMAGE,
    SVG_WITH_SCRIPT,
    decoded,
    jpeg,
    png_claiming,
    rgb_at,
    truncated_jpeg,
)
from tests.support import parse

IMMUTABLE = "public, max-age=31536000, immutable"
JPEG = {"Content-Type": "image/jpeg"}
# What each hostile remote photo is, and the reason its refusal gives.
HOSTILE = {
    "/not-an-image.jpg": "not a JPEG, PNG, WebP, AVIF or GIF",
    "/truncated.jpg": "cannot decode",
    "/bomb.png": "too many pixels",
    "/drawing.svg": "served as image/svg+xml",
    "/away": "host 'localhost' is not in IMAGE_HOSTS",
    "/slow": "no answer within 0.5 s",
    "/endless": "more than 1048576 bytes",
}


@pytest.fixture(scope="module")
def photo_server() -> Iterator[PhotoServer]:
    routes: dict[str, tuple[int, dict[str, str], bytes]] = {
        "/photo.jpg": (200, JPEG, jpeg((1600, 1200))),
        "/here-target.jpg": (200, JPEG, jpeg((800, 600))),
        "/away-target.jpg": (200, JPEG, jpeg((800, 600))),
        "/not-an-image.jpg": (200, JPEG, NOT_AN_IMAGE),
        "/truncated.jpg": (200, JPEG, truncated_jpeg()),
        "/bomb.png": (200, {"Content-Type": "image/png"}, png_claiming(100_000, 100_000)),
        "/drawing.svg": (200, {"Content-Type": "image/svg+xml"}, SVG_WITH_SCRIPT),
        "/slow": (200, JPEG, jpeg((800, 600))),
        "/here": (302, {"Location": "/here-target.jpg"}, b""),
    }
    with PhotoServer(routes, slow_seconds=3) as server:
        # Off the allowed host: "localhost" is this same server, by another name.
        away = server.url("/away-target.jpg", host="localhost")
        routes["/away"] = (302, {"Location": away}, b"")
        yield server


@pytest.fixture(scope="module")
def content_dir(tmp_path_factory: pytest.TempPathFactory, photo_server: PhotoServer) -> Path:
    remote = ["/photo.jpg", "/here", *HOSTILE]
    cards = [
        {"id": "local", "name": "Local", "description": "d", "photoUrl": "/images/big.jpg"},
        {
            "id": "evil",
            "name": "Evil",
            "description": "d",
            "photoUrl": "https://evil.example/a.jpg",
        },
        *(
            {"id": path, "name": path, "description": "d", "photoUrl": photo_server.url(path)}
            for path in remote
        ),
    ]
    root = write_content(tmp_path_factory.mktemp("content"), projects=cards)
    (root / "images" / "big.jpg").write_bytes(jpeg((2000, 1500)))
    (root / "images" / "small.jpg").write_bytes(jpeg((640, 480)))
    return root


@pytest.fixture(scope="module")
def client(content_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    settings = Settings(
        content_dir=content_dir,
        render_pool_size=1,
        content_cache_seconds=0,
        dev_mode=True,  # the photo server is http: on loopback
        image_hosts=("127.0.0.1",),
        image_cache_dir=tmp_path_factory.mktemp("image-cache"),
        image_fetch_timeout_seconds=0.5,
        image_fetch_max_mb=1,
    )
    with TestClient(create_app(settings)) as client:
        yield client


def photo_keys(client: TestClient) -> dict[str, str | None]:
    """Each project's photoKey in the page data, by id."""
    items = parse(client.get("/projects").text).page_data["content"]["projects"]  # type: ignore[index]
    return {item["id"]: item.get("photoKey") for item in items}


def key_of(client: TestClient, item_id: str) -> str:
    key = photo_keys(client)[item_id]
    assert key is not None
    return key


@pytest.mark.parametrize(
    ("accept", "media_type", "pillow_format"),
    [
        ("image/avif,image/webp,image/apng,image/*,*/*;q=0.8", "image/avif", "AVIF"),
        ("image/webp,*/*", "image/webp", "WEBP"),
        ("image/avif;q=0, image/webp", "image/webp", "WEBP"),
        ("image/*,*/*;q=0.8", "image/jpeg", "JPEG"),
        ("", "image/jpeg", "JPEG"),
    ],
)
def test_the_format_follows_the_browsers_accept_header(
    client: TestClient, accept: str, media_type: str, pillow_format: str
) -> None:
    response = client.get(f"/img/w640/{key_of(client, 'local')}", headers={"Accept": accept})
    assert response.status_code == 200
    assert response.headers["content-type"] == media_type
    assert response.headers["cache-control"] == IMMUTABLE
    assert response.headers["vary"] == "Accept"
    image = decoded(response.content)
    assert image.format == pillow_format
    assert image.size == (640, 480)


@pytest.mark.parametrize("accept", ["image/avif,image/webp,*/*", "image/webp", "*/*", ""])
def test_the_social_picture_is_a_1200_wide_jpeg_whatever_the_accept_header(
    client: TestClient, accept: str
) -> None:
    # Link-preview readers (WhatsApp, Facebook, X) send all sorts of Accept
    # headers, and not all of them decode AVIF or WebP.
    response = client.get(f"/img/og1200/{key_of(client, 'local')}", headers={"Accept": accept})
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/jpeg"
    assert "vary" not in response.headers
    image = decoded(response.content)
    assert image.format == "JPEG"
    assert image.size == (1200, 630)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_variant_has_its_exact_size(client: TestClient, name: str) -> None:
    response = client.get(f"/img/{name}/{key_of(client, 'local')}", headers={"Accept": "*/*"})
    variant = VARIANTS[name]
    expected = (
        (variant.width, variant.height)
        if variant.height is not None
        else (variant.width, variant.width * 3 // 4)
    )
    assert decoded(response.content).size == expected


def test_a_small_photo_is_served_at_its_own_size(client: TestClient, content_dir: Path) -> None:
    key = key_of(client, "local").replace("big.jpg", "small.jpg")
    # The version names big.jpg's bytes, so the answer is for small.jpg as it is now.
    response = client.get(f"/img/w1920/{key}")
    assert decoded(response.content).size == (640, 480)
    assert decoded(client.get(f"/img/s800/{key}").content).size == (480, 480)


def test_a_second_request_is_served_from_disk_without_encoding(
    client: TestClient, encodings: list[str]
) -> None:
    url = f"/img/w480/{key_of(client, 'local')}"
    first = client.get(url, headers={"Accept": "image/webp"})
    made = len(encodings)
    second = client.get(url, headers={"Accept": "image/webp"})
    assert second.content == first.content
    assert len(encodings) == made
    # Another format is another variant.
    client.get(url, headers={"Accept": "image/avif"})
    assert len(encodings) == made + 1


def test_a_changed_photo_gets_a_new_url_and_the_old_one_is_not_kept_long(
    client: TestClient, content_dir: Path
) -> None:
    photo = content_dir / "images" / "change.jpg"
    photo.write_bytes(jpeg((800, 600), colour=(0, 200, 0)))
    projects = (content_dir / "projects.json").read_text()
    changed = projects.replace('"/images/big.jpg"', '"/images/change.jpg"', 1)
    (content_dir / "projects.json").write_text(changed)
    try:
        before = key_of(client, "local")
        photo.write_bytes(jpeg((800, 601), colour=(0, 0, 200)))
        # Keys are remembered until the watch of the image folder reports a change.
        deadline = time.monotonic() + 5
        while (after := key_of(client, "local")) == before:
            assert time.monotonic() < deadline, "the page still names the old photo"
            time.sleep(0.05)
        fresh = client.get(f"/img/w320/{after}")
        assert fresh.headers["cache-control"] == IMMUTABLE
        assert rgb_at(decoded(fresh.content), (300, 200))[2] > 150
        # A page cached before the change still names the old URL: it gets the
        # current photo, but only for a short while.
        stale = client.get(f"/img/w320/{before}")
        assert stale.status_code == 200
        assert "immutable" not in stale.headers["cache-control"]
        assert rgb_at(decoded(stale.content), (300, 200))[2] > 150
    finally:
        (content_dir / "projects.json").write_text(projects)


def test_the_content_api_names_the_same_keys_as_the_page(client: TestClient) -> None:
    # After client-side navigation, lists come from the API: the same images.
    api = {item["id"]: item.get("photoKey") for item in client.get("/api/content/projects").json()}
    assert api == photo_keys(client)
    assert api["local"] is not None


def test_a_remote_photo_is_fetched_once_for_all_its_variants(
    client: TestClient, photo_server: PhotoServer
) -> None:
    key = key_of(client, "/photo.jpg")
    assert re.fullmatch(r"[\w-]{12}/remote/[\w-]+", key)
    for name in ("w320", "w640", "s400"):
        response = client.get(f"/img/{name}/{key}", headers={"Accept": "image/avif"})
        assert response.status_code == 200
        assert response.headers["content-type"] == "image/avif"
    assert photo_server.requests.count("/photo.jpg") == 1


def test_a_redirect_on_the_allowed_host_is_followed(
    client: TestClient, photo_server: PhotoServer
) -> None:
    response = client.get(f"/img/w320/{key_of(client, '/here')}")
    assert response.status_code == 200
    assert decoded(response.content).size == (320, 240)


@pytest.mark.parametrize("path", sorted(HOSTILE))
def test_a_bad_remote_photo_falls_back_to_the_original_with_a_log_line(
    client: TestClient,
    photo_server: PhotoServer,
    caplog: pytest.LogCaptureFixture,
    path: str,
) -> None:
    key = key_of(client, path)
    with caplog.at_level(logging.WARNING):
        response = client.get(f"/img/w640/{key}", follow_redirects=False)
    assert response.status_code == 302
    assert response.headers["location"] == photo_server.url(path)
    assert response.headers["cache-control"] == "no-store"
    assert f"Image route: w640 for {photo_server.url(path)}: {HOSTILE[path]}" in caplog.text
    # Refused once, not fetched again for a while: the next visitor falls back at once.
    fetched = len(photo_server.requests)
    again = client.get(f"/img/w320/{key}", follow_redirects=False)
    assert again.status_code == 302
    assert len(photo_server.requests) == fetched


def test_a_redirect_off_the_allowed_host_is_never_followed(
    client: TestClient, photo_server: PhotoServer
) -> None:
    client.get(f"/img/w480/{key_of(client, '/away')}", follow_redirects=False)
    assert "/away" in photo_server.requests
    assert "/away-target.jpg" not in photo_server.requests


def test_a_photo_on_a_host_not_allowed_is_linked_as_it_is_with_a_log_line(
    content_dir: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(content_dir=content_dir, render_pool_size=1, image_cache_dir=tmp_path)
    with caplog.at_level(logging.WARNING), TestClient(create_app(settings)) as fresh:
        assert photo_keys(fresh)["evil"] is None
        html = fresh.get("/projects").text
    assert 'src="https://evil.example/a.jpg"' in html
    assert (
        "Image route: not for https://evil.example/a.jpg "
        "(host 'evil.example' is not in IMAGE_HOSTS); the page links it as it is"
    ) in caplog.text


def remote_url(photo_url: str) -> str:
    encoded = base64.urlsafe_b64encode(photo_url.encode()).decode().rstrip("=")
    return f"/img/w640/AAAAAAAAAAAA/remote/{encoded}"


def test_a_made_up_url_for_a_host_not_allowed_is_refused_without_a_redirect(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        response = client.get(remote_url("https://evil.example/a.jpg"), follow_redirects=False)
    assert response.status_code == 404
    assert "location" not in response.headers
    assert "Image route: refused https://evil.example/a.jpg: host 'evil.example'" in caplog.text


def test_a_made_up_url_for_a_photo_not_in_the_content_is_not_fetched(
    client: TestClient, photo_server: PhotoServer, caplog: pytest.LogCaptureFixture
) -> None:
    url = photo_server.url("/here-target.jpg?anything")
    with caplog.at_level(logging.WARNING):
        response = client.get(remote_url(url), follow_redirects=False)
    assert response.status_code == 404
    assert "/here-target.jpg?anything" not in photo_server.requests
    assert f"Image route: refused {url}: not a photo of the content" in caplog.text


@pytest.mark.parametrize(
    "path",
    [
        "/img/w641/AAAAAAAAAAAA/local/big.jpg",  # not one of the sizes
        "/img/w640/short/local/big.jpg",
        "/img/w640/AAAAAAAAAAAA/local/missing.jpg",
        "/img/w640/AAAAAAAAAAAA/local/..%2Fprojects.json",
        "/img/w640/AAAAAAAAAAAA/local/%2e%2e/projects.json",
        "/img/w640/AAAAAAAAAAAA/elsewhere/big.jpg",
        "/img/w640/AAAAAAAAAAAA/remote/%%%",
    ],
)
def test_urls_the_route_never_made_are_not_found(client: TestClient, path: str) -> None:
    response = client.get(path, follow_redirects=False)
    assert response.status_code == 404
    assert response.headers["cache-control"] == "no-store"


def test_every_srcset_candidate_on_a_page_is_served_at_its_width(client: TestClient) -> None:
    html = client.get("/projects").text
    candidates = {
        (url, int(width))
        for srcset in re.findall(r'srcSet="([^"]+)"', html)
        for url, width in re.findall(r"(/img/w\d+/[^ ,]+/local/big\.jpg) (\d+)w", srcset)
    }
    assert sorted(width for _, width in candidates) == list(WIDTHS)
    for url, width in candidates:
        assert decoded(client.get(url).content).width == width


def test_with_the_route_off_pages_link_the_original_photos(content_dir: Path) -> None:
    settings = Settings(content_dir=content_dir, render_pool_size=1, image_route=False)
    with TestClient(create_app(settings)) as client:
        assert set(photo_keys(client).values()) == {None}
        html = client.get("/projects").text
        assert 'src="/images/big.jpg"' in html
        assert "/img/" not in html
        assert client.get("/img/w640/AAAAAAAAAAAA/local/big.jpg").status_code == 404
