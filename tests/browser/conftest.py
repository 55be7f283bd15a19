"""Debian's Chromium driven by Playwright, against a real uvicorn serving the site."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import (
    Browser,
    Page,
    Playwright,
    sync_playwright,
)

from harness.chromium import CHROMIUM, CHROMIUM_ARGS, HEADLESS_SHELL
from harness.live_server import LiveServer
from server.settings import REPO_ROOT
from tests.browser.support import Console, fulfil_offline

ARTIFACTS = REPO_ROOT / "test-artifacts"


def launch(playwright: Playwright, executable: Path) -> Browser:
    if not executable.exists():
        message = f"Debian's {executable.name} is required (./dev test installs it)"
        pytest.fail(message, pytrace=False)
    return playwright.chromium.launch(executable_path=executable, args=list(CHROMIUM_ARGS))


# One headless shell for the browser tests (each test has a context of its own), closed after
# the last: Playwright's sync API keeps an asyncio loop marked running in this thread while
# it is open, which breaks any later test that runs a loop of its own.
@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="package")
def browser(playwright: Playwright) -> Iterator[Browser]:
    browser = launch(playwright, HEADLESS_SHELL)
    yield browser
    browser.close()


@pytest.fixture(scope="package")
def full_chromium(playwright: Playwright) -> Iterator[Browser]:
    """The desktop browser, for a test marked `full_chromium` (harness/chromium.py says why)."""
    browser = launch(playwright, CHROMIUM)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The site on its shipped local content."""
    folder = tmp_path_factory.mktemp("site")
    env = {
        "IMAGE_CACHE_DIR": str(folder / "image-cache"),
        "ENQUIRY_DATABASE": str(folder / "enquiries.sqlite3"),
    }
    with LiveServer(env=env, log_path=folder / "uvicorn.log") as server:
        yield server


@pytest.fixture
def console() -> Console:
    return Console()


@pytest.fixture(params=[(1280, 800)], ids=["desktop"])
def viewport(request: pytest.FixtureRequest) -> tuple[int, int]:
    size: tuple[int, int] = request.param
    return size


@pytest.fixture
def page(
    console: Console, viewport: tuple[int, int], request: pytest.FixtureRequest
) -> Iterator[Page]:
    full = request.node.get_closest_marker("full_chromium") is not None
    browser: Browser = request.getfixturevalue("full_chromium" if full else "browser")
    width, height = viewport
    context = browser.new_context(viewport={"width": width, "height": height})
    context.route("https://www.youtube-nocookie.com/**", fulfil_offline)
    context.route("https://booking.example.com/**", fulfil_offline)
    page = context.new_page()
    page.on("console", lambda message: console.messages.append(message))
    page.on("pageerror", lambda error: console.page_errors.append(str(error)))
    yield page
    call_report = getattr(request.node, "rep_call", None)
    if call_report is not None and call_report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=ARTIFACTS / f"{request.node.name}.png", full_page=True)
    context.close()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        uses_page = "page" in getattr(item, "fixturenames", ())
        if item.get_closest_marker("full_chromium") and not uses_page:
            raise pytest.UsageError(f"{item.nodeid}: full_chromium works through the page fixture")


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    # Remember each phase's report so the page fixture can screenshot failures.
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
