"""The studio in Chromium on a phone-sized screen, in local mode and on the Firebase
emulators: sign in, add a project with a photo, see it on /projects, edit it,
delete it; a file that is not an image is refused."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Browser, FilePayload, Page, expect

from harness.firebase_emulators import AuthEmulator, StorageEmulator, firebase_studio_env
from harness.firestore_emulator import FirestoreEmulator
from harness.live_server import LiveServer
from server.settings import REPO_ROOT

STAFF_EMAIL = "rania@example.com"
STAFF_PASSWORD = "a long staff password"  # noqa: S105 - an emulator account


@dataclass
class StudioUnderTest:
    site: LiveServer
    sign_in: Callable[[Page], None]
    # The stored project of that id, or None: from the file or from Firestore.
    stored_project: Callable[[str], dict[str, Any] | None]


def local_studio(folder: Path, photo_max_mb: str = "15") -> Iterator[StudioUnderTest]:
    shutil.copytree(REPO_ROOT / "content", folder / "content")
    env = {
        "DEV_MODE": "on",
        "CONTENT_DIR": str(folder / "content"),
        "IMAGE_CACHE_DIR": str(folder / "image-cache"),
        "STUDIO_PHOTO_MAX_MB": photo_max_mb,
    }

    def sign_in(page: Page) -> None:
        page.get_by_role("button", name="Sign in as local staff").click()

    def stored_project(document_id: str) -> dict[str, Any] | None:
        text = (folder / "content" / "projects.json").read_text(encoding="utf-8")
        return next((doc for doc in json.loads(text) if doc["id"] == document_id), None)

    with LiveServer(env=env, log_path=folder / "uvicorn.log") as server:
        yield StudioUnderTest(server, sign_in, stored_project)


def firebase_studio(request: pytest.FixtureRequest, folder: Path) -> Iterator[StudioUnderTest]:
    firestore: FirestoreEmulator = request.getfixturevalue("firestore_emulator")
    auth: AuthEmulator = request.getfixturevalue("auth_emulator")
    storage: StorageEmulator = request.getfixturevalue("storage_emulator")
    request.getfixturevalue("staff_account")
    firestore.reset()

    def sign_in(page: Page) -> None:
        page.get_by_label("Email").fill(STAFF_EMAIL)
        page.get_by_label("Password").fill(STAFF_PASSWORD)
        # exact: the Google button beside it says "Sign in with Google"
        page.get_by_role("button", name="Sign in", exact=True).click()

    def stored_project(document_id: str) -> dict[str, Any] | None:
        return firestore.client().collection("Projects").document(document_id).get().to_dict()

    env = firebase_studio_env(firestore, auth, storage, folder)
    with LiveServer(env=env, log_path=folder / "uvicorn.log") as server:
        yield StudioUnderTest(server, sign_in, stored_project)


@pytest.fixture(scope="module")
def staff_account(auth_emulator: AuthEmulator) -> None:
    # Added once, never reset away: ./dev test's other pytest process shares the emulator.
    auth_emulator.add_account(STAFF_EMAIL, STAFF_PASSWORD, staff=True)


@pytest.fixture(params=["local", "firebase"])
def studio(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[StudioUnderTest]:
    folder = tmp_path_factory.mktemp(f"studio-{request.param}")
    if request.param == "local":
        yield from local_studio(folder)
    else:
        yield from firebase_studio(request, folder)


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    yield context.new_page()
    context.close()


def test_staff_add_edit_and_delete_a_project_from_a_phone(
    phone: Page, studio: StudioUnderTest, tmp_path: Path
) -> None:
    site = studio.site
    photo = tmp_path / "IMG_2041.jpg"
    Image.new("RGB", (1200, 900), (120, 110, 100)).save(photo, "JPEG")
    not_a_photo = tmp_path / "notes.jpg"
    not_a_photo.write_text("quarry visit on Tuesday")

    phone.goto(site.url + "/studio")
    studio.sign_in(phone)
    expect(phone.get_by_role("heading", level=1)).to_have_text("Projects")
    phone.get_by_role("link", name="Add").click()

    # A file that is not an image: refused, the error next to the photo field.
    phone.get_by_label("Name (English)").fill("Wadi Rum Lodge")
    phone.get_by_label("Description (English)").fill("Sandstone walls for a desert lodge.")
    phone.get_by_label("Name (العربية)").fill("نُزُل وادي رم")
    phone.get_by_label("Photo").set_input_files(not_a_photo)
    phone.get_by_role("button", name="Save").click()
    expect(phone.locator("#err-photo")).to_have_text("This file is not a JPEG, PNG or WebP image.")
    expect(phone.get_by_label("Name (English)")).to_have_value("Wadi Rum Lodge")
    assert studio.stored_project("wadi-rum-lodge") is None
    # The preview shows the card in both languages.
    expect(phone.locator(".preview .card[lang=ar] h3")).to_have_text("نُزُل وادي رم")

    # The photo chosen, but the description emptied by mistake: the form comes
    # back with the photo held and shown, and Save needs no second choosing.
    phone.get_by_label("Photo").set_input_files(photo)
    phone.get_by_label("Description (English)").fill("")
    phone.get_by_role("button", name="Save").click()
    expect(phone.locator("#err-description")).to_have_text("Required.")
    expect(phone.get_by_text("The photo shown is kept for this form")).to_be_visible()
    expect(phone.locator("img.photo")).to_have_attribute("src", re.compile(r"^data:image/jpeg"))
    phone.get_by_label("Description (English)").fill("Sandstone walls for a desert lodge.")
    phone.get_by_role("button", name="Save").click()
    expect(phone.get_by_role("status")).to_contain_text("It is live on the site")
    stored = studio.stored_project("wadi-rum-lodge")
    assert stored is not None
    assert stored["name_ar"] == "نُزُل وادي رم"
    assert stored["photoUrl"]

    phone.get_by_role("link", name="See it on the site").click()
    expect(phone).to_have_url(site.url + "/projects/wadi-rum-lodge")
    expect(phone.get_by_role("dialog")).to_contain_text("Sandstone walls for a desert lodge.")
    phone.goto(site.url + "/projects")
    expect(phone.locator(".card__name", has_text="Wadi Rum Lodge")).to_be_visible()

    phone.goto(site.url + "/studio/projects")
    phone.get_by_role("link", name="Edit Wadi Rum Lodge").click()
    expect(phone.locator("output#id")).to_have_text("wadi-rum-lodge")
    phone.get_by_label("Name (English)").fill("Wadi Rum Desert Lodge")
    phone.get_by_role("button", name="Save").click()
    expect(phone.get_by_role("status")).to_contain_text("It is live on the site")
    phone.goto(site.url + "/projects")
    expect(phone.locator(".card__name", has_text="Wadi Rum Desert Lodge")).to_be_visible()

    phone.goto(site.url + "/studio/projects")
    phone.get_by_role("link", name="Delete Wadi Rum Desert Lodge").click()
    expect(phone.get_by_text("Visitors will no longer see it")).to_be_visible()
    phone.get_by_role("button", name="Delete").click()
    expect(phone.get_by_role("status")).to_contain_text("Visitors no longer see it")
    phone.goto(site.url + "/projects")
    expect(phone.locator(".card__name", has_text="Wadi Rum")).to_have_count(0)
    assert studio.stored_project("wadi-rum-lodge") is None


@pytest.fixture
def local(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StudioUnderTest]:
    # A photo limit of 1 MB, so that a photo over it is quick to send.
    yield from local_studio(tmp_path_factory.mktemp("studio-mistakes"), photo_max_mb="1")


def test_on_a_phone_every_tab_shows_and_each_limit_is_stated_and_kept(
    phone: Page, local: StudioUnderTest
) -> None:
    phone.goto(local.site.url + "/studio")
    local.sign_in(phone)
    phone.get_by_role("link", name="Slider photos").click()
    selected = phone.locator('.tabs a[aria-current="page"]')
    expect(selected).to_have_text("Slider photos")
    box = selected.bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= 390
    # A slide has no name: its id comes from the photo's file name, and the form says so.
    phone.get_by_role("link", name="Add").click()
    expect(phone.get_by_text("Made from the photo's file name when you save")).to_be_visible()

    phone.goto(local.site.url + "/studio/projects/new")
    name = phone.get_by_label("Name (English)")
    expect(name).to_have_attribute("maxlength", "120")
    expect(phone.locator("#limit-name")).to_have_text("At most 120 characters.")
    expect(phone.get_by_label("Description (English)")).to_have_attribute("maxlength", "2000")
    # A browser that lets more through (an old one, a pasted script): the server
    # refuses it, the heading stays short, and one message at the top leads to the field.
    name.evaluate("field => field.removeAttribute('maxlength')")
    name.fill("Quarry " * 700)
    phone.get_by_role("button", name="Save").click()
    heading = phone.get_by_role("heading", level=1)
    assert len(heading.inner_text()) < 80
    alert = phone.get_by_role("alert")
    expect(alert).to_contain_text("Nothing was saved")
    alert_box = alert.bounding_box()
    assert alert_box is not None
    assert alert_box["y"] + alert_box["height"] <= 844  # on the first screen
    phone.screenshot(path=str(local.site.log_path.parent / "form-refused.png"))
    alert.get_by_role("link", name="Name (English): At most 120 characters.").click()
    expect(phone).to_have_url(local.site.url + "/studio/projects/new#name")
    expect(phone.get_by_label("Name (English)")).to_have_value(("Quarry " * 700).strip())


def test_the_arabic_studio_names_an_entry_by_its_arabic_name(
    phone: Page, local: StudioUnderTest
) -> None:
    phone.goto(local.site.url + "/studio")
    local.sign_in(phone)
    phone.goto(local.site.url + "/studio/language/ar?next=/studio/projects")
    phone.goto(local.site.url + "/studio/projects/delete/abdoun-villa-facade")
    expect(phone.locator("main p")).to_contain_text("واجهة فيلا في عبدون")
    expect(phone.locator("main p")).not_to_contain_text("Abdoun")


def test_two_staff_on_phones_neither_overwrites_the_other_unawares(
    browser: Browser, local: StudioUnderTest
) -> None:
    phones = [
        browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
        for _ in range(2)
    ]
    for page in phones:
        page.goto(local.site.url + "/studio")
        local.sign_in(page)
        page.goto(local.site.url + "/studio/projects/edit/dubai-restaurant-bar")
    rania, omar = phones
    rania.get_by_label("Description (English)").fill("Rania's words.")
    rania.get_by_role("button", name="Save").click()
    expect(rania.get_by_role("status")).to_be_visible()

    omar.get_by_label("Description (English)").fill("Omar's words.")
    omar.get_by_role("button", name="Save").click()
    alert = omar.get_by_role("alert")
    expect(alert).to_contain_text("Someone else saved this entry after you opened it")
    expect(alert).to_contain_text("“Rania's words.”")
    expect(omar.get_by_label("Description (English)")).to_have_value("Omar's words.")
    stored = local.stored_project("dubai-restaurant-bar")
    assert stored is not None
    assert stored["description"] == "Rania's words."
    omar.get_by_role("button", name="Save").click()  # now knowing what it replaces
    expect(omar.get_by_role("status")).to_be_visible()
    stored = local.stored_project("dubai-restaurant-bar")
    assert stored is not None
    assert stored["description"] == "Omar's words."
    for page in phones:
        page.context.close()


def test_staff_put_a_project_first_with_the_arrows_and_every_language_shows_it(
    phone: Page, local: StudioUnderTest
) -> None:
    site = local.site.url
    phone.goto(site + "/studio")
    local.sign_in(phone)
    names = phone.locator(".items .item-name")
    last = names.last.inner_text()
    count = names.count()
    for _ in range(count - 1):  # up, up, ... to the top; each move a plain form, no script needed
        phone.get_by_role("button", name=f"Move up {last}").click()
    expect(names.first).to_have_text(last)
    expect(phone.get_by_role("button", name=f"Move up {last}")).to_be_disabled()
    first_id = (phone.locator(".items li").first.get_attribute("id") or "").removeprefix("item-")
    stored = local.stored_project(first_id)
    assert stored is not None
    assert stored["position"] == 10  # every entry now has one, in tens
    shown = {"": stored["name"], "/ar": stored.get("name_ar") or stored["name"]}
    for prefix, name in shown.items():
        phone.goto(site + prefix + "/projects")
        expect(phone.locator(".card__name").first).to_have_text(name)


def test_on_a_phone_the_list_is_light_and_a_photo_over_the_limit_costs_nothing(
    browser: Browser, phone: Page, local: StudioUnderTest
) -> None:
    site = local.site.url
    phone.goto(site + "/studio")
    local.sign_in(phone)
    thumbnails = phone.locator(".items img")
    thumbnails.last.scroll_into_view_if_needed()  # every one loaded, the lazy ones too
    for index in range(thumbnails.count()):
        expect(thumbnails.nth(index)).to_have_js_property("complete", True)
    image_bytes = phone.evaluate(
        "performance.getEntriesByType('resource')"
        ".filter(entry => entry.initiatorType === 'img').map(entry => entry.encodedBodySize)"
    )
    assert len(image_bytes) == thumbnails.count() >= 7  # every sample project's
    assert 0 < sum(image_bytes) < 300_000, image_bytes

    # Over the limit (1 MB here): said the moment it is chosen, and Save sends nothing.
    over: FilePayload = {
        "name": "IMG_0001.jpg",
        "mimeType": "image/jpeg",
        "buffer": b"0" * 1_100_000,
    }
    phone.goto(site + "/studio/projects/new")
    phone.get_by_label("Name (English)").fill("Heavy slab")
    photo = phone.get_by_label("Photo")
    photo.set_input_files(over)
    assert photo.evaluate("input => input.validationMessage") == "The photo is larger than 1 MB."
    phone.get_by_role("button", name="Save").click()
    expect(phone).to_have_url(site + "/studio/projects/new")
    expect(phone.get_by_role("alert")).to_have_count(0)

    # Without script the server says it: the studio's own page, the text kept.
    cookies = phone.context.cookies()
    plain = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, java_script_enabled=False
    )
    plain.add_cookies(cookies)  # type: ignore[arg-type]
    page = plain.new_page()
    page.goto(site + "/studio/projects/new")
    page.get_by_label("Name (English)").fill("Heavy slab")
    page.get_by_label("Photo").set_input_files(over)
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("alert")).to_contain_text("Photo: The photo is larger than 1 MB.")
    expect(page.get_by_label("Name (English)")).to_have_value("Heavy slab")
    plain.close()


def test_staff_add_a_stone_with_two_finishes_and_its_figures_from_a_phone(
    phone: Page, local: StudioUnderTest, tmp_path: Path
) -> None:
    site = local.site.url
    photos = {"slab": (150, 60, 50), "flamed": (120, 70, 60)}
    for name, colour in photos.items():
        Image.new("RGB", (1200, 900), colour).save(tmp_path / f"{name}.jpg", "JPEG")
    phone.goto(site + "/studio")
    local.sign_in(phone)
    phone.get_by_role("link", name="Stones", exact=True).click()
    phone.get_by_role("link", name="Add").click()

    phone.get_by_label("Name (English)").fill("Wadi Araba Red")
    phone.get_by_label("Description (English)").fill("A deep red granite from the south.")
    phone.get_by_label("Origin (English)").fill("Wadi Araba, Jordan")
    phone.get_by_label("Family").select_option(label="Granite")
    phone.get_by_label("Colour").select_option(label="Red")
    # A finish's photo is asked for once the finish is ticked.
    flamed_photo = phone.get_by_label("Photo: Flamed")
    expect(flamed_photo).to_be_hidden()
    phone.get_by_role("checkbox", name="Polished").check()
    phone.get_by_role("checkbox", name="Flamed").check()
    flamed_photo.set_input_files(tmp_path / "flamed.jpg")
    phone.get_by_label("Formats").fill("Slabs, 2 and 3 cm\nTiles, 60 x 60 cm")
    figures = {"Apparent density (kg/m³)": "2650", "Water absorption (%)": "0.25"}
    figures |= {"Compressive strength (MPa)": "180", "Abrasion resistance (mm)": "16"}
    for label, value in figures.items():
        phone.get_by_label(label).fill(value)
    phone.get_by_label("Photo", exact=True).set_input_files(tmp_path / "slab.jpg")
    # The whole form fits the phone's width: nothing to scroll sideways.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.get_by_role("button", name="Save").click()
    expect(phone.get_by_role("status")).to_contain_text("It is live on the site")

    phone.get_by_role("link", name="See it on the site").click()
    expect(phone).to_have_url(site + "/stones/wadi-araba-red")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Wadi Araba Red")
    density = phone.get_by_role("row", name="Apparent density")
    expect(density).to_contain_text("2,650 kg/m³")
    expect(phone.get_by_role("row", name="Flexural strength")).to_have_count(0)
    for path in ("/stones", "/stones?family=granite&finish=flamed"):
        phone.goto(site + path)
        expect(phone.locator(".card__name", has_text="Wadi Araba Red")).to_be_visible()
    phone.goto(site + "/stones?family=granite&finish=honed")
    expect(phone.locator(".card__name", has_text="Wadi Araba Red")).to_have_count(0)


@pytest.mark.parametrize("studio", ["firebase"], indirect=True)
def test_after_a_wrong_password_on_a_phone_only_the_password_is_typed_again(
    phone: Page, studio: StudioUnderTest
) -> None:
    phone.goto(studio.site.url + "/studio")
    phone.get_by_label("Email").fill(STAFF_EMAIL)
    phone.get_by_label("Password").fill("not the password")
    phone.get_by_role("button", name="Sign in", exact=True).click()
    expect(phone.get_by_role("alert")).to_be_visible()
    expect(phone.get_by_label("Email")).to_have_value(STAFF_EMAIL)
    expect(phone.get_by_label("Password")).to_have_value("")
    phone.get_by_label("Password").fill(STAFF_PASSWORD)
    phone.get_by_role("button", name="Sign in", exact=True).click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Projects")
