"""WCAG 2.2 AA in a real browser: axe-core on every route, keyboard-only use, motion."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from harness.live_server import LiveServer
from tests.browser.support import (
    bring_the_slider_in_on_a_held_clock,
    expect_autoplay_running,
    settle,
    slider_status,
    turn_the_slider_once,
    violations,
    visit,
)

PHONE_AND_DESKTOP = pytest.mark.parametrize(
    "viewport", [(390, 844), (1280, 800)], ids=["phone", "desktop"], indirect=True
)


@PHONE_AND_DESKTOP
@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/projects",
        "/Collabrations",
        "/not-here",
        "/ar",
        "/ar/projects",
        # A card's own page: the list with its modal open from the server's HTML.
        "/projects/dead-sea-resort-lobby",
        "/ar/Collabrations/tilal-and-noor-interiors",
        "/fr",
        "/it/Collabrations/tilal-and-noor-interiors",
        "/ar/enquiry",
    ],
)
def test_axe_finds_no_violation(page: Page, site: LiveServer, path: str) -> None:
    visit(page, site.url + path)
    assert violations(page) == []


@PHONE_AND_DESKTOP
def test_axe_finds_no_violation_with_the_modal_open(page: Page, site: LiveServer) -> None:
    visit(page, site.url + "/projects")
    page.locator(".card").first.click()
    expect(page.get_by_role("dialog")).to_be_visible()
    assert violations(page) == []


def focused(page: Page) -> str:
    label: str = page.evaluate(
        """() => {
            const element = document.activeElement;
            return (element.getAttribute('aria-label') || element.textContent).trim();
        }"""
    )
    return label


def test_the_keyboard_reaches_the_skip_link_and_every_menu_item(
    page: Page, site: LiveServer
) -> None:
    visit(page, site.url + "/projects")
    page.keyboard.press("Tab")
    assert focused(page) == "Skip to content"
    expect(page.locator(".skip-link")).to_be_in_viewport()
    stops = []
    for _ in range(6):
        page.keyboard.press("Tab")
        stops.append(focused(page))
    assert stops == [
        "Fine Stone: home",
        "Projects",
        "Collabrations",
        "Stones",
        "About us",
        "Contact",
    ]


def test_the_skip_link_takes_focus_to_the_content(page: Page, site: LiveServer) -> None:
    visit(page, site.url + "/projects")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    # The next stop after skipping is the first card, not the menu.
    assert page.evaluate("document.activeElement.classList.contains('card')")


def test_a_card_opens_with_enter_keeps_focus_inside_and_gives_it_back(
    page: Page, site: LiveServer
) -> None:
    visit(page, site.url + "/projects")
    card = page.locator(".card").nth(1)
    card.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    assert page.evaluate("document.querySelector('dialog').contains(document.activeElement)")
    for _ in range(6):
        page.keyboard.press("Tab")
        assert page.evaluate(
            "document.querySelector('dialog').contains(document.activeElement)"
            " || document.activeElement === document.body"
        )
    # The page behind does not scroll while the modal is open.
    assert page.evaluate("getComputedStyle(document.documentElement).overflow") == "hidden"
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert page.evaluate("document.activeElement.classList.contains('card')")
    assert page.evaluate("document.activeElement === document.querySelectorAll('.card')[1]")


def test_close_with_the_keyboard_returns_focus_to_the_card(page: Page, site: LiveServer) -> None:
    visit(page, site.url + "/Collabrations")
    page.locator(".card").first.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("dialog")).to_be_visible()
    page.get_by_role("button", name="Close").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("dialog")).to_be_hidden()
    assert page.evaluate("document.activeElement === document.querySelector('.card')")


def test_the_slider_pauses_while_hovered_and_has_a_pause_control(
    page: Page, site: LiveServer
) -> None:
    page.clock.install()
    visit(page, site.url + "/")
    bring_the_slider_in_on_a_held_clock(page)
    expect(page.locator(".image-gallery-play-button")).to_be_visible()
    expect_autoplay_running(page)
    status = slider_status(page)
    page.locator(".image-gallery-slide-wrapper").hover()
    page.clock.run_for(6000)
    settle(page)
    expect(status).to_have_text("1 / 5")  # held still under the pointer
    page.mouse.move(0, 0)
    page.clock.run_for(5100)
    expect(status).to_have_text("2 / 5")


def test_reduced_motion_means_no_autoplay_and_instant_scrolling(
    browser: Browser, site: LiveServer
) -> None:
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.clock.install()
    visit(page, site.url + "/")
    page.locator(".slider").scroll_into_view_if_needed()
    turn_the_slider_once(page)  # the gallery's code runs: Next works
    status = slider_status(page)
    expect(status).to_have_text("2 / 5")
    page.clock.run_for(6000)
    settle(page)
    expect(status).to_have_text("2 / 5")
    # Instant: the page jumps to the section in one step, not 500 ms of steps.
    # The scroll event of this reset may arrive after the listener is added, so
    # positions at the top are not counted.
    page.evaluate("window.scrollTo(0, 0)")
    page.evaluate(
        "window.scrolledTo = [];"
        " addEventListener('scroll', () => scrollY > 0 && scrolledTo.push(scrollY))"
    )
    page.get_by_role("navigation", name="Main").get_by_role("link", name="About us").click()
    expect(page.locator("#about h2")).to_be_in_viewport()
    page.wait_for_function("scrolledTo.length > 0")
    assert len(set(page.evaluate("scrolledTo"))) == 1
    context.close()
