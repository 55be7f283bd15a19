"""What the browser tests share: a page and its console, the shipped content, the slider."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import ConsoleMessage, Locator, Page, Response, Route, expect

from server.settings import REPO_ROOT


@dataclass
class Console:
    """What the page said on its console, and any uncaught errors."""

    messages: list[ConsoleMessage] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)

    def texts(self, *types: str) -> list[str]:
        return [m.text for m in self.messages if not types or m.type in types]

    @property
    def problems(self) -> list[str]:
        return self.texts("error", "warning") + self.page_errors


def fulfil_offline(route: Route) -> None:
    # Third parties (the video embed, the booking page) are unreachable here;
    # answer for them so the page behaves as it would online.
    route.fulfill(status=200, content_type="text/html", body="<!doctype html><title>stub</title>")


def visit(page: Page, url: str) -> Response:
    """Go to a page and wait until its own code runs.

    The server's HTML works before that (cards are links), but a click then
    loads the card's page instead of opening the dialog in place: tests of
    what the code does wait for it (ui/boot/boot.ts starts it after the first paint).
    """
    response = page.goto(url)
    assert response is not None, url
    # Only the site's rendered pages carry code; the fallback page has none.
    if page.locator('meta[name="site-code"]').count():
        page.locator("html[data-hydrated]").wait_for(state="attached")
    return response


def shipped_content_path() -> Path:
    return REPO_ROOT / "content"


def route_src(photo_url: str, variant: str) -> re.Pattern[str]:
    """The image route's URL of a local photo (server/images/urls.py) at one variant."""
    local_path = re.escape(photo_url.removeprefix("/images/"))
    return re.compile(rf"^/img/{variant}/[\w-]{{12}}/local/{local_path}$")


def documents(file_name: str) -> list[dict[str, str]]:
    """A shipped content file's documents."""
    loaded: list[dict[str, str]] = json.loads(
        (shipped_content_path() / file_name).read_text(encoding="utf-8")
    )
    return loaded


# The slider's timers run on Playwright's clock (page.clock.install() before the
# page loads): a test moves time with run_for instead of waiting out autoplay.


def hold_the_clock(page: Page) -> None:
    """From now on the page's time moves only when the test runs it forward."""
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)


def settle(page: Page) -> None:
    """Wait until the page has done what the timers just run asked of it.

    React renders an update from a timer in a posted-message task: two turns of
    a MessageChannel (which the clock leaves real) come after it.
    """
    page.evaluate(
        """() => new Promise((done) => {
          const channel = new MessageChannel();
          let turns = 2;
          channel.port1.onmessage = () => (--turns ? channel.port2.postMessage(0) : done());
          channel.port2.postMessage(0);
        })"""
    )


def slider_status(page: Page) -> Locator:
    return page.locator(".slider .image-gallery-index")


def bring_the_slider_in_on_a_held_clock(page: Page) -> None:
    """Scroll to the slider, holding the page's clock as the gallery's code is fetched.

    The gallery starts its 5 s autoplay when its code runs: from then on, time
    moves only when the test runs it forward.
    """

    def hold_then_load(route: Route) -> None:
        hold_the_clock(page)
        route.continue_()

    page.route(re.compile(r"/SlideGallery[^/]*\.js$"), hold_then_load)
    page.locator(".slider").scroll_into_view_if_needed()


def expect_autoplay_running(page: Page) -> None:
    """The gallery's code runs and plays: its control offers Pause (two bars), not Play."""
    expect(page.locator(".slider .image-gallery-play-button rect")).to_have_count(2)


def turn_the_slider_once(page: Page) -> None:
    """Press Next until the gallery's code answers: the server's HTML alone does nothing.

    Pressed from the page, checked before each press, so exactly one press counts.
    """
    page.wait_for_function(
        """() => {
          const status = document.querySelector(".slider .image-gallery-index-current");
          if (status.textContent !== "1") return true;
          document.querySelector(".slider .image-gallery-right-nav").click();
          return false;
        }""",
        polling=100,
    )


AXE = Axe()
# WCAG 2.0, 2.1 and 2.2, levels A and AA, plus axe's best practices.
AXE_OPTIONS = {
    "resultTypes": ["violations"],
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
    },
}


def violations(page: Page) -> list[str]:
    """What axe-core finds against WCAG 2.2 AA on the page as it is."""
    results = AXE.run(page, options=AXE_OPTIONS)
    return [
        f"{violation['id']}: {[node['target'] for node in violation['nodes']]}"
        for violation in results.response["violations"]
    ]
