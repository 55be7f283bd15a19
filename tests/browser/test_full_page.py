"""The whole landing page, as a full-page screenshot and a printout take it, without scrolling."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from collections.abc import Iterator

import pytest
from PIL import Image
from playwright.sync_api import Browser, Page

from harness.live_server import LiveServer
from tests.browser.support import fulfil_offline, visit

# Every section of /, in order; the video's is a player's frame, named but not text.
TEXT_SECTIONS = (".hero", ".services", ".about", ".slider", ".booking", ".contact")
# A band drawn blank is one or two colours; text and photos are many.
FEWEST_COLOURS_OF_A_DRAWN_SECTION = 16


@pytest.fixture(params=[(390, 844), (1280, 800)], ids=["phone", "laptop"])
def landing(browser: Browser, site: LiveServer, request: pytest.FixtureRequest) -> Iterator[Page]:
    """/ at a phone's or a laptop's width, loaded and never scrolled."""
    width, height = request.param
    context = browser.new_context(viewport={"width": width, "height": height})
    context.route("https://www.youtube-nocookie.com/**", fulfil_offline)
    page = context.new_page()
    visit(page, site.url + "/")
    page.wait_for_load_state("load")
    assert page.evaluate("window.scrollY") == 0
    yield page
    context.close()


def words(text: str) -> str:
    """Text compared as a reader sees it: one space between words, any case."""
    return re.sub(r"\s+", " ", text).strip().casefold()


def headings(page: Page) -> list[str]:
    return [
        words(page.locator(f"{section} :is(h1, h2)").first.inner_text())
        for section in TEXT_SECTIONS
    ]


def test_every_section_has_its_text_without_scrolling(landing: Page) -> None:
    for section in TEXT_SECTIONS:
        text = words(landing.locator(section).inner_text())
        heading = words(landing.locator(f"{section} :is(h1, h2)").first.inner_text())
        assert heading, section
        assert heading in text, (section, text)
        assert len(text) > len(heading), (section, text)


def test_a_full_page_screenshot_draws_every_section(landing: Page) -> None:
    shot = Image.open(io.BytesIO(landing.screenshot(full_page=True))).convert("RGB")
    for section in TEXT_SECTIONS:
        box = landing.locator(section).bounding_box()
        assert box is not None, section
        assert box["height"] > 0, section
        top = int(box["y"] + landing.evaluate("window.scrollY"))
        band = shot.crop((0, top, shot.width, min(shot.height, top + int(box["height"]))))
        colours = band.getcolors(maxcolors=FEWEST_COLOURS_OF_A_DRAWN_SECTION)
        # getcolors gives None when there are more colours than maxcolors.
        assert colours is None, f"{section} is drawn blank: {len(colours)} colour(s)"


def pdf_text(pdf: bytes) -> str:
    pdftotext = shutil.which("pdftotext")
    assert pdftotext, "pdftotext (Debian's poppler-utils) is required; ./dev test installs it"
    done = subprocess.run(  # noqa: S603 - a fixed command on our own file
        [pdftotext, "-enc", "UTF-8", "-", "-"], input=pdf, capture_output=True, check=True
    )
    return done.stdout.decode("utf-8")


def test_the_printed_page_holds_every_section(landing: Page) -> None:
    printed = words(pdf_text(landing.pdf(format="A4", print_background=True)))
    for section, heading in zip(TEXT_SECTIONS, headings(landing), strict=True):
        assert heading in printed, (section, heading)
