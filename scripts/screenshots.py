"""Screenshots of every page and of the studio at phone and desktop widths (docs/development.md,
"Looking at the site"): uv run python scripts/screenshots.py [BASE_URL] [OUT_DIR]. The studio's
shots need the local studio, as `./dev serve` runs it; they only show forms, never save one."""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from harness.chromium import CHROMIUM, CHROMIUM_ARGS
from server.site.languages import DEFAULT_LOCALE, TRANSLATIONS
from server.site.pages import COLLABRATIONS, PROJECTS, STONES, ItemPage
from server.site.pages import PAGES as SITE_PAGES

WIDTHS = {"phone": (390, 844), "desktop": (1280, 800)}
PATHS = {
    page.key + ("" if page.locale is DEFAULT_LOCALE else f"-{page.locale.code}"): page.path
    for page in SITE_PAGES
}
# A card's own page (the list with its modal open: a shot of the screen) in every language;
# a stone's page (a page of its own, not a dialog) and a filtered list.
PROJECT = ItemPage(PROJECTS, "dead-sea-resort-lobby")
COLLABRATION = ItemPage(COLLABRATIONS, "tilal-and-noor-interiors")
ITEM_PATHS = {
    "project": PROJECT.path,
    **{f"project-{lang.code}": PROJECT.in_locale(lang).path for lang in TRANSLATIONS},
    **{f"collabration-{lang.code}": COLLABRATION.in_locale(lang).path for lang in TRANSLATIONS},
}
STONE_PATHS = {
    "stone": ItemPage(STONES, "jerusalem-gold").path,
    "stone-ar": ItemPage(STONES.in_locale(TRANSLATIONS[0]), "aqaba-red").path,
    "stones-filtered": STONES.path + "?family=limestone&finish=honed",
}


def settle(page: Page) -> None:
    page.wait_for_load_state("load")
    # Let lazy images below the fold load before a full-page shot.
    page.evaluate(
        "async () => { for (let y = 0; y < document.body.scrollHeight; y += 600) {"
        " window.scrollTo(0, y); await new Promise(r => setTimeout(r, 60)); }"
        " window.scrollTo(0, 0); }"
    )
    page.wait_for_timeout(300)


def studio(page: Page, base: str, out: Path, width_name: str) -> None:
    page.goto(base + "/studio")
    page.screenshot(path=out / f"studio-{width_name}-en-sign-in.png")
    page.locator("form[action='/studio/sign-in'] button").click()
    for language in ("en", "ar", "fr"):
        label = f"studio-{width_name}-{language}"
        page.goto(f"{base}/studio/language/{language}")
        page.goto(base + "/studio/projects")
        page.screenshot(path=out / f"{label}-list.png", full_page=True)
        page.locator(".items a.button").first.click()  # the first entry's Edit
        page.wait_for_load_state("load")
        page.screenshot(path=out / f"{label}-edit.png", full_page=True)
        page.goto(base + "/studio/projects/new")
        page.locator("form.edit button[type=submit]").click()  # empty: every error shows
        page.wait_for_load_state("load")
        page.screenshot(path=out / f"{label}-errors.png", full_page=True)


def main() -> None:
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "test-artifacts/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS)
        )
        for width_name, (width, height) in WIDTHS.items():
            page = browser.new_page(viewport={"width": width, "height": height})
            for name, path in {**PATHS, **STONE_PATHS}.items():
                page.goto(base + path)
                settle(page)
                page.screenshot(path=out / f"{name}-{width_name}.png", full_page=True)
            page.goto(base + PROJECTS.path)
            settle(page)
            page.locator(".card").nth(1).click()
            page.wait_for_timeout(300)
            page.screenshot(path=out / f"modal-{width_name}.png")
            for name, path in ITEM_PATHS.items():
                page.goto(base + path)
                # A locator, not a string of script: the page's CSP forbids eval.
                page.locator("dialog:modal").wait_for()
                page.wait_for_load_state("networkidle")
                page.screenshot(path=out / f"{name}-{width_name}.png")
            studio(page, base, out, width_name)
            page.close()
        # A stone's data sheet as Chromium prints it (pdftoppm makes PNGs of it).
        page = browser.new_page()
        page.goto(base + STONE_PATHS["stone"])
        page.pdf(path=out / "stone-print.pdf", prefer_css_page_size=True, print_background=True)
        browser.close()
    print(f"screenshots in {out}")


if __name__ == "__main__":
    main()
