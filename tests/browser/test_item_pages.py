"""Each card at its own address in the browser: opening, the history, Close and
Escape, Share, no JavaScript, Arabic. One page load each; the rest is the app."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from harness.live_server import LiveServer
from tests.browser.support import Console, documents, visit
from tests.content_files import sample_cards, write_content

PROJECTS = documents("projects.json")
COLLABRATIONS = documents("collabrations.json")
COMPANY = "Example Fine Stone Co."


def address(site: LiveServer, path: str) -> re.Pattern[str]:
    return re.compile(re.escape(site.url + path) + "$")


def mark_the_page(page: Page) -> None:
    """A value that survives client navigation and no page load."""
    page.evaluate("window.__sameDocument = true")


def still_the_same_page(page: Page) -> bool:
    return bool(page.evaluate("window.__sameDocument === true"))


def test_a_card_opens_at_its_address_and_back_forward_close_escape_follow(
    page: Page, site: LiveServer, console: Console
) -> None:
    visit(page, site.url + "/projects")
    mark_the_page(page)
    dialog = page.get_by_role("dialog")
    last = page.locator(".card").last
    last.scroll_into_view_if_needed()
    scrolled = page.evaluate("window.scrollY")
    project = PROJECTS[-1]
    item_path = f"/projects/{project['id']}"

    last.click()
    expect(page).to_have_url(address(site, item_path))
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading")).to_have_text(project["name"])
    expect(page).to_have_title(f"{project['name']} | Projects | {COMPANY}")
    expect(last).to_have_class("card selected")

    page.go_back()
    expect(page).to_have_url(address(site, "/projects"))
    expect(dialog).to_be_hidden()
    expect(page.locator(".card.selected")).to_have_count(0)
    expect(page).to_have_title(f"Projects | {COMPANY}")

    page.go_forward()
    expect(page).to_have_url(address(site, item_path))
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading")).to_have_text(project["name"])

    dialog.get_by_role("button", name="Close").click()
    expect(page).to_have_url(address(site, "/projects"))
    expect(dialog).to_be_hidden()

    # Close went back in the history, so Forward opens the card again.
    page.go_forward()
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(page).to_have_url(address(site, "/projects"))
    expect(dialog).to_be_hidden()
    expect(page.locator(".card.selected")).to_have_count(0)

    # Opening and closing a card left the list where it was.
    assert page.evaluate("window.scrollY") == scrolled
    assert still_the_same_page(page)
    assert console.problems == []


def test_an_item_address_opens_the_list_with_its_modal_and_close_leads_to_the_list(
    page: Page, site: LiveServer, console: Console
) -> None:
    collabration = COLLABRATIONS[2]
    item_path = f"/Collabrations/{collabration['id']}"
    visit(page, site.url + item_path)
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading")).to_have_text(collabration["name"])
    # Once hydrated, a true modal: focus inside, the page behind inert.
    page.wait_for_function("document.querySelector('dialog').matches(':modal')")
    assert page.evaluate("document.querySelector('dialog').contains(document.activeElement)")
    expect(page.locator(".card").nth(2)).to_have_class("card selected")
    mark_the_page(page)

    page.keyboard.press("Escape")
    expect(page).to_have_url(address(site, "/Collabrations"))
    expect(dialog).to_be_hidden()
    expect(page).to_have_title(f"Collabrations | {COMPANY}")
    page.go_back()
    expect(page).to_have_url(address(site, item_path))
    expect(dialog.get_by_role("heading")).to_have_text(collabration["name"])
    dialog.get_by_role("button", name="Close").click()
    expect(page).to_have_url(address(site, "/Collabrations"))
    expect(page.locator(".card")).to_have_count(len(COLLABRATIONS))
    assert still_the_same_page(page)
    assert console.problems == []


@pytest.fixture
def clipboard_page(browser: Browser, site: LiveServer) -> Iterator[Page]:
    """A desktop browser without the Web Share API, which may write the clipboard."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.url)
    context.add_init_script("delete Navigator.prototype.share; delete navigator.share;")
    yield context.new_page()
    context.close()


def canonical(page: Page) -> str:
    href = page.locator('link[rel="canonical"]').get_attribute("href")
    assert href is not None
    return href


def encode_uri_component(text: str) -> str:
    return quote(text, safe="-_.!~*'()")


def test_without_web_share_the_modal_copies_the_link_and_offers_whatsapp(
    clipboard_page: Page, site: LiveServer
) -> None:
    page = clipboard_page
    project = PROJECTS[1]
    visit(page, f"{site.url}/projects/{project['id']}")
    dialog = page.get_by_role("dialog")
    url = canonical(page)
    assert url.endswith(f"/projects/{project['id']}")
    expect(dialog.get_by_role("button", name="Share", exact=True)).to_have_count(0)

    dialog.get_by_role("button", name="Copy link").click()
    expect(dialog.get_by_role("status")).to_have_text("Link copied")
    assert page.evaluate("navigator.clipboard.readText()") == url

    whatsapp = dialog.get_by_role("link", name="Send on WhatsApp")
    expected = "https://wa.me/?text=" + encode_uri_component(f"{project['name']} {url}")
    expect(whatsapp).to_have_attribute("href", expected)
    expect(whatsapp).to_have_attribute("target", "_blank")

    # Another card, opened from the list: its own address, not yet copied.
    page.keyboard.press("Escape")
    page.locator(".card").nth(4).click()
    expect(dialog.get_by_role("status")).to_have_text("")
    dialog.get_by_role("button", name="Copy link").click()
    expect(dialog.get_by_role("status")).to_have_text("Link copied")
    assert page.evaluate("navigator.clipboard.readText()").endswith(
        f"/projects/{PROJECTS[4]['id']}"
    )


def test_with_web_share_the_modal_opens_the_share_sheet(browser: Browser, site: LiveServer) -> None:
    # Chromium on Linux has no Web Share API; phones do. Stand in for the
    # system's share sheet and record what the page hands it.
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(
        "navigator.share = (data) => { window.__shared = data; return Promise.resolve(); };"
    )
    page = context.new_page()
    try:
        project = PROJECTS[0]
        visit(page, f"{site.url}/projects/{project['id']}")
        dialog = page.get_by_role("dialog")
        expect(dialog.get_by_role("button", name="Copy link")).to_have_count(0)
        dialog.get_by_role("button", name="Share", exact=True).click()
        page.wait_for_function("window.__shared !== undefined")
        shared = page.evaluate("window.__shared")
        assert shared["url"] == canonical(page)
        assert shared["title"] == project["name"]
    finally:
        context.close()


# Once the code has taken the dialog over (its Close becomes a button), what it did with it.
REPORT_TAKEOVER = """new MutationObserver((_, observer) => {
  const dialog = document.querySelector("dialog");
  if (!dialog?.querySelector("button.card-modal__close")) return;
  observer.disconnect();
  console.log(`Close is a button; the dialog open: ${dialog.open}`);
}).observe(document, { childList: true, subtree: true });"""


def test_a_dialog_closed_as_the_code_arrives_stays_closed_while_the_list_loads(
    page: Page, site: LiveServer, console: Console
) -> None:
    # On a slow phone the visitor closes the server's dialog (Escape follows Close,
    # a link to the list), and the site's code, started by that key, runs before
    # the list's page arrives: it takes the page over without opening the card again.
    site_code = re.compile(r"/assets/.*\.js$")
    code: list[Route] = []
    the_list: list[Route] = []
    page.add_init_script(REPORT_TAKEOVER)
    page.route(site_code, lambda route: code.append(route))
    # Not its `load`: held code started before it (1 s after the parse at the latest) holds it.
    page.goto(f"{site.url}/projects/{PROJECTS[1]['id']}", wait_until="domcontentloaded")
    page.route(site.url + "/projects", lambda route: the_list.append(route))
    page.keyboard.press("Escape")
    # While the list's page is on its way the test cannot look into this one
    # (Playwright waits for the navigation): the page reports on its console.
    for _ in range(50):
        if the_list and code:
            break
        page.wait_for_timeout(100)
    assert code, "the page never asked for its code"
    assert the_list, "Escape did not follow Close to the list's page"
    for route in code:
        route.continue_()
    page.unroute(site_code)
    for _ in range(100):
        if console.texts("log"):
            break
        page.wait_for_timeout(100)
    took_over = console.texts("log")
    for route in the_list:
        route.continue_()
    page.unroute(site.url + "/projects")
    assert took_over == ["Close is a button; the dialog open: false"]
    expect(page).to_have_url(address(site, "/projects"))
    expect(page.locator("dialog")).to_be_hidden()
    expect(page.locator(".card.selected")).to_have_count(0)
    expect(page.locator(".card").nth(1)).to_be_focused()


def test_without_javascript_an_item_page_shows_its_modal_and_close_works(
    browser: Browser, site: LiveServer
) -> None:
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 1280, "height": 800}
    )
    page = context.new_page()
    try:
        project = PROJECTS[3]
        page.goto(f"{site.url}/projects/{project['id']}")
        dialog = page.get_by_role("dialog")
        expect(dialog).to_be_visible()
        expect(dialog.get_by_role("heading")).to_have_text(project["name"])
        expect(dialog).to_contain_text(project["description"])
        image = dialog.locator("img")
        box = image.bounding_box()
        assert box is not None
        assert (box["width"], box["height"]) == (400, 400)
        expect(dialog.get_by_role("link", name="Send on WhatsApp")).to_be_visible()
        expect(page.locator(".card.selected")).to_have_count(1)
        # Close is a link to the list: no script needed.
        dialog.get_by_role("link", name="Close").click()
        expect(page).to_have_url(address(site, "/projects"))
        expect(dialog).to_be_hidden()
        expect(page.locator(".card")).to_have_count(len(PROJECTS))
    finally:
        context.close()


def test_arabic_item_pages_open_close_and_switch_language(
    page: Page, site: LiveServer, console: Console
) -> None:
    first, second = PROJECTS[0], PROJECTS[2]
    visit(page, f"{site.url}/ar/projects/{first['id']}")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_role("heading")).to_have_text(first["name_ar"])
    dialog.get_by_role("button", name="إغلاق").click()
    expect(page).to_have_url(address(site, "/ar/projects"))
    mark_the_page(page)

    page.locator(".card").nth(2).click()
    expect(page).to_have_url(address(site, f"/ar/projects/{second['id']}"))
    expect(dialog.get_by_role("heading")).to_have_text(second["name_ar"])
    expect(dialog.get_by_role("button", name="نسخ الرابط")).to_be_visible()
    expect(page).to_have_title(f"{second['name_ar']} | المشاريع | شركة الحجر الفاخر (اسم تجريبي)")
    # The dialog's language switcher leads to the same card in English.
    expect(dialog.locator(".site-languages__link[lang=en]")).to_have_attribute(
        "href", f"/projects/{second['id']}"
    )
    page.keyboard.press("Escape")
    expect(page).to_have_url(address(site, "/ar/projects"))
    page.go_forward()
    expect(dialog.get_by_role("heading")).to_have_text(second["name_ar"])
    assert still_the_same_page(page)
    assert console.problems == []


ODD_IDS = ["café & co", "50%-off", "what?#now", "it's (new)"]


@pytest.fixture(scope="module")
def odd_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The site on content whose ids need escaping in a URL."""
    folder = tmp_path_factory.mktemp("odd-ids")
    cards = sample_cards("project", len(ODD_IDS))
    projects = [{**card, "id": item_id} for card, item_id in zip(cards, ODD_IDS, strict=True)]
    env = {
        "CONTENT_DIR": str(write_content(folder / "content", projects=projects)),
        "IMAGE_CACHE_DIR": str(folder / "image-cache"),
    }
    with LiveServer(env=env, log_path=folder / "uvicorn.log") as server:
        yield server


def test_ids_that_need_escaping_round_trip_through_the_address_bar(
    page: Page, odd_site: LiveServer, console: Console
) -> None:
    visit(page, odd_site.url + "/projects")
    dialog = page.get_by_role("dialog")
    for index, item_id in enumerate(ODD_IDS):
        page.locator(".card").nth(index).click()
        path = "/projects/" + encode_uri_component(item_id)
        expect(page).to_have_url(address(odd_site, path))
        expect(dialog.get_by_role("heading")).to_have_text(f"Project {index + 1}")
        # The address the browser made is one the server knows.
        page.reload()
        expect(dialog.get_by_role("heading")).to_have_text(f"Project {index + 1}")
        assert canonical(page).endswith(path)
        dialog.get_by_role("button", name="Close").click()
        expect(page).to_have_url(address(odd_site, "/projects"))
    assert console.problems == []
