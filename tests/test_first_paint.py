"""What a page's HTML does for its first paint: the stylesheet inline and allowed by
the CSP, the hero photo found at once, and fonts only in the page's language."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from server.app import create_app
from server.settings import Settings
from tests.content_files import write_content

ARABIC_FONTS = ("amiri", "noto-sans-arabic")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    settings = Settings(content_dir=write_content(tmp_path_factory.mktemp("content")))
    with TestClient(create_app(settings)) as client:
        yield client


def directives(policy: str) -> dict[str, list[str]]:
    return {
        name: values
        for name, *values in (part.split() for part in policy.split(";") if part.strip())
    }


@pytest.mark.parametrize("path", ["/", "/projects", "/ar/Collabrations"])
def test_the_inline_stylesheet_is_allowed_by_its_hash_and_nothing_else_inline_is(
    client: TestClient, path: str
) -> None:
    response = client.get(path)
    styles = re.findall(r"<style>(.*?)</style>", response.text, re.DOTALL)
    assert len(styles) == 1
    digest = base64.b64encode(hashlib.sha256(styles[0].encode()).digest()).decode()
    policy = directives(response.headers["content-security-policy"])
    assert policy["style-src"] == ["'self'", f"'sha256-{digest}'"]
    assert policy["script-src"] == ["'self'"]


@pytest.mark.parametrize("path", ["/", "/ar"])
def test_the_hero_photo_is_in_the_html_fetched_first(client: TestClient, path: str) -> None:
    html = client.get(path).text
    hero = re.search(r'<section class="hero".*?</picture>', html, re.DOTALL)
    assert hero
    # HTML attribute names are case-insensitive (React writes fetchPriority).
    markup = hero.group(0).lower()
    image = re.search(r"<img [^>]*>", markup)
    assert image
    assert 'fetchpriority="high"' in image.group(0)
    assert 'loading="lazy"' not in image.group(0)
    # Phones get the portrait crop, as AVIF; the files are served.
    phone = re.search(
        r'<source media="\(max-width: 40rem\)" type="image/avif" srcset="([^ "]+)',
        hero.group(0),
        re.IGNORECASE,
    )
    assert phone
    assert client.get(phone.group(1)).headers["content-type"] == "image/avif"


def test_an_english_page_names_no_arabic_font(client: TestClient) -> None:
    for path in ("/", "/projects", "/Collabrations"):
        html = client.get(path).text
        head = html.split("</head>", 1)[0]
        preloads = re.findall(r'<link rel="preload" href="([^"]+)" as="font"', head)
        assert preloads
        assert not any(font in url for url in preloads for font in ARABIC_FONTS)
        # The stylesheet defines the Arabic faces, but only Arabic text asks for them.
        assert "Noto Sans Arabic" not in re.sub(
            r"@font-face\{[^}]*\}|:lang\(ar\)[^{]*\{[^}]*\}", "", head
        )


def test_an_arabic_page_preloads_its_two_arabic_faces_only(client: TestClient) -> None:
    head = client.get("/ar").text.split("</head>", 1)[0]
    preloads = re.findall(r'<link rel="preload" href="([^"]+)" as="font"', head)
    assert len(preloads) == 2
    assert all(any(font in url for font in ARABIC_FONTS) for url in preloads)
