"""Client-side navigation after hydration, and what a failed fetch does."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Route, expect

from harness.live_server import LiveServer
from tests.browser.support import Console, visit


def mark_document(page: Page) -> None:
    # A full page load would wipe this; client-side navigation keeps it.
    page.evaluate("window.__sameDocument = true")


def still_same_document(page: Page) -> bool:
    return bool(page.evaluate("window.__sameDocument === true"))


def test_header_navigates_on_the_client_and_fetches_each_list(
    page: Page, site: LiveServer, console: Console
) -> None:
    visit(page, site.url + "/")
    mark_document(page)
    nav = page.get_by_role("navigation", name="Main")
    with page.expect_response(site.url + "/api/content/projects"):
        nav.get_by_role("link", name="Projects").click()
    expect(page).to_have_url(site.url + "/projects")
    expect(page.locator(".card").first).to_be_visible()
    with page.expect_response(site.url + "/api/content/collabrations"):
        nav.get_by_role("link", name="Collabrations").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Collabrations")
    expect(page.locator(".card").first).to_be_visible()
    page.get_by_role("link", name="Fine Stone: home").click()
    expect(page).to_have_url(site.url + "/")
    # The slider shows its first photo; the gallery's code follows near the viewport.
    expect(page.locator(".slider img").first).to_be_visible()
    assert still_same_document(page)
    assert console.problems == []


@pytest.mark.parametrize(
    ("start", "link", "collection", "message"),
    [
        ("/", "Projects", "projects", "Error fetching projects:"),
        ("/", "Collabrations", "collabrations", "Error fetching collabrations:"),
        ("/projects", "Fine Stone: home", "slider", "Error fetching slider images:"),
    ],
)
def test_a_failed_fetch_logs_the_spec_text_and_leaves_the_list_empty(
    page: Page,
    site: LiveServer,
    console: Console,
    start: str,
    link: str,
    collection: str,
    message: str,
) -> None:
    def refuse(route: Route) -> None:
        route.fulfill(status=503, content_type="application/json", body='{"error":"down"}')

    page.route(f"**/api/content/{collection}", refuse)
    visit(page, site.url + start)
    # Waits for the line however busy the machine is (photos being resized, say).
    with page.expect_console_message(lambda m: m.type == "error" and m.text.startswith(message)):
        page.get_by_role("link", name=link, exact=True).first.click()
    expect(page.locator("#main")).to_be_visible()
    page.wait_for_timeout(300)  # time for a second, unwanted line
    errors = [text for text in console.texts("error") if text.startswith(message)]
    assert len(errors) == 1, console.texts()
    # The list stays empty and the visitor sees no error message.
    assert page.locator(".card, .image-gallery-thumbnail").count() == 0
    assert "Error" not in page.locator("#main").inner_text()


def test_unknown_path_shows_the_404_page_with_the_header(page: Page, site: LiveServer) -> None:
    response = visit(page, site.url + "/not-here")
    assert response is not None
    assert response.status == 404
    expect(page.get_by_role("heading", level=1)).to_have_text("This page is not here")
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
