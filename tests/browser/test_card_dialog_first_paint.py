"""A card's page is a modal dialog from its first paint, whatever the way in: with the
site's code blocked, with it loaded, by a click before and after it ran. Escape closes
it, the address becomes the list's and focus is back on the card: before the code ran
by following Close, a link to the list (the list's page loads and focuses the card the
visitor left); after it, in place."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx2 as httpx
import pytest
from playwright.sync_api import Page, Route, expect

from harness.live_server import LiveServer
from tests.browser.support import Console, documents, visit

PROJECTS = documents("projects.json")
COMPANY = "Example Fine Stone Co."
SITE_CODE = re.compile(r"/assets/.*\.js$")

# Before the page's own script: every frame the browser renders, what it shows of
# the dialog (requestAnimationFrame callbacks run just before each paint).
WATCH_FRAMES = """
window.__frames = [];
window.__keydowns = [];
addEventListener("keydown", (event) => window.__keydowns.push(event.timeStamp), true);
const watch = () => {
  const dialog = document.querySelector("dialog.card-modal");
  window.__frames.push({
    at: performance.now(),
    shown: dialog !== null && dialog.open,
    modal: dialog !== null && dialog.matches(":modal"),
    focusInside: dialog !== null && dialog.contains(document.activeElement),
    closeParsed: dialog !== null && dialog.querySelector("[autofocus]") !== null,
  });
  // Until well after the dialog first shows, however slowly a loaded machine gets there.
  if (window.__frames.findIndex((frame) => frame.shown) === -1) {
    if (window.__frames.length < 1200) requestAnimationFrame(watch);
  } else if (window.__frames.length - window.__frames.findIndex((frame) => frame.shown) < 60) {
    requestAnimationFrame(watch);
  }
};
requestAnimationFrame(watch);
"""


def address(site: LiveServer, path: str) -> re.Pattern[str]:
    return re.compile(re.escape(site.url + path) + "$")


def first_paint(page: Page) -> float:
    """The moment of the first paint, once it has happened (ms on the page's clock)."""
    handle = page.wait_for_function(
        "() => performance.getEntriesByName('first-paint')[0]?.startTime", polling="raf"
    )
    return float(handle.json_value())


def escape_at_first_paint(page: Page, url: str) -> list[dict[str, object]]:
    """Open `url`, press Escape as soon as it has painted; the frames before the Escape.

    How soon depends on the test machine's load (tens to hundreds of ms), so the
    frames are the proof for any moment: from the first one that shows the dialog,
    each shows it modal with focus inside, which is what Escape needs. They are
    read before the Escape, which leads to another page."""
    page.add_init_script(WATCH_FRAMES)
    page.goto(url, wait_until="commit")
    first_paint(page)
    page.wait_for_function("window.__frames.some((frame) => frame.shown)", polling="raf")
    frames: list[dict[str, object]] = page.evaluate("window.__frames")
    page.keyboard.press("Escape")
    return frames


def assert_every_frame_showed_a_modal_with_focus_inside(frames: list[dict[str, object]]) -> None:
    shown = [frame for frame in frames if frame["shown"]]
    assert shown, "no frame showed the dialog"
    assert all(frame["modal"] and frame["focusInside"] for frame in shown), shown


def assert_closed_to_the_list(page: Page, site: LiveServer, index: int) -> None:
    expect(page).to_have_url(address(site, "/projects"))
    expect(page.locator("dialog.card-modal")).to_be_hidden()
    card = page.locator(".card").nth(index)
    expect(card).to_have_class("card")
    expect(card).not_to_have_attribute("aria-current", "page")
    expect(page).to_have_title(f"Projects | {COMPANY}")
    expect(card).to_be_focused()


# Where a slow network may cut a card's page: right after the dialog's start tag, or
# after the stones' links that come before Close (then showModal() focuses the first).
SPLITS = {
    "after the dialog opens": lambda body: body.index(b">", body.index(b"<dialog")) + 1,
    "before Close": lambda body: body.rindex(
        b"<a ", 0, body.index(b"card-modal__close", body.index(b"<dialog"))
    ),
}


@contextmanager
def split_page(site: LiveServer, path: str, split_at: Callable[[bytes], int]) -> Iterator[str]:
    """A server in front of `site` that sends `path`'s page in two parts, cut where
    `split_at` says, half a second apart: the browser parses and may paint the first
    part alone, as on a slow network. Yields its address."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            answer = httpx.get(site.url + self.path, headers={"Accept-Encoding": "identity"})
            body = answer.content
            self.send_response(answer.status_code)
            for name in ("content-type", "content-security-policy"):
                if name in answer.headers:
                    self.send_header(name, answer.headers[name])
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            split = split_at(body) if self.path == path else 0
            self.wfile.write(body[:split])
            self.wfile.flush()
            if split:
                time.sleep(0.5)
            self.wfile.write(body[split:])

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("split", SPLITS)
def test_a_card_page_split_in_its_dialog_shows_it_modal_in_every_frame_and_focuses_close(
    page: Page, site: LiveServer, split: str
) -> None:
    path = f"/projects/{PROJECTS[4]['id']}"  # a project with stones, linked before Close
    page.route(SITE_CODE, lambda route: route.abort())
    page.add_init_script(WATCH_FRAMES)
    with split_page(site, path, SPLITS[split]) as url:
        page.goto(url + path)
        expect(page.get_by_role("dialog").get_by_role("link", name="Close")).to_be_focused()
    frames = page.evaluate("window.__frames")
    assert_every_frame_showed_a_modal_with_focus_inside(frames)
    # Frames were drawn between the two parts: the split is what is tested.
    assert any(frame["shown"] and not frame["closeParsed"] for frame in frames), frames


def test_with_the_code_blocked_escape_at_the_first_paint_closes_the_card(
    page: Page, site: LiveServer, console: Console
) -> None:
    page.route(SITE_CODE, lambda route: route.abort())
    frames = escape_at_first_paint(page, f"{site.url}/projects/{PROJECTS[4]['id']}")
    assert_closed_to_the_list(page, site, 4)
    assert_every_frame_showed_a_modal_with_focus_inside(frames)
    assert console.page_errors == []


@pytest.mark.parametrize("code", ["held until after Escape", "loaded"])
def test_with_the_code_escape_at_the_first_paint_closes_the_card_and_hydration_follows(
    page: Page, site: LiveServer, console: Console, code: str
) -> None:
    # Held: the code arrives once the card is closed, as on a slow phone. Loaded:
    # it arrives when it does, before or after the Escape.
    held: list[Route] = []
    if code.startswith("held"):
        page.route(SITE_CODE, lambda route: held.append(route))
    frames = escape_at_first_paint(page, f"{site.url}/projects/{PROJECTS[4]['id']}")
    assert_closed_to_the_list(page, site, 4)
    if code.startswith("held"):
        assert not page.evaluate("document.documentElement.hasAttribute('data-hydrated')")
        # Letting it through: what was held, and whatever it asks for next.
        page.unroute(SITE_CODE)
    assert_every_frame_showed_a_modal_with_focus_inside(frames)

    # The code hydrates the list: no card open, nothing on the console.
    page.locator("html[data-hydrated]").wait_for(state="attached")
    assert_closed_to_the_list(page, site, 4)
    page.wait_for_load_state("networkidle")
    assert console.problems == []
    # And the list works as a hydrated one: a click opens a card in place.
    page.locator(".card").nth(1).click()
    expect(page).to_have_url(address(site, f"/projects/{PROJECTS[1]['id']}"))
    expect(page.get_by_role("dialog")).to_be_visible()
    page.keyboard.press("Escape")
    assert_closed_to_the_list(page, site, 1)
    assert console.problems == []


def test_a_card_clicked_before_the_code_ran_is_a_modal_on_its_page(
    page: Page, site: LiveServer
) -> None:
    held: list[Route] = []
    page.route(SITE_CODE, lambda route: held.append(route))
    page.goto(site.url + "/projects")
    page.add_init_script(WATCH_FRAMES)
    page.locator(".card").nth(2).click()
    expect(page).to_have_url(address(site, f"/projects/{PROJECTS[2]['id']}"))
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_role("link", name="Close")).to_be_focused()
    assert page.evaluate("document.querySelector('dialog').matches(':modal')")
    # On a loaded machine the checks above can run before the first frame is drawn.
    # Polled from here: a wait_for_function here once failed on the page's CSP (no eval).
    deadline = time.monotonic() + 10
    while not page.evaluate("window.__frames.some((frame) => frame.shown)"):
        assert time.monotonic() < deadline, "no frame showed the dialog"
        page.wait_for_timeout(20)
    assert_every_frame_showed_a_modal_with_focus_inside(page.evaluate("window.__frames"))

    # The page behind is inert: a click on another card does nothing.
    # Forced (the page behind is inert), with the default timeout: 2 s was outrun under load.
    page.locator(".card").nth(0).click(force=True)
    expect(page).to_have_url(address(site, f"/projects/{PROJECTS[2]['id']}"))
    # Escape follows Close, a link to the list.
    page.keyboard.press("Escape")
    assert_closed_to_the_list(page, site, 2)
    assert held, "the page never asked for its code"


def test_a_card_opened_and_closed_after_the_code_ran_returns_focus_to_it(
    page: Page, site: LiveServer, console: Console
) -> None:
    visit(page, f"{site.url}/projects/{PROJECTS[3]['id']}")
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_role("button", name="Close")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page).to_have_url(address(site, "/projects"))
    expect(page.locator(".card").nth(3)).to_be_focused()

    page.locator(".card").nth(5).click()
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Close").click()
    expect(page).to_have_url(address(site, "/projects"))
    expect(page.locator(".card").nth(5)).to_be_focused()
    assert console.problems == []
