"""What the browser loads, and when."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.live_server import LiveServer


def test_the_client_bundle_never_blocks_rendering(page: Page, site: LiveServer) -> None:
    page.goto(site.url + "/")
    blocking = page.evaluate(
        """() => [...document.querySelectorAll('script[src]')]
              .filter(s => s.type !== 'module' && !s.defer && !s.async).length"""
    )
    assert blocking == 0


def test_every_image_has_dimensions_and_those_below_the_fold_load_lazily(
    page: Page, site: LiveServer
) -> None:
    for path in ("/", "/projects"):
        page.goto(site.url + path)
        images = page.evaluate(
            """() => [...document.images].map(img => ({
                width: img.getAttribute('width'), height: img.getAttribute('height'),
                loading: img.getAttribute('loading') || 'eager',
                below: img.getBoundingClientRect().top > window.innerHeight * 1.5,
                slide: img.classList.contains('image-gallery-image')}))"""
        )
        assert images
        for image in images:
            assert image["width"], image
            assert image["height"], image
            # The slider's first photo is eager on purpose: it is the slider's LCP.
            if image["below"] and not image["slide"]:
                assert image["loading"] == "lazy", image


def test_the_video_iframe_waits_until_it_is_near_the_viewport(page: Page, site: LiveServer) -> None:
    page.goto(site.url + "/")
    expect_lazy = page.locator(".video-section iframe").get_attribute("loading")
    assert expect_lazy == "lazy"


def test_the_page_fetches_its_scripts_and_font_without_waiting(
    page: Page, site: LiveServer
) -> None:
    page.goto(site.url + "/projects")
    head = page.evaluate(
        """() => [...document.head.querySelectorAll('link, script[src]')]
              .map(l => [l.rel || 'script', l.getAttribute('href') || l.getAttribute('src')])"""
    )
    # The entry and the chunks it imports, all named up front: at most three
    # scripts, and none of the code that waits (slider, scrolling, vitals).
    scripts = [href for rel, href in head if rel in ("modulepreload", "script")]
    assert 1 <= len(scripts) <= 3, scripts
    assert not any(
        name in href for href in scripts for name in ("SlideGallery", "scroller", "vitals")
    )
    assert any(rel == "preload" and href.endswith(".woff2") for rel, href in head)


def test_a_list_page_does_not_download_the_slider_or_scrolling_code(
    page: Page, site: LiveServer
) -> None:
    page.goto(site.url + "/projects")
    page.wait_for_load_state("networkidle")
    scripts = page.evaluate(
        """() => performance.getEntriesByType('resource')
              .map(e => e.name).filter(n => n.endsWith('.js'))"""
    )
    assert not any("SlideGallery" in name for name in scripts)
    assert not any("/scroller-" in name for name in scripts)
