"""The card dialog on every list in every language: Close is a button named in the
page's language once the site's code runs (a link to the list before); focus goes into
the dialog as it opens and back to its card as it closes, by Close or Escape, before
and after the code runs; and the same card in another language is one link away in
the open dialog (its modal makes the header inert), with script on and off."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from harness.live_server import LiveServer
from server.site.languages import LOCALES, locale_named, locale_of_path, messages
from tests.browser.support import documents, visit

SITE_CODE = re.compile(r"/assets/.*\.js$")
LISTS = [locale.path(path) for locale in LOCALES for path in ("/projects", "/Collabrations")]
PROJECT = documents("projects.json")[2]
CARD_PATH = f"/projects/{PROJECT['id']}"


def close_name(path: str) -> str:
    return str(messages(locale_of_path(path))["lists"]["close"])


def read_this_page_in(code: str) -> str:
    """The name of the switcher's link to a language ("Lire cette page en français")."""
    locale = locale_named(code)
    assert locale is not None
    return str(messages(locale)["meta"]["readThisPage"])


@pytest.mark.parametrize("path", LISTS)
def test_close_is_a_button_in_the_page_language_and_focus_returns_to_the_card(
    page: Page, site: LiveServer, path: str
) -> None:
    visit(page, site.url + path)
    cards = page.locator(".card")
    dialog = page.get_by_role("dialog")
    close = dialog.get_by_role("button", name=close_name(path), exact=True)

    cards.nth(1).click()
    expect(close).to_be_focused()
    assert close.evaluate("element => element.tagName") == "BUTTON"
    close.click()
    expect(dialog).to_be_hidden()
    expect(page).to_have_url(site.url + path)
    expect(cards.nth(1)).to_be_focused()

    # Again by keyboard; another card (a click the modal's backdrop would take from
    # a pointer) replaces the selection, and Escape returns focus to that one.
    page.keyboard.press("Enter")
    expect(close).to_be_focused()
    cards.nth(2).dispatch_event("click")
    expect(dialog.get_by_role("heading")).to_have_text(
        cards.nth(2).locator(".card__name").inner_text()
    )
    expect(page.locator(".card.selected")).to_have_count(1)
    expect(cards.nth(2)).to_have_class("card selected")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page).to_have_url(site.url + path)
    expect(page.locator(".card.selected")).to_have_count(0)
    expect(cards.nth(2)).to_be_focused()


# The mechanism is the same in every language: each list once, each language once.
@pytest.mark.parametrize(
    "path", ["/projects", "/ar/Collabrations", "/fr/projects", "/it/Collabrations"]
)
def test_before_the_code_runs_close_and_escape_return_focus_to_the_card(
    page: Page, site: LiveServer, path: str
) -> None:
    # As on a slow phone before the code arrives: the inline boot script alone.
    page.route(SITE_CODE, lambda route: route.abort())
    page.goto(site.url + path)
    cards = page.locator(".card")
    dialog = page.get_by_role("dialog")
    close = dialog.get_by_role("link", name=close_name(path), exact=True)

    # Each card is a link to its page, whose dialog is modal with focus on Close.
    name = cards.nth(1).locator(".card__name").inner_text()
    cards.nth(1).click()
    expect(page).to_have_url(re.compile(re.escape(f"{site.url}{path}/") + r"[\w-]+$"))
    expect(dialog.get_by_role("heading")).to_have_text(name)
    expect(cards.nth(1)).to_have_attribute("aria-current", "page")
    expect(close).to_be_focused()
    assert page.evaluate("document.querySelector('dialog').matches(':modal')")
    page.keyboard.press("Escape")
    expect(page).to_have_url(site.url + path)
    expect(cards.nth(1)).to_be_focused()

    cards.nth(2).click()
    expect(close).to_be_focused()
    close.click()
    expect(page).to_have_url(site.url + path)
    expect(dialog).to_be_hidden()
    expect(cards.nth(2)).to_be_focused()
    assert page.locator("html[data-hydrated]").count() == 0


@pytest.mark.parametrize(
    "way_in", ["opened on the list", "its own page", "its own page, the code blocked"]
)
def test_the_open_card_links_to_itself_in_the_other_languages(
    page: Page, site: LiveServer, way_in: str
) -> None:
    if way_in == "opened on the list":
        visit(page, site.url + "/projects")
        page.locator(".card").nth(2).click()
    elif way_in == "its own page":
        visit(page, site.url + CARD_PATH)
    else:
        page.route(SITE_CODE, lambda route: route.abort())
        page.goto(site.url + CARD_PATH)
    dialog = page.get_by_role("dialog")
    languages = dialog.get_by_role("navigation", name="Languages")

    # A keyboard finds it: Tab from Close, inside the dialog.
    french = languages.get_by_role("link", name=read_this_page_in("fr"))
    for _ in range(8):
        if french.evaluate("link => link === document.activeElement"):
            break
        page.keyboard.press("Tab")
    expect(french).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{site.url}/fr{CARD_PATH}")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(dialog.get_by_role("heading")).to_have_text(PROJECT["name_fr"])
    expect(dialog.locator(".card-modal__close")).to_be_focused()

    page.go_back()
    expect(dialog.get_by_role("heading")).to_have_text(PROJECT["name"])
    languages.get_by_role("link", name=read_this_page_in("ar")).click()
    expect(page).to_have_url(f"{site.url}/ar{CARD_PATH}")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(dialog.get_by_role("heading")).to_have_text(PROJECT["name_ar"])


def test_without_javascript_the_open_card_links_to_itself_in_the_other_languages(
    browser: Browser, site: LiveServer
) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(site.url + "/projects")
        page.locator(".card").nth(2).click()
        expect(page).to_have_url(site.url + CARD_PATH)
        dialog = page.get_by_role("dialog")
        dialog.get_by_role("link", name=read_this_page_in("fr")).click()
        expect(page).to_have_url(f"{site.url}/fr{CARD_PATH}")
        expect(dialog.get_by_role("heading")).to_have_text(PROJECT["name_fr"])
        page.go_back()
        dialog.get_by_role("link", name=read_this_page_in("ar")).click()
        expect(page).to_have_url(f"{site.url}/ar{CARD_PATH}")
        expect(dialog.get_by_role("heading")).to_have_text(PROJECT["name_ar"])
    finally:
        context.close()
