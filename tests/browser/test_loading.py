"""What the browser loads, and when."""

from __future__ import annotations

import re

from playwright.sync_api import Page

from harness.live_server import LiveServer


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


def test_no_script_file_comes_before_the_first_paint_and_the_code_starts_after_load(
    page: Page, site: LiveServer
) -> None:
    response = page.goto(site.url + "/projects")
    assert response is not None
    server_html = response.text()
    # The page as sent names no script file and no chunk: its one script is
    # inline (ui/boot/boot.ts), so nothing but the font and the first photo is
    # fetched with the document.
    assert re.findall(r"<script[^>]*\bsrc=|<link rel=\"modulepreload\"", server_html) == []
    assert server_html.count("<script>") == 1
    assert re.search(r'<link rel="preload" href="[^"]+\.woff2" as="font"', server_html)
    # What it starts: the entry and the chunks it runs at once, and none of
    # the code that waits (slider, scrolling, vitals).
    started = (page.locator('meta[name="site-code"]').get_attribute("content") or "").split()
    assert "/entry-client-" in started[0], started
    assert not any(
        name in href for href in started for name in ("SlideGallery", "scroller", "vitals")
    )
    page.locator("html[data-hydrated]").wait_for(state="attached")
    timings = page.evaluate(
        """(paths) => ({
            loaded: performance.getEntriesByType('navigation')[0].loadEventEnd,
            starts: paths.map(path => performance.getEntriesByType('resource')
                .find(e => new URL(e.name).pathname === path)?.startTime ?? null),
        })""",
        started,
    )
    # Each fetched once the page had loaded, so none competed with it.
    assert None not in timings["starts"], timings
    assert min(timings["starts"]) >= timings["loaded"], timings


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
