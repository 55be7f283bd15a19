"""The landing page as a visitor meets it in Chromium."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Browser, Page, expect

from harness.live_server import LiveServer
from tests.browser.support import (
    Console,
    bring_the_slider_in_on_a_held_clock,
    expect_autoplay_running,
    route_src,
    settle,
    shipped_content_path,
    slider_status,
    visit,
)

SLIDES = json.loads((shipped_content_path() / "slider.json").read_text(encoding="utf-8"))


def test_sections_appear_in_the_spec_order_and_hydrate_without_warnings(
    page: Page, site: LiveServer, console: Console
) -> None:
    visit(page, site.url + "/")
    expect(page.get_by_role("heading", level=1)).to_have_text("WELCOME TO THE WORLD OF FINE STONE")
    sections = page.locator("main > section, body footer").evaluate_all(
        "els => els.map(e => e.className.split(' ')[0])"
    )
    assert sections == [
        "hero",
        "video-section",
        "services",
        "about",
        "slider",
        "booking",
        "contact",
    ]
    page.wait_for_load_state("networkidle")
    assert console.problems == []


def test_hero_buttons_lead_to_projects_and_collabrations(page: Page, site: LiveServer) -> None:
    visit(page, site.url + "/")
    hero = page.locator(".hero")
    hero.get_by_role("link", name="Projects").click()
    expect(page).to_have_url(site.url + "/projects")
    page.go_back()
    hero.get_by_role("link", name="Collabrations").click()
    expect(page).to_have_url(site.url + "/Collabrations")


def test_video_is_embedded_muted_and_autoplaying_from_the_privacy_domain(
    page: Page, site: LiveServer
) -> None:
    visit(page, site.url + "/")
    frame = page.locator(".video-section iframe")
    expect(frame).to_have_attribute("title", "Our quarry and factory at work")
    src = frame.get_attribute("src") or ""
    assert src.startswith("https://www.youtube-nocookie.com/embed/")
    assert "autoplay=1" in src
    assert "mute=1" in src
    assert "autoplay" in (frame.get_attribute("allow") or "")


def test_three_services_each_with_icon_and_sentence(page: Page, site: LiveServer) -> None:
    visit(page, site.url + "/")
    services = page.locator(".service")
    expect(services).to_have_count(3)
    expect(services.locator("h3")).to_have_text(["Best Time", "Best Quality", "Expert Guidance"])
    for index in range(3):
        service = services.nth(index)
        expect(service.locator("svg")).to_be_visible()
        assert len(service.locator("p").inner_text()) > 20


def test_slider_shows_every_slide_with_thumbnails_status_and_autoplays_every_5_s(
    page: Page, site: LiveServer
) -> None:
    page.clock.install()
    visit(page, site.url + "/")
    slider = page.locator(".slider")
    # The gallery's code loads as the slider nears the viewport; it plays from then on.
    bring_the_slider_in_on_a_held_clock(page)
    expect_autoplay_running(page)
    status = slider_status(page)
    expect(status).to_have_text(f"1 / {len(SLIDES)}")
    src = [route_src(slide["photoUrl"], "w320") for slide in SLIDES]
    # One thumbnail per Slider document, in order (the slides add clones for looping).
    thumbnails = slider.locator(".image-gallery-thumbnail img")
    expect(thumbnails).to_have_count(len(SLIDES))
    for thumbnail, pattern in zip(thumbnails.all(), src, strict=True):
        expect(thumbnail).to_have_attribute("src", pattern)
    current = slider.locator(".image-gallery-thumbnail.active img")
    expect(current).to_have_attribute("src", src[0])
    # Autoplay at 5000 ms: still on the first slide just before, on the second just after.
    page.clock.run_for(4900)
    settle(page)
    expect(status).to_have_text(f"1 / {len(SLIDES)}")
    page.clock.run_for(200)
    expect(status).to_have_text(f"2 / {len(SLIDES)}")
    expect(current).to_have_attribute("src", src[1])


def test_the_gallery_code_loads_only_when_the_slider_nears_the_viewport(
    page: Page, site: LiveServer
) -> None:
    gallery_requests: list[str] = []
    page.on(
        "request",
        lambda request: (
            gallery_requests.append(request.url) if "SlideGallery" in request.url else None
        ),
    )
    visit(page, site.url + "/")
    page.wait_for_load_state("networkidle")
    # The server's slider markup is there from the start, without the code.
    expect(page.locator(".slider .image-gallery-thumbnail")).to_have_count(len(SLIDES))
    assert gallery_requests == []
    with page.expect_request(lambda request: "SlideGallery" in request.url):
        page.locator(".slider").scroll_into_view_if_needed()
    assert len(gallery_requests) == 1


@pytest.mark.parametrize("width", [390, 1280])
def test_without_javascript_the_slider_shows_its_first_photo_thumbnails_and_status(
    browser: Browser, site: LiveServer, width: int
) -> None:
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": width, "height": 800}
    )
    page = context.new_page()
    try:
        # Without scripting browsers load lazy images at once (so that scrolling
        # cannot be tracked): this is about what shows, not when it is fetched.
        page.goto(site.url + "/")
        slider = page.locator(".slider")
        slider.scroll_into_view_if_needed()
        first = slider.locator(".image-gallery-slide.image-gallery-center img").first
        expect(first).to_have_attribute("src", route_src(SLIDES[0]["photoUrl"], "w1280"))
        expect(first).to_be_in_viewport()
        page.wait_for_function(
            "(image) => image.complete && image.naturalWidth > 0", arg=first.element_handle()
        )
        box = first.bounding_box()
        assert box is not None
        assert box["width"] > width / 2
        assert abs(box["width"] / box["height"] - 16 / 9) < 0.02
        thumbnails = slider.locator(".image-gallery-thumbnail img")
        expect(thumbnails).to_have_count(len(SLIDES))
        for thumbnail in thumbnails.all():
            page.wait_for_function(
                "(image) => image.complete && image.naturalWidth > 0",
                arg=thumbnail.element_handle(),
            )
        expect(slider.locator(".image-gallery-index")).to_have_text(f"1 / {len(SLIDES)}")
    finally:
        context.close()


def test_book_now_opens_the_booking_page_in_a_new_tab(page: Page, site: LiveServer) -> None:
    visit(page, site.url + "/")
    with page.context.expect_page() as new_tab:
        page.get_by_role("link", name="Book Now!").click()
    booking = new_tab.value
    booking.wait_for_load_state()
    assert booking.url == "https://booking.example.com/fine-stone"
    # noopener: the booking page cannot reach back into the site.
    assert booking.evaluate("window.opener") is None
    assert page.url == site.url + "/"


def test_footer_lists_the_three_branches_with_contact_links(page: Page, site: LiveServer) -> None:
    visit(page, site.url + "/")
    branches = page.locator(".branch")
    expect(branches.locator("h3")).to_have_text(["Jordan", "France", "Italy"])
    jordan = branches.nth(0)
    expect(jordan.get_by_role("link", name="info@example.com")).to_have_attribute(
        "href", "mailto:info@example.com"
    )
    expect(jordan).to_contain_text(re.compile(r"P\.O\. Box .*Zarqa"))
    expect(branches.nth(1).locator('a[href^="tel:"]')).to_have_count(1)
    expect(branches.nth(1)).to_contain_text("Paris")
    expect(branches.nth(2).locator('a[href^="tel:"]')).to_have_count(1)
