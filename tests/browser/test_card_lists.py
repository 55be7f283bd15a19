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

    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()
    expect(page.locator(".card.selected")).to_have_count(0)
    expect(card).not_to_have_attribute("aria-current", "page")


@pytest.mark.parametrize("viewport", [(390, 844)], ids=["phone"], indirect=True)
def test_the_modal_fits_a_phone_screen(page: Page, site: LiveServer) -> None:
    visit(page, site.url + "/projects")
    page.locator(".card").first.click()
    dialog = page.get_by_role("dialog")
    box = dialog.bounding_box()
    assert box is not None
    assert box["width"] <= 390
    expect(dialog.get_by_role("button", name="Close")).to_be_in_viewport()
