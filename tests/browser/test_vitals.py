"""Web vitals from a real Chromium: sent as beacons when on, not even loaded when off."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from harness.live_server import LiveServer
from tests.browser.support import visit

VITALS_CHUNK = "/chunks/vitals-"


@pytest.fixture(scope="module")
def vitals_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    log = tmp_path_factory.mktemp("vitals-site") / "uvicorn.log"
    env = {"WEB_VITALS": "on", "LOG_FORMAT": "json"}
    with LiveServer(env=env, log_path=log) as server:
        yield server


@pytest.fixture(scope="module")
def quiet_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    log = tmp_path_factory.mktemp("quiet-site") / "uvicorn.log"
    with LiveServer(env={"WEB_VITALS": "off", "LOG_FORMAT": "json"}, log_path=log) as server:
        yield server


def hide_page(page: Page) -> None:
    """What the browser does when the visitor switches tab or leaves: the page turns hidden."""
    page.evaluate(
        """() => {
            Object.defineProperty(
                document, 'visibilityState', {value: 'hidden', configurable: true});
            document.dispatchEvent(new Event('visibilitychange'));
        }"""
    )


def settle(page: Page) -> None:
    """Let the browser paint and go idle, as it does long before a visitor leaves.

    web-vitals takes an interaction into INP in an idle callback; hiding the
    page in the same instant as the click would report the visit without it.
    """
    for _ in range(2):
        page.evaluate(
            """() => new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(
                () => requestIdleCallback(() => resolve(), {timeout: 2000}))))"""
        )


def wait_for_vitals(site: LiveServer, names: set[str], timeout: float = 10) -> list[dict[str, Any]]:
    deadline = time.monotonic() + timeout
    while True:
        lines = site.log_lines(logger="server.vitals")
        if {line["metric"] for line in lines} >= names or time.monotonic() > deadline:
            return lines
        time.sleep(0.1)


def wait_for_reporter(page: Page) -> None:
    page.wait_for_function(
        f"""() => performance.getEntriesByType('resource')
              .some(entry => entry.name.includes('{VITALS_CHUNK}'))"""
    )


def test_a_visit_sends_lcp_inp_and_cls_beacons_that_the_server_logs(
    page: Page, vitals_site: LiveServer
) -> None:
    # Record what goes through navigator.sendBeacon (Playwright's own network
    # events miss some beacon requests).
    page.add_init_script(
        """const send = navigator.sendBeacon.bind(navigator);
           window.beaconsSent = [];
           navigator.sendBeacon = (url, data) => {
               window.beaconsSent.push(url);
               return send(url, data);
           };"""
    )
    visit(page, vitals_site.url + "/projects")
    page.wait_for_load_state("networkidle")
    wait_for_reporter(page)
    # An interaction, so the visit has an INP to report.
    page.locator(".card").nth(1).click()
    expect(page.get_by_role("dialog")).to_be_visible()
    settle(page)
    hide_page(page)

    lines = wait_for_vitals(vitals_site, {"LCP", "INP", "CLS"})
    assert sorted(line["metric"] for line in lines) == ["CLS", "INP", "LCP"]
    for line in lines:
        assert line["page"] == "/projects"
        assert line["rating"] in {"good", "needs-improvement", "poor"}
        assert line["value"] >= 0
    access = vitals_site.log_lines(logger="server.access", path="/vitals", at_least=3)
    assert [(line["method"], line["status"]) for line in access] == [("POST", 204)] * 3
    assert page.evaluate("window.beaconsSent") == ["/vitals"] * 3


def test_the_reporter_loads_only_after_the_page_has(page: Page, vitals_site: LiveServer) -> None:
    visit(page, vitals_site.url + "/projects")
    page.wait_for_load_state("networkidle")
    wait_for_reporter(page)
    # The page's own timeline: when the load event began, when the reporter was fetched.
    timing = page.evaluate(
        f"""() => ({{
            load: performance.getEntriesByType('navigation')[0].loadEventStart,
            vitals: performance.getEntriesByType('resource')
                .filter(entry => entry.name.includes('{VITALS_CHUNK}'))
                .map(entry => entry.startTime),
        }})"""
    )
    assert len(timing["vitals"]) == 1
    assert timing["vitals"][0] >= timing["load"] > 0


def test_with_vitals_off_nothing_is_loaded_or_sent(page: Page, quiet_site: LiveServer) -> None:
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    visit(page, quiet_site.url + "/projects")
    page.wait_for_load_state("networkidle")
    page.locator(".card").nth(1).click()
    settle(page)
    hide_page(page)
    page.wait_for_timeout(1000)  # time for a beacon, were one sent
    assert not [url for url in requests if VITALS_CHUNK in url or url.endswith("/vitals")]
    assert quiet_site.log_lines(logger="server.access", path="/vitals") == []
    assert quiet_site.log_lines(logger="server.vitals") == []
