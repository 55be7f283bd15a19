"""The studio in Chromium on a phone-sized screen: sign in, add a project with a
photo, see it on /projects, edit it, delete it; a file that is not an image is refused."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Browser, Page, expect

from server.settings import REPO_ROOT
from tests.live_server import LiveServer


@pytest.fixture(scope="module")
def studio_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("studio-browser")
    shutil.copytree(REPO_ROOT / "content", folder / "content")
    env = {
        "DEV_MODE": "on",
        "CONTENT_DIR": str(folder / "content"),
        "IMAGE_CACHE_DIR": str(folder / "image-cache"),
    }
    with LiveServer(env=env, log_path=folder / "uvicorn.log") as server:
        yield server


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    yield context.new_page()
    context.close()


def test_staff_add_edit_and_delete_a_project_from_a_phone(
    phone: Page, studio_site: LiveServer, tmp_path: Path
) -> None:
    content = Path(studio_site.env["CONTENT_DIR"])
    photo = tmp_path / "IMG_2041.jpg"
    Image.new("RGB", (1200, 900), (120, 110, 100)).save(photo, "JPEG")
    not_a_photo = tmp_path / "notes.jpg"
    not_a_photo.write_text("quarry visit on Tuesday")

    phone.goto(studio_site.url + "/studio")
    phone.get_by_role("button", name="Sign in as local staff").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Projects")
    phone.get_by_role("link", name="Add").click()

    # A file that is not an image: refused, the error next to the photo field.
    phone.get_by_label("Name (English)").fill("Wadi Rum Lodge")
    phone.get_by_label("Description (English)").fill("Sandstone walls for a desert lodge.")
    phone.get_by_label("Name (Arabic)").fill("نُزُل وادي رم")
    phone.get_by_label("Photo").set_input_files(not_a_photo)
    phone.get_by_role("button", name="Save").click()
    expect(phone.locator("#err-photo")).to_have_text("This file is not a JPEG, PNG or WebP image.")
    expect(phone.get_by_label("Name (English)")).to_have_value("Wadi Rum Lodge")
    # The preview shows the card in both languages.
    expect(phone.locator(".preview .card[lang=ar] h3")).to_have_text("نُزُل وادي رم")

    phone.get_by_label("Photo").set_input_files(photo)
    phone.get_by_role("button", name="Save").click()
    expect(phone.get_by_role("status")).to_contain_text("It is live on the site")
    added = json.loads((content / "projects.json").read_text(encoding="utf-8"))[-1]
    assert added["id"] == "wadi-rum-lodge"

    phone.get_by_role("link", name="See it on the site").click()
    expect(phone).to_have_url(studio_site.url + "/projects/wadi-rum-lodge")
    expect(phone.get_by_role("dialog")).to_contain_text("Sandstone walls for a desert lodge.")
    phone.goto(studio_site.url + "/projects")
    expect(phone.locator(".card__name", has_text="Wadi Rum Lodge")).to_be_visible()

    phone.goto(studio_site.url + "/studio/projects")
    phone.get_by_role("link", name="Edit Wadi Rum Lodge").click()
    expect(phone.locator("output#id")).to_have_text("wadi-rum-lodge")
    phone.get_by_label("Name (English)").fill("Wadi Rum Desert Lodge")
    phone.get_by_role("button", name="Save").click()
    expect(phone.get_by_role("status")).to_contain_text("It is live on the site")
    phone.goto(studio_site.url + "/projects")
    expect(phone.locator(".card__name", has_text="Wadi Rum Desert Lodge")).to_be_visible()

    phone.goto(studio_site.url + "/studio/projects")
    phone.get_by_role("link", name="Delete Wadi Rum Desert Lodge").click()
    expect(phone.get_by_text("Visitors will no longer see it")).to_be_visible()
    phone.get_by_role("button", name="Delete").click()
    expect(phone.get_by_role("status")).to_contain_text("Visitors no longer see it")
    phone.goto(studio_site.url + "/projects")
    expect(phone.locator(".card__name", has_text="Wadi Rum")).to_have_count(0)
    assert all(
        document["id"] != "wadi-rum-lodge"
        for document in json.loads((content / "projects.json").read_text(encoding="utf-8"))
    )
