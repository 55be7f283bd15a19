"""Known XSS payloads in every field, in a real browser: shown as text, never run."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Dialog, Page, expect

from harness.live_server import LiveServer
from server.settings import REPO_ROOT
from tests.browser.support import Console, visit

HOSTILE = REPO_ROOT / "examples" / "hostile-content"

# Any payload that ran would call one of these.
TRAP = """
window.__ran = [];
for (const name of ["alert", "confirm", "prompt"]) {
  window[name] = (...args) => { window.__ran.push([name, ...args]); };
}
"""


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    env = {"CONTENT_DIR": str(HOSTILE)}
    log = tmp_path_factory.mktemp("hostile") / "uvicorn.log"
    with LiveServer(env=env, log_path=log) as server:
        yield server


def names(file_name: str) -> list[str]:
    documents = json.loads((HOSTILE / file_name).read_text(encoding="utf-8"))
    return [
        d["name"]
        for d in documents
        if d.get("photoUrl") == "/images/stone.jpg"
        and isinstance(d.get("name"), str)
        and isinstance(d.get("description"), str)
    ]


@pytest.mark.parametrize(
    ("path", "file_name"),
    [("/projects", "projects.json"), ("/Collabrations", "collabrations.json")],
)
def test_payloads_show_as_text_in_cards_and_modal_and_never_run(
    page: Page, hostile_site: LiveServer, console: Console, path: str, file_name: str
) -> None:
    dialogs: list[str] = []

    def record_and_dismiss(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", record_and_dismiss)
    page.add_init_script(TRAP)
    visit(page, hostile_site.url + path)
    cards = page.locator(".card")
    expected = names(file_name)
    expect(cards).to_have_count(len(expected))
    assert cards.locator(".card__name").all_text_contents() == expected
    for index in range(len(expected)):
        cards.nth(index).click()
        dialog = page.get_by_role("dialog")
        expect(dialog.get_by_role("heading")).to_have_text(expected[index])
        dialog.get_by_role("button", name="Close").click()
    page.wait_for_timeout(300)
    assert page.evaluate("window.__ran") == []
    assert dialogs == []
    assert page.locator("#main script, #main iframe, #main svg[onload]").count() == 0
    assert console.page_errors == []


def test_the_landing_page_with_hostile_content_runs_nothing(
    page: Page, hostile_site: LiveServer, console: Console
) -> None:
    page.add_init_script(TRAP)
    visit(page, hostile_site.url + "/")
    page.wait_for_load_state("networkidle")
    expect(page.locator(".image-gallery-thumbnail")).to_have_count(1)
    assert page.evaluate("window.__ran") == []
    assert console.page_errors == []


def test_right_to_left_and_emoji_text_render(page: Page, hostile_site: LiveServer) -> None:
    visit(page, hostile_site.url + "/projects")
    expect(page.locator(".card__name", has_text="رخام كرارا أبيض")).to_be_visible()
    expect(page.locator(".card__description", has_text="✨🪨")).to_be_visible()
