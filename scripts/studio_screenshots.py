"""Screenshots of the studio at phone and desktop widths, in English and Arabic.

Usage: uv run python scripts/studio_screenshots.py [BASE_URL] [OUT_DIR]
(defaults: http://127.0.0.1:8000 and test-artifacts/studio). The server must
run the local studio (`./dev serve`); nothing is saved, only forms are shown.
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from harness.chromium import CHROMIUM, CHROMIUM_ARGS

WIDTHS = {"phone": (390, 844), "desktop": (1280, 800)}


def shoot(page: Page, base: str, out: Path, label: str) -> None:
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
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "test-artifacts/studio")
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=list(CHROMIUM_ARGS))
        for name, (width, height) in WIDTHS.items():
            context = browser.new_context(viewport={"width": width, "height": height})
            page = context.new_page()
            page.goto(base + "/studio")
            page.screenshot(path=out / f"{name}-en-sign-in.png")
            page.locator("form[action='/studio/sign-in'] button").click()
            for language in ("en", "ar"):
                page.goto(f"{base}/studio/language/{language}")
                shoot(page, base, out, f"{name}-{language}")
            context.close()
        browser.close()
    print(f"Screenshots in {out}")


if __name__ == "__main__":
    main()
