"""Photos through the image route in Chromium: srcset everywhere, small files on a phone."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, Response, expect

from harness.live_server import LiveServer
from tests.browser.support import Console, fulfil_offline, visit

ROUTE_URL = re.compile(r"/img/([ws])(\d+)/[\w-]{12}/local/")


@pytest.fixture
def phone(browser: Browser, console: Console) -> Iterator[Page]:
    """A 390 x 844 phone with a 2x screen."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    context.route("https://www.youtube-nocookie.com/**", fulfil_offline)
    page = context.new_page()
    page.on("console", lambda message: console.messages.append(message))
    page.on("pageerror", lambda error: console.page_errors.append(str(error)))
    yield page
    context.close()


def chosen_width(image_url: str) -> int:
    """The width of the variant a browser chose: a route URL's w640 -> 640."""
    found = ROUTE_URL.search(image_url)
    assert found is not None, image_url
    return int(found.group(2))


def loaded_source(page: Page, selector: str) -> str:
    """The URL the browser picked from the srcset, once the image has loaded."""
    locator = page.locator(selector).first
    locator.scroll_into_view_if_needed()
    expect(locator).to_have_js_property("complete", True)
    assert locator.evaluate("img => img.naturalWidth") > 0
    source: str = locator.evaluate("img => img.currentSrc")
    return source


def test_cards_modal_and_slider_use_srcset_through_the_route(page: Page, site: LiveServer) -> None:
    visit(page, site.url + "/projects")
    card = page.locator(".card__image").first
    expect(card).to_have_attribute("srcset", re.compile(r"^/img/w320/.+ 320w, .+ 1920w$"))
    expect(card).to_have_attribute("sizes", re.compile(r"calc\(100vw - 2.5rem\)"))
    page.locator(".card").first.click()
    modal = page.locator(".card-modal__image")
    expect(modal).to_have_attribute("srcset", re.compile(r"^/img/s400/.+ 400w, /img/s800/.+ 800w$"))
    expect(modal).to_have_attribute("sizes", re.compile(r"400px$"))
    visit(page, site.url + "/")
    # The slider's photos come with its code, as it nears the viewport.
    page.locator(".slider").scroll_into_view_if_needed()
    slide = page.locator(".image-gallery-slide .image-gallery-image").first
    expect(slide).to_have_attribute("srcset", re.compile(r"^/img/w320/.+ 1920w$"))
    expect(slide).to_have_attribute("sizes", re.compile(r"60rem$"))


def test_a_desktop_picks_the_width_of_a_card(page: Page, site: LiveServer) -> None:
    # Three columns of about 362 px at 1x: the 480-wide variant.
    visit(page, site.url + "/projects")
    assert chosen_width(loaded_source(page, ".card__image")) == 480


def test_a_phone_downloads_small_modern_images(
    phone: Page, site: LiveServer, console: Console
) -> None:
    responses: list[Response] = []
    phone.on("response", lambda response: responses.append(response))
    visit(phone, site.url + "/projects")
    # About 350 px wide at 2x: never the 4000-px original, nor the widest variants.
    assert chosen_width(loaded_source(phone, ".card__image")) <= 960
    phone.locator(".card").nth(1).click()
    assert ROUTE_URL.search(loaded_source(phone, ".card-modal__image")) is not None
    visit(phone, site.url + "/")
    phone.locator(".slider").scroll_into_view_if_needed()
    assert chosen_width(loaded_source(phone, ".image-gallery-slide .image-gallery-image")) <= 960
    assert chosen_width(loaded_source(phone, ".image-gallery-thumbnail-image")) == 320
    photos = [response for response in responses if "/img/" in response.url]
    assert photos
    assert {response.headers["content-type"] for response in photos} == {"image/avif"}
    assert not [response.url for response in responses if "/images/" in response.url]
    assert console.problems == []
