"""What a first visit downloads before the visitor asks for more: fonts in the
page's language only, nothing the CSP refuses, the slider's photos when near."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from harness.live_server import LiveServer
from tests.browser.support import Console, shipped_content_path, visit

ARABIC_FONTS = ("amiri", "noto-sans-arabic")
# The budget for an Arabic page's first load.
ARABIC_FONT_BUDGET_BYTES = 60_000
SLIDES = json.loads((shipped_content_path() / "slider.json").read_text(encoding="utf-8"))


def fonts_loaded(page: Page) -> list[tuple[str, int]]:
    """Each font file the page fetched, with the bytes it took (body as sent)."""
    page.wait_for_load_state("networkidle")
    page.evaluate("() => document.fonts.ready.then(() => null)")
    entries: list[list[object]] = page.evaluate(
        """() => performance.getEntriesByType('resource')
              .filter(e => e.initiatorType === 'css' || e.name.endsWith('.woff2'))
              .filter(e => /\\.woff2?$/.test(e.name))
              .map(e => [e.name, e.encodedBodySize])"""
    )
    return [(str(name), int(str(size))) for name, size in entries]


def test_an_english_page_fetches_no_arabic_font(page: Page, site: LiveServer) -> None:
    for path in ("/", "/projects", "/Collabrations"):
        visit(page, site.url + path)
        fonts = fonts_loaded(page)
        # The heading face is there; the switcher's Arabic letters use the system's.
        assert any("cormorant" in url for url, _ in fonts), fonts
        assert not any(font in url for url, _ in fonts for font in ARABIC_FONTS), fonts


def test_an_arabic_page_fetches_its_fonts_within_budget(page: Page, site: LiveServer) -> None:
    for path in ("/ar", "/ar/projects"):
        visit(page, site.url + path)
        fonts = fonts_loaded(page)
        assert any("amiri" in url for url, _ in fonts), fonts
        assert sum(size for _, size in fonts) <= ARABIC_FONT_BUDGET_BYTES, fonts


def test_an_arabic_first_view_uses_system_faces_and_the_next_page_the_sites(
    page: Page, site: LiveServer
) -> None:
    visit(page, site.url + "/ar")
    fonts = fonts_loaded(page)
    first_paint = page.evaluate(
        "() => performance.getEntriesByName('first-contentful-paint')[0].startTime"
    )
    arabic = [url for url, _ in fonts if any(font in url for font in ARABIC_FONTS)]
    assert len(arabic) == 2, fonts
    # Fetched after the first paint, for the next page, and not used on this one.
    starts = page.evaluate(
        """() => performance.getEntriesByType('resource')
              .filter(e => e.name.endsWith('.woff2')).map(e => e.startTime)"""
    )
    assert min(starts) >= first_paint
    assert page.evaluate("() => document.documentElement.dataset.fonts") is None
    expect(page.locator("h1")).not_to_have_css("font-family", re.compile("Amiri"))

    visit(page, site.url + "/ar/projects")
    page.evaluate("() => document.fonts.ready.then(() => null)")
    assert page.evaluate("() => document.documentElement.dataset.fonts") == "cached"
    expect(page.locator("h1")).to_have_css("font-family", re.compile("^Amiri"))
    used = page.evaluate(
        "() => [...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)"
    )
    assert {"Amiri", "Noto Sans Arabic"} <= set(used), used


def test_no_page_breaks_its_content_security_policy(
    page: Page, site: LiveServer, console: Console
) -> None:
    for path in ("/", "/ar", "/projects", "/ar/Collabrations"):
        visit(page, site.url + path)
        page.wait_for_load_state("networkidle")
        # Chromium reports every refused style, script or image on the console.
        expect(page.locator(".hero, .list-page").first).to_be_visible()
    assert not [text for text in console.texts() if "Content Security Policy" in text]
    # The inline stylesheet applied: the header is laid out by it, not by defaults.
    assert page.evaluate("getComputedStyle(document.querySelector('.site-header')).position") in (
        "sticky",
        "fixed",
    )


@pytest.mark.full_chromium
def test_slider_photos_wait_until_the_slider_nears(page: Page, site: LiveServer) -> None:
    photos: list[str] = []
    gallery_code: list[str] = []
    names = [slide["photoUrl"].removeprefix("/images/") for slide in SLIDES]

    def seen(url: str) -> None:
        if "/img/" in url and any(name in url for name in names):
            photos.append(url)
        if "/SlideGallery-" in url:
            gallery_code.append(url)

    page.on("request", lambda request: seen(request.url))
    visit(page, site.url + "/")
    # Not "networkidle", which a loaded machine once kept from coming for 30 s: the page's
    # own images are in (load), and the frame after hydration has come and gone, where the
    # loader decides whether the slider is near (ui/loaders/SlideGalleryLoader.client.tsx).
    page.wait_for_load_state("load")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done)))")
    # Far below the first screen: not even the gallery's code, no slide, no thumbnail yet.
    assert gallery_code == []
    assert photos == []
    with page.expect_request(lambda request: names[0] in request.url):
        page.locator(".slider").scroll_into_view_if_needed()
    expect(page.locator(".slider .image-gallery-thumbnail img")).to_have_count(len(SLIDES))
