"""The slider in the server's HTML: every Slider photo an <img> a crawler or a browser
without JavaScript reads, with its thumbnails and its status, each fetched only near."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from starlette.testclient import TestClient

from server.app import create_app
from server.settings import REPO_ROOT, Settings

SHIPPED_CONTENT = REPO_ROOT / "content"
SLIDES = json.loads((SHIPPED_CONTENT / "slider.json").read_text(encoding="utf-8"))


@dataclass
class SliderMarkup:
    """What the slider's <section> holds, read as a browser would (no script runs)."""

    slides: list[dict[str, str | None]] = field(default_factory=list)
    thumbnails: list[dict[str, str | None]] = field(default_factory=list)
    text: list[str] = field(default_factory=list)


class SliderParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.slider = SliderMarkup()
        # Open elements inside the slider's <section>; 0 outside it. A script's
        # text is never parsed into tags, so every <img> seen here is markup.
        self._depth = 0
        self._in_thumbnail = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "section" and attributes.get("id") == "slider":
            self._depth = 1
        elif self._depth > 0 and tag == "img":
            self.handle_startendtag(tag, attrs)
        elif self._depth > 0:
            self._depth += 1
            classes = (attributes.get("class") or "").split()
            self._in_thumbnail |= tag == "button" and "image-gallery-thumbnail" in classes

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._depth > 0 and tag == "img":
            target = self.slider.thumbnails if self._in_thumbnail else self.slider.slides
            target.append(dict(attrs))

    def handle_endtag(self, tag: str) -> None:
        if self._depth > 0:
            self._depth -= 1
            self._in_thumbnail &= tag != "button"

    def handle_data(self, data: str) -> None:
        if self._depth > 0:
            self.slider.text.append(data)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(content_dir=SHIPPED_CONTENT))) as client:
        yield client


def slider_of(html: str) -> SliderMarkup:
    parser = SliderParser()
    parser.feed(html)
    return parser.slider


def photo_path(url: str | None) -> str:
    """The content's photo a URL of the image route names (server/images/urls.py)."""
    match = re.fullmatch(r"/img/\w+/[\w-]{12}/local/(.+)", url or "")
    assert match, url
    return "/images/" + match.group(1)


@pytest.mark.parametrize("path", ["/", "/ar"])
def test_every_slider_photo_is_an_img_in_the_html_outside_any_script(
    client: TestClient, path: str
) -> None:
    slider = slider_of(client.get(path).text)
    photos = [slide["photoUrl"] for slide in SLIDES]
    # The gallery loops: one slide more at each end, copies of the last and the first.
    assert [photo_path(image["src"]) for image in slider.slides] == [
        photos[-1],
        *photos,
        photos[0],
    ]
    assert [photo_path(image["src"]) for image in slider.thumbnails] == photos


def test_each_slide_is_lazy_with_its_size_and_a_srcset_through_the_image_route(
    client: TestClient,
) -> None:
    slider = slider_of(client.get("/").text)
    for image in slider.slides:
        assert image["loading"] == "lazy"
        assert (image["width"], image["height"]) == ("1600", "900")
        widths = re.findall(r" (\d+)w", image["srcset"] or "")
        assert len(widths) > 3
        assert image["sizes"]
        assert image["alt"]
    for image in slider.thumbnails:
        assert image["loading"] == "lazy"
        assert (image["width"], image["height"]) == ("160", "90")
        assert image["alt"]


def test_the_slider_status_says_the_first_of_n(client: TestClient) -> None:
    text = "".join(slider_of(client.get("/").text).text)
    assert f"1 / {len(SLIDES)}" in text
