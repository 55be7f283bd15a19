"""The Arabic site (/ar): right to left, its own words, the same behaviour as the English one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from harness.live_server import LiveServer
from server.settings import REPO_ROOT
from tests.browser.support import (
    Console,
    bring_the_slider_in_on_a_held_clock,
    expect_autoplay_running,
    settle,
    shipped_content_path,
    visit,
)

CATALOGUES = REPO_ROOT / "ui" / "i18n"
AR: dict[str, Any] = json.loads((CATALOGUES / "ar.json").read_text(encoding="utf-8"))
EN: dict[str, Any] = json.loads((CATALOGUES / "en.json").read_text(encoding="utf-8"))
FR: dict[str, Any] = json.loads((CATALOGUES / "fr.json").read_text(encoding="utf-8"))
ARABIC_PAGES = ["/ar", "/ar/projects", "/ar/Collabrations"]


def strings(catalogue: object) -> Iterator[str]:
    if isinstance(catalogue, dict):
        for value in catalogue.values():
            yield from strings(value)
    elif isinstance(catalogue, str):
        yield catalogue


def documents(name: str) -> list[dict[str, str]]:
    loaded: list[dict[str, str]] = json.loads(
        (shipped_content_path() / f"{name}.json").read_text(encoding="utf-8")
    )
    return loaded


@pytest.mark.parametrize("path", ARABIC_PAGES)
def test_arabic_pages_are_right_to_left_and_hydrate_cleanly(
    page: Page, site: LiveServer, console: Console, path: str
) -> None:
    visit(page, site.url + path)
    expect(page.locator("html")).to_have_attribute("lang", "ar")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"
    page.wait_for_load_state("networkidle")
    assert console.problems == []


@pytest.mark.parametrize("path", ARABIC_PAGES)
def test_no_english_fixed_text_leaks_into_an_arabic_page(
    page: Page, site: LiveServer, path: str
) -> None:
    visit(page, site.url + path)
    text = page.locator("body").inner_text()
    arabic = set(strings(AR))
    # Fixed English strings (not identical in both catalogues, not the language name).
    leaks = [
        english
        for english in strings(EN)
        if english not in arabic
        and len(english) > 3
        and english not in (EN["meta"]["languageName"], EN["meta"]["ogLocale"])
        and "{" not in english
        and english in text
    ]
    assert leaks == []
    assert "Example Fine Stone Co." not in text  # the company's English name
    assert AR["header"]["projects"] in text


def test_cards_show_arabic_and_fall_back_to_english_where_there_is_none(
    page: Page, site: LiveServer
) -> None:
    visit(page, site.url + "/ar/projects")
    names = page.locator(".card__name").all_text_contents()
    expected = [document.get("name_ar") or document["name"] for document in documents("projects")]
    assert names == expected
    untranslated = [d for d in documents("projects") if "name_ar" not in d]
    assert untranslated  # the sample keeps one without, to show the fallback
    assert untranslated[0]["name"] in names
    assert (
        page.locator(".card__description").first.inner_text()
        == documents("projects")[0]["description_ar"]
    )


@pytest.mark.parametrize(
    ("start", "language", "arrive", "heading"),
    [
        ("/projects", "ar", "/ar/projects", AR["lists"]["projectsTitle"]),
        ("/ar/Collabrations", "en", "/Collabrations", EN["lists"]["collabrationsTitle"]),
        ("/", "fr", "/fr", FR["hero"]["title"]),
        ("/it/projects", "ar", "/ar/projects", AR["lists"]["projectsTitle"]),
    ],
)
def test_the_language_switcher_keeps_the_page(
    page: Page, site: LiveServer, start: str, language: str, arrive: str, heading: str
) -> None:
    visit(page, site.url + start)
    page.locator(f".site-languages__link[lang={language}]").click()
    expect(page).to_have_url(site.url + arrive)
    expect(page.get_by_role("heading", level=1)).to_have_text(heading)
    expect(page.locator("html")).to_have_attribute("lang", language)
    # Every other language is offered, this one no longer.
    expect(page.locator(".site-languages__link")).to_have_count(3)
    expect(page.locator(f".site-languages__link[lang={language}]")).to_have_count(0)


def test_the_first_visit_to_the_home_page_is_never_redirected(page: Page, site: LiveServer) -> None:
    page.context.set_extra_http_headers({"Accept-Language": "ar-JO,ar;q=0.9"})
    response = visit(page, site.url + "/")
    assert response is not None
    assert response.request.redirected_from is None
    assert page.url == site.url + "/"
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_the_slider_shows_and_plays_on_the_arabic_page(page: Page, site: LiveServer) -> None:
    visit(page, site.url + "/ar")
    # The gallery's code loads as the slider nears; its 5 s autoplay runs on the test's clock.
    bring_the_slider_in_on_a_held_clock(page)
    expect_autoplay_running(page)
    total = len(documents("slider"))
    status = page.locator(".image-gallery-index")
    expect(status).to_have_text(f"1 / {total}")
    # The photos come with the gallery's code, as the slider nears the viewport.
    expect(page.locator(".image-gallery-slide img")).not_to_have_count(0)
    # The current photo is inside the slider's frame, not pushed off to a side.
    in_frame = page.evaluate(
        """() => {
            const frame = document.querySelector('.image-gallery-slide-wrapper')
                .getBoundingClientRect();
            return [...document.querySelectorAll('.image-gallery-slide img')].filter((img) => {
                const box = img.getBoundingClientRect();
                return box.left >= frame.left - 1 && box.left < frame.left + frame.width / 2;
            }).length;
        }"""
    )
    assert in_frame >= 1
    # Autoplay at 5000 ms: still on the first slide just before, on the second just after.
    page.clock.run_for(4900)
    settle(page)
    expect(status).to_have_text(f"1 / {total}")
    page.clock.run_for(200)
    expect(status).to_have_text(f"2 / {total}")


def test_about_us_scrolls_smoothly_in_arabic(page: Page, site: LiveServer) -> None:
    visit(page, site.url + "/ar")
    page.wait_for_load_state("networkidle")
    started = page.evaluate("performance.now()")
    page.get_by_role("link", name=AR["header"]["about"]).click()
    page.wait_for_function(
        "() => Math.abs(document.getElementById('about').getBoundingClientRect().top"
        " - document.querySelector('.site-header').offsetHeight) <= 2"
    )
    elapsed = page.evaluate("performance.now()") - started
    assert 300 <= elapsed <= 1200, elapsed


def test_client_navigation_stays_in_arabic_and_fetches_each_list(
    page: Page, site: LiveServer, console: Console
) -> None:
    visit(page, site.url + "/ar")
    page.evaluate("window.__sameDocument = true")
    nav = page.get_by_role("navigation", name=AR["header"]["menuLabel"])
    with page.expect_response(site.url + "/api/content/projects"):
        nav.get_by_role("link", name=AR["header"]["projects"]).click()
    expect(page).to_have_url(site.url + "/ar/projects")
    expect(page.locator(".card").first).to_be_visible()
    expect(page).to_have_title(
        f"{AR['pages']['projects']['title']} | شركة الحجر الفاخر (اسم تجريبي)"
    )
    nav.get_by_role("link", name=AR["header"]["about"]).click()
    expect(page).to_have_url(site.url + "/ar")
    expect(page.locator("#about h2")).to_be_in_viewport()
    assert page.evaluate("window.__sameDocument === true")
    assert console.problems == []


def test_an_unknown_arabic_path_is_an_arabic_404(page: Page, site: LiveServer) -> None:
    response = visit(page, site.url + "/ar/no-such-page")
    assert response is not None
    assert response.status == 404
    expect(page.get_by_role("heading", level=1)).to_have_text(AR["notFound"]["title"])
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
