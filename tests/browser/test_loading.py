"""What the browser loads, and when."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.live_server import LiveServer


def test_the_web_vitals_reporter_loads_only_after_the_page_has(
    page: Page, site: LiveServer
) -> None:
    page.goto(site.url + "/projects")
    page.wait_for_load_state("networkidle")
    # The page's own timeline: when the load event began, when the reporter was fetched.
    timing = page.evaluate(
        """() => ({
            load: performance.getEntriesByType('navigation')[0].loadEventStart,
            vitals: performance.getEntriesByType('resource')
                .filter(entry => entry.name.includes('/chunks/vitals-'))
                .map(entry => entry.startTime),
        })"""
    )
    assert len(timing["vitals"]) == 1
    assert timing["vitals"][0] >= timing["load"] > 0


def test_the_client_bundle_never_blocks_rendering(page: Page, site: LiveServer) -> None:
    page.goto(site.url + "/")
    blocking = page.evaluate(
        """() => [...document.querySelectorAll('script[src]')]
              .filter(s => s.type !== 'module' && !s.defer && !s.async).length"""
    )
    assert blocking == 0
