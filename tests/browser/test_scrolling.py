"""About us and Contact: smooth scrolling over 500 ms, from any page."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from harness.live_server import LiveServer
from tests.browser.support import visit

# Click the link, then sample the scroll position on every animation frame.
SCROLL_SAMPLES = """async (href) => {
  const samples = [];
  const start = performance.now();
  document.querySelector(`.site-nav a[href="${href}"]`).click();
  await new Promise((done) => {
    const sample = () => {
      const t = performance.now() - start;
      samples.push([t, window.scrollY]);
      if (t < 1200) requestAnimationFrame(sample); else done();
    };
    requestAnimationFrame(sample);
  });
  return samples;
}"""


def section_top(page: Page, section_id: str) -> float:
    # Where the section starts, less the sticky header that covers the top.
    top: float = page.evaluate(
        """(id) => document.getElementById(id).getBoundingClientRect().top + window.scrollY
              - document.querySelector('.site-header').offsetHeight""",
        section_id,
    )
    return top


def test_about_us_scrolls_smoothly_to_the_about_section_in_500_ms(
    page: Page, site: LiveServer
) -> None:
    visit(page, site.url + "/")
    page.wait_for_load_state("networkidle")
    target = section_top(page, "about")
    samples: list[list[float]] = page.evaluate(SCROLL_SAMPLES, "/#about")
    final = samples[-1][1]
    assert abs(final - target) <= 2
    arrived = next(t for t, y in samples if abs(y - final) <= 1)
    in_between = [y for t, y in samples if 0 < y < final - 1]
    # Not a jump: many frames in between; and about 500 ms from click to arrival.
    assert len(in_between) >= 10
    assert 400 <= arrived <= 800, f"arrived after {arrived:.0f} ms"
    assert page.url == site.url + "/"


def test_contact_scrolls_to_the_footer(page: Page, site: LiveServer) -> None:
    visit(page, site.url + "/")
    page.wait_for_load_state("networkidle")
    samples: list[list[float]] = page.evaluate(SCROLL_SAMPLES, "/#contact")
    expect(page.locator("#contact")).to_be_in_viewport()
    assert len({round(y) for _, y in samples}) > 10  # it moved through many positions


def test_contact_stops_at_the_footer_where_it_really_is(page: Page, site: LiveServer) -> None:
    # Without scroll anchoring, as in Safari, nothing would correct a wrong aim after.
    visit(page, site.url + "/")
    page.wait_for_load_state("networkidle")
    page.evaluate("document.documentElement.style.overflowAnchor = 'none'")
    samples: list[list[float]] = page.evaluate(SCROLL_SAMPLES, "/#contact")
    bottom = page.evaluate("document.documentElement.scrollHeight - window.innerHeight")
    assert abs(samples[-1][1] - min(section_top(page, "contact"), bottom)) <= 2


def test_about_us_from_a_list_page_goes_to_the_landing_page_section(
    page: Page, site: LiveServer
) -> None:
    visit(page, site.url + "/projects")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="About us").click()
    expect(page).to_have_url(site.url + "/")
    expect(page.locator("#about h2")).to_be_in_viewport()
    # The smooth scroll ends just below the sticky header.
    page.wait_for_function(
        "(top) => Math.abs(window.scrollY - top) <= 2", arg=section_top(page, "about")
    )


def test_contact_from_a_list_page_goes_to_the_landing_page_footer(
    page: Page, site: LiveServer
) -> None:
    visit(page, site.url + "/Collabrations")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Contact").click()
    expect(page).to_have_url(site.url + "/")
    expect(page.locator("#contact")).to_be_in_viewport()


def test_a_deep_link_to_a_section_stays_there_after_hydration(page: Page, site: LiveServer) -> None:
    visit(page, site.url + "/#contact")
    page.wait_for_load_state("networkidle")
    expect(page.locator("#contact")).to_be_in_viewport()
