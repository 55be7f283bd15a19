"""The stone catalogue in Chromium: a stone's printed data sheet, and the filters used
from the keyboard, with JavaScript and without."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from harness.live_server import LiveServer
from tests.browser.support import documents, visit

pytestmark = pytest.mark.browser

A4_POINTS = "594.96 x 841.92"  # A4 in points, as pdfinfo gives Chromium's


def poppler(*command: str | Path) -> str:
    tool = shutil.which(str(command[0]))
    assert tool, f"{command[0]} (Debian's poppler-utils) is required; ./dev test installs it"
    done = subprocess.run(  # noqa: S603 - a fixed command on our own file
        [tool, *map(str, command[1:])], capture_output=True, check=True
    )
    return done.stdout.decode("utf-8")


@pytest.mark.parametrize(
    ("path", "name"),
    [("/stones/jerusalem-gold", "Jerusalem Gold"), ("/it/stones/aqaba-red", "Rosso di Aqaba")],
)
def test_a_stones_printed_data_sheet_is_at_most_two_a4_pages_with_its_figures(
    page: Page, site: LiveServer, tmp_path: Path, path: str, name: str
) -> None:
    page.goto(site.url + path)
    page.wait_for_load_state("load")
    # The page's own @page size: Chromium's print as a visitor gets it.
    pdf = tmp_path / "sheet.pdf"
    page.pdf(path=pdf, prefer_css_page_size=True, print_background=True)
    info = dict(line.split(":", 1) for line in poppler("pdfinfo", pdf).splitlines() if ":" in line)
    assert 1 <= int(info["Pages"]) <= 2
    assert info["Page size"].split("pts")[0].strip() == A4_POINTS
    text = " ".join(poppler("pdftotext", "-enc", "UTF-8", pdf, "-").split())
    assert name in text
    figures = page.locator(".stone-figures tbody tr")
    assert figures.count() == 5
    for row in figures.all():
        assert " ".join(row.inner_text().split()) in text
    assert "+962 5 555 0100" in text  # the branches' contacts
    # No navigation or buttons on paper.
    for absent in (
        page.locator(".site-nav__link").first.inner_text(),
        *page.locator(".stone-page__actions a").all_inner_texts(),
    ):
        assert absent not in text


def tab_to(page: Page, text: str) -> None:
    """Press Tab until the focused element is the link named `text`."""
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.locator("a:focus").filter(has_text=text).count():
            return
    raise AssertionError(f"Tab never reached {text!r}")


def shown_stones(page: Page) -> list[str]:
    return [
        href.rsplit("/", 1)[1]
        for href in page.locator(".card-grid a").evaluate_all(
            "as => as.map(a => a.getAttribute('href'))"
        )
    ]


def stones_with(family: str, finish: str | None = None) -> list[str]:
    chosen = [
        stone
        for stone in documents("stones.json")
        if stone["family"] == family and (finish is None or finish in stone["finishes"])
    ]
    return [stone["id"] for stone in sorted(chosen, key=lambda stone: stone["position"])]


@pytest.mark.parametrize("javascript", [False, True], ids=["javascript-off", "javascript-on"])
def test_the_filters_work_from_the_keyboard(
    browser: Browser, site: LiveServer, javascript: bool
) -> None:
    context = browser.new_context(
        java_script_enabled=javascript, viewport={"width": 390, "height": 844}
    )
    page = context.new_page()
    try:
        if javascript:
            visit(page, site.url + "/stones")
        else:
            page.goto(site.url + "/stones")
        tab_to(page, "Granite")
        page.keyboard.press("Enter")
        page.wait_for_url("**/stones?family=granite")
        expect(page.locator(".stone-count")).to_have_text(
            f"Showing {len(stones_with('granite'))} of 10 stones"
        )
        assert shown_stones(page) == stones_with("granite")
        tab_to(page, "Honed")
        page.keyboard.press("Enter")
        page.wait_for_url("**/stones?family=granite&finish=honed")
        expect(page.locator(".card-grid a")).to_have_count(len(stones_with("granite", "honed")))
        assert shown_stones(page) == stones_with("granite", "honed")
        assert dict(parse_qsl(urlsplit(page.url).query)) == {"family": "granite", "finish": "honed"}
    finally:
        context.close()


def test_no_stones_page_scrolls_sideways_on_a_small_phone(
    browser: Browser, site: LiveServer
) -> None:
    # 360 px, the narrowest common Android; the figures' table held it at 470 px once.
    phone = browser.new_page(viewport={"width": 360, "height": 780})
    wider = {}
    for prefix in ("", "/ar", "/fr", "/it"):
        for stone in documents("stones.json"):
            phone.goto(f"{site.url}{prefix}/stones/{stone['id']}")
            width = phone.evaluate("document.documentElement.scrollWidth")
            if width > 360:
                wider[f"{prefix}/stones/{stone['id']}"] = width
    phone.close()
    assert wider == {}
