"""What a page's HTML does for its first paint: the stylesheet inline and allowed by
the CSP, the hero photo found at once, and fonts only in the page's language."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from server.app import create_app
from server.settings import Settings
from tests.content_files import write_content
from tests.csp import directives, sha256_source

ARABIC_FONTS = ("amiri", "noto-sans-arabic")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    settings = Settings(content_dir=write_content(tmp_path_factory.mktemp("content")))
    with TestClient(create_app(settings)) as client:
        yield client


@pytest.mark.parametrize("path", ["/", "/projects", "/ar/Collabrations"])
def test_the_inline_stylesheet_and_boot_script_are_allowed_by_their_hashes_and_nothing_else(
    client: TestClient, path: str
) -> None:
    response = client.get(path)
    styles = re.findall(r"<style>(.*?)</style>", response.text, re.DOTALL)
    # The one script element without a type or a src: the boot (the other
    # inline ones are data, JSON, which no browser runs).
    scripts = re.findall(r"<script>(.*?)</script>", response.text, re.DOTALL)
    assert len(styles) == 1
    assert len(scripts) == 1
    policy = directives(response.headers["content-security-policy"])
    assert policy["style-src"] == ["'self'", sha256_source(styles[0])]
    assert policy["script-src"] == ["'self'", sha256_source(scripts[0])]


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


def test_a_latin_script_page_names_no_arabic_font(client: TestClient) -> None:
    for path in ("/", "/projects", "/Collabrations", "/fr", "/it/projects"):
        html = client.get(path).text
        head = html.split("</head>", 1)[0]
        preloads = re.findall(r'<link rel="preload" href="([^"]+)" as="font"', head)
        assert preloads
        assert not any(font in url for url in preloads for font in ARABIC_FONTS)
        # The stylesheet defines the Arabic faces, but only Arabic text asks for them.
        assert "Noto Sans Arabic" not in re.sub(
            r"@font-face\{[^}]*\}|:lang\(ar\)[^{]*\{[^}]*\}", "", head
        )


def test_an_arabic_page_preloads_no_font_and_names_its_two_faces_for_the_next_page(
    client: TestClient,
) -> None:
    head = client.get("/ar").text.split("</head>", 1)[0]
    assert re.findall(r'<link rel="preload" href="([^"]+)" as="font"', head) == []
    later = re.search(r'<meta name="next-page-fonts" content="([^"]+)">', head)
    assert later
    urls = later.group(1).split()
    assert len(urls) == 2
    assert all(any(font in url for font in ARABIC_FONTS) for url in urls)
    for url in urls:
        assert client.get(url).headers["content-type"] == "font/woff2"
