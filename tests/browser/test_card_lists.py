"""Projects and Collabrations: the card grid, selection and the modal."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from harness.live_server import LiveServer
from tests.browser.support import Console, documents, route_src, visit

LISTS = [
    ("/projects", "projects.json", "Projects"),
    ("/Collabrations", "collabrations.json", "Collabrations"),
]


@pytest.mark.parametrize(("path", "file_name", "heading"), LISTS)
def test_grid_shows_a_card_per_document_with_image_name_and_description(
    page: Page, site: LiveServer, console: Console, path: str, file_name: str, heading: str
) -> None:
    visit(page, site.url + path)
    expect(page.get_by_role("heading", level=1)).to_have_text(heading)
    cards = page.locator(".card")
    expected = documents(file_name)
    expect(cards).to_have_count(len(expected))
    for card, document in zip(cards.all(), expected, strict=True):
        expect(card.locator(".card__name")).to_have_text(document["name"])
        expect(card.locator(".card__description")).to_have_text(document["description"])
        expect(card.locator("img")).to_have_attribute(
            "src", route_src(document["photoUrl"], "w640")
        )
    page.wait_for_load_state("networkidle")
    assert console.problems == []


@pytest.mark.parametrize(("path", "file_name", "heading"), LISTS)
def test_clicking_a_card_opens_the_modal_and_close_dismisses_it(
    page: Page, site: LiveServer, path: str, file_name: str, heading: str
) -> None:
    visit(page, site.url + path)
    document = documents(file_name)[1]
    card = page.locator(".card").nth(1)
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_hidden()

    card.click()
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading")).to_have_text(document["name"])
    expect(dialog).to_contain_text(document["description"])
    image = dialog.locator("img")
    expect(image).to_have_attribute("src", route_src(document["photoUrl"], "s400"))
    box = image.bounding_box()
    assert box is not None
    assert (box["width"], box["height"]) == (400, 400)
    expect(card).to_have_class("card selected")
    expect(card).to_have_attribute("aria-current", "page")

    dialog.get_by_role("link", name="Close").click()
    expect(dialog).to_be_hidden()
    expect(page.locator(".card.selected")).to_have_count(0)
    expect(card).not_to_have_attribute("aria-current", "page")


@pytest.mark.parametrize(("path", "file_name", "heading"), LISTS)
def test_before_its_code_runs_a_card_is_a_link_to_its_page_with_the_dialog_open(
    page: Page, site: LiveServer, path: str, file_name: str, heading: str
) -> None:
    # As on a slow phone before the code arrives (or with JavaScript off).
    page.route("**/*.js", lambda route: route.abort())
    page.goto(site.url + path)
    document = documents(file_name)[1]
    page.locator(".card").nth(1).click()
    expect(page).to_have_url(f"{site.url}{path}/{document['id']}")
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_role("heading")).to_have_text(document["name"])
    expect(page.locator(".card").nth(1)).to_have_attribute("aria-current", "page")
    # Close is a link to the list.
    dialog.get_by_role("link", name="Close").click()
    expect(page).to_have_url(site.url + path)
    expect(dialog).to_be_hidden()
    assert page.locator("html[data-hydrated]").count() == 0


def test_selecting_another_card_replaces_the_selection(page: Page, site: LiveServer) -> None:
    visit(page, site.url + "/projects")
    cards = page.locator(".card")
    dialog = page.get_by_role("dialog")
    cards.nth(0).click()
    expect(dialog.get_by_role("heading")).to_have_text(documents("projects.json")[0]["name"])
    # The modal covers the grid for a pointer; a click event still reaches another card.
    cards.nth(2).dispatch_event("click")
    expect(dialog.get_by_role("heading")).to_have_text(documents("projects.json")[2]["name"])
    expect(page.locator(".card.selected")).to_have_count(1)
    expect(cards.nth(2)).to_have_class("card selected")

    dialog.get_by_role("link", name="Close").click()
    cards.nth(3).click()
    expect(dialog.get_by_role("heading")).to_have_text(documents("projects.json")[3]["name"])
    expect(page.locator(".card.selected")).to_have_count(1)


def test_escape_closes_the_modal_and_clears_the_selection(page: Page, site: LiveServer) -> None:
    visit(page, site.url + "/Collabrations")
    page.locator(".card").first.click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.locator(".card.selected")).to_have_count(0)


@pytest.mark.parametrize("viewport", [(390, 844)], ids=["phone"], indirect=True)
def test_the_modal_fits_a_phone_screen(page: Page, site: LiveServer) -> None:
    visit(page, site.url + "/projects")
    page.locator(".card").first.click()
    dialog = page.get_by_role("dialog")
    box = dialog.bounding_box()
    assert box is not None
    assert box["width"] <= 390
    expect(dialog.get_by_role("link", name="Close")).to_be_in_viewport()
