"""The studio over HTTP against a real uvicorn: sign-in, writes, refusals, headers.

The server runs in development mode on a copy of the shipped content, so the
files the tests read back are the real ones in their real format.
"""

from __future__ import annotations

import html
import io
import json
import re
import shutil
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from PIL import Image
from starlette.testclient import TestClient

from harness.live_server import LiveServer
from server.app import create_app
from server.settings import REPO_ROOT, Settings
from server.studio.sessions import MAX_SESSIONS, Credentials, SessionStore

AUDIT_LOGGER = "server.studio.audit"


def jpeg(
    size: tuple[int, int] = (640, 480), colour: tuple[int, int, int] = (150, 120, 90)
) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, "JPEG")
    return buffer.getvalue()


@pytest.fixture(scope="module")
def content(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("studio") / "content"
    shutil.copytree(REPO_ROOT / "content", folder)
    return folder


@pytest.fixture(scope="module")
def studio_site(content: Path) -> Iterator[LiveServer]:
    env = {
        "DEV_MODE": "on",
        "CONTENT_DIR": str(content),
        "LOG_FORMAT": "json",
        "IMAGE_CACHE_DIR": str(content.parent / "image-cache"),
        "STUDIO_PHOTO_MAX_MB": "2",
    }
    with LiveServer(env=env, log_path=content.parent / "uvicorn.log") as server:
        yield server


class Staff:
    """A signed-in browser, as far as HTTP goes: the session cookie and the form token."""

    def __init__(self, site: LiveServer) -> None:
        self.site = site
        self.client = httpx.Client(base_url=site.url, headers={"Origin": site.url})
        response = self.client.post("/studio/sign-in")
        assert response.status_code == 303, response.text
        self.token = csrf_token(self.client.get("/studio/projects").text)

    def post(
        self,
        path: str,
        data: Mapping[str, str | list[str]],
        photo: bytes | None = None,
        photos: Mapping[str, bytes] | None = None,
    ) -> httpx.Response:
        """As a browser sends the form: an edit or a delete with the version its page showed;
        `photos`: a choice's photos by input name ("finishes:honed")."""
        sent = {**({"photo": photo} if photo is not None else {}), **(photos or {})}
        files = {name: ("phone.jpg", data, "image/jpeg") for name, data in sent.items()} or None
        fields: dict[str, Any] = {"csrf": self.token, **data}
        if ("/edit/" in path or "/delete/" in path) and "version" not in data:
            fields["version"] = self.version_shown(path)
        return self.client.post(path, data=fields, files=files)

    def version_shown(self, path: str) -> str:
        """The version an edit or delete page puts in its form."""
        return version_in(self.client.get(path).text)


@pytest.fixture(scope="module")
def staff(studio_site: LiveServer) -> Iterator[Staff]:
    staff = Staff(studio_site)
    yield staff
    staff.client.close()


def card_names(site: LiveServer, path: str) -> list[str]:
    """The names on a public list page's cards, as visitors read them."""
    page = httpx.get(site.url + path).text
    return [
        html.unescape(name) for name in re.findall(r'<span class="card__name"[^>]*>([^<]*)<', page)
    ]


def documents_named(listing: str) -> list[str]:
    """The entries' names on a studio list page."""
    return re.findall(r'<span class="item-name">([^<]*)<', listing)


def csrf_token(html: str) -> str:
    match = re.search(r'name="csrf" value="([^"]+)"', html)
    assert match is not None, html
    return match.group(1)


def field_errors(html: str) -> dict[str, str]:
    return dict(re.findall(r'class="field-error" id="err-([a-z_:-]+)">([^<]+)<', html))


def shown_soon(url: str, text: str) -> bool:
    """Whether the page shows `text` within the 2 s an edit takes to go live (the file watch
    reads the saved file again; a page asked for meanwhile may still show the last read)."""
    deadline = time.monotonic() + 2
    while text not in (page := httpx.get(url).text) and time.monotonic() < deadline:
        time.sleep(0.05)
    return text in page


def files_snapshot(content: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(content)): path.read_bytes()
        for path in sorted(content.rglob("*"))
        if path.is_file()
    }


def test_the_studio_is_a_404_unless_configured() -> None:
    with TestClient(create_app(Settings())) as client:
        assert client.get("/studio").status_code == 404
        assert client.post("/studio/sign-in").status_code == 405  # no studio, no POST at all


def test_a_change_is_written_in_the_files_format_and_reaches_the_pages(
    staff: Staff, studio_site: LiveServer, content: Path
) -> None:
    before = json.loads((content / "projects.json").read_text(encoding="utf-8"))
    response = staff.post(
        "/studio/projects/new",
        {
            "name": "Aqaba Marina Terrace",
            "description": "Sandblasted basalt pavers\r\nfor a marina terrace.",
            "name_ar": "تراس مرسى العقبة",
            "description_ar": "",
            "name_fr": "Terrasse de la marina d'Aqaba",
            "name_it": "",
        },
        photo=jpeg(),
    )
    assert response.status_code == 303
    assert response.headers["location"] == "/studio/projects?saved=aqaba-marina-terrace"

    text = (content / "projects.json").read_text(encoding="utf-8")
    documents = json.loads(text)
    # The file keeps its format (2-space JSON, Arabic as is, a final newline)
    # and its order; the new document goes last, its empty field left out.
    assert text == json.dumps(documents, indent=2, ensure_ascii=False) + "\n"
    assert documents[:-1] == before
    added = documents[-1]
    assert list(added) == ["id", "name", "description", "photoUrl", "name_ar", "name_fr"]
    assert added["description"] == "Sandblasted basalt pavers\nfor a marina terrace."
    photo = content / added["photoUrl"].removeprefix("/")
    assert re.fullmatch(
        r"/images/projects/aqaba-marina-terrace-[0-9a-f]{12}\.jpg", added["photoUrl"]
    )
    # The same picture, re-encoded without its metadata (tests/test_studio_photos.py).
    with Image.open(photo) as stored:
        assert (stored.format, stored.size) == ("JPEG", (640, 480))
        red, green, blue = stored.convert("RGB").getpixel((320, 240))  # type: ignore[misc]
        assert abs(red - 150) + abs(green - 120) + abs(blue - 90) < 12

    listing = staff.client.get(response.headers["location"]).text
    assert "It is live on the site" in listing
    assert "Aqaba Marina Terrace" in card_names(studio_site, "/projects")
    # In French where given; the empty Italian name falls back to the English.
    assert "Terrasse de la marina d'Aqaba" in card_names(studio_site, "/fr/projects")
    assert "Aqaba Marina Terrace" in card_names(studio_site, "/it/projects")
    audit = studio_site.log_lines(logger=AUDIT_LOGGER, document="aqaba-marina-terrace")
    assert [(line["who"], line["studio_action"], line["collection"]) for line in audit] == [
        ("local staff", "create", "Projects")
    ]
    assert audit[0]["time"]

    # A second project of the same name gets an id of its own.
    again = staff.post(
        "/studio/projects/new", {"name": "Aqaba Marina Terrace", "description": "Again."}, jpeg()
    )
    assert again.headers["location"] == "/studio/projects?saved=aqaba-marina-terrace-2"


def test_replacing_a_photo_removes_the_old_one_only_after_the_document_points_at_the_new(
    staff: Staff, studio_site: LiveServer, content: Path
) -> None:
    staff.post(
        "/studio/collabrations/new", {"name": "Petra Tiles", "description": "Tiles."}, jpeg()
    )
    old_url = _document(content, "collabrations", "petra-tiles")["photoUrl"]
    response = staff.post(
        "/studio/collabrations/edit/petra-tiles",
        {"name": "Petra Tiles Co.", "description": "Tiles and slabs.", "name_ar": "بلاط البتراء"},
        photo=jpeg(colour=(10, 200, 30)),
    )
    assert response.status_code == 303
    document = _document(content, "collabrations", "petra-tiles")
    assert document["name"] == "Petra Tiles Co."
    assert document["name_ar"] == "بلاط البتراء"
    assert document["photoUrl"] != old_url
    assert (content / document["photoUrl"].removeprefix("/")).is_file()
    assert not (content / old_url.removeprefix("/")).exists()
    assert shown_soon(studio_site.url + "/Collabrations", "Petra Tiles Co.")

    # Edited without a photo: the photo stays.
    staff.post("/studio/collabrations/edit/petra-tiles", {"name": "Petra", "description": "T."})
    assert _document(content, "collabrations", "petra-tiles")["photoUrl"] == document["photoUrl"]


def test_delete_asks_first_then_removes_the_document_and_its_photo(
    staff: Staff, studio_site: LiveServer, content: Path
) -> None:
    staff.post("/studio/slider/new", {}, jpeg(colour=(1, 2, 3)))
    slides = json.loads((content / "slider.json").read_text(encoding="utf-8"))
    slide = slides[-1]
    assert slide["id"] == "phone"  # from the photo's file name
    question = staff.client.get(f"/studio/slider/delete/{slide['id']}")
    assert question.status_code == 200
    assert 'action="/studio/slider/delete/phone"' in question.text
    assert json.loads((content / "slider.json").read_text(encoding="utf-8")) == slides

    response = staff.post(f"/studio/slider/delete/{slide['id']}", {})
    assert response.status_code == 303
    assert json.loads((content / "slider.json").read_text(encoding="utf-8")) == slides[:-1]
    assert not (content / slide["photoUrl"].removeprefix("/")).exists()
    listing = staff.client.get(response.headers["location"]).text
    assert "Visitors no longer see it" in listing or "Taking it off the site" in listing


def test_each_language_has_its_fields_and_the_studio_speaks_it(staff: Staff) -> None:
    form = staff.client.get("/studio/projects/new").text
    # A field for each language, labelled with it, typed in its direction.
    assert '<label for="name_fr">Name (Français)</label>' in form
    assert re.search(
        r'<textarea id="description_ar" name="description_ar" lang="ar" dir="rtl"', form
    )
    assert re.search(r'<input id="name_it" name="name_it" lang="it" dir="ltr"', form)
    staff.client.get("/studio/language/fr")
    try:
        listing = staff.client.get("/studio/projects").text
        assert '<html lang="fr" dir="ltr">' in listing
        # Names as French visitors see them, in French where the content has it.
        first = json.loads((REPO_ROOT / "content" / "projects.json").read_text(encoding="utf-8"))[0]
        assert html.unescape(documents_named(listing)[0]) == first["name_fr"]
    finally:
        staff.client.get("/studio/language/en")


def test_errors_are_shown_next_to_their_fields_in_the_staff_members_language(
    staff: Staff, content: Path
) -> None:
    before = files_snapshot(content)
    response = staff.post(
        "/studio/projects/new", {"name": "", "description": "x" * 2001}, b"GIF89a not really"
    )
    assert response.status_code == 422
    assert field_errors(response.text) == {
        "name": "Required.",
        "description": "At most 2000 characters.",
        "photo": "This file is not a JPEG, PNG or WebP image.",
    }
    assert 'aria-describedby="err-name"' in response.text
    staff.client.get("/studio/language/ar")
    try:
        arabic = staff.post("/studio/projects/new", {"name": "Hall", "description": "A hall."})
        assert '<html lang="ar" dir="rtl">' in arabic.text
        assert field_errors(arabic.text) == {"photo": "اختر صورة."}
    finally:
        staff.client.get("/studio/language/en")
    assert files_snapshot(content) == before


def held_photo_in(html: str) -> str | None:
    match = re.search(r'name="held_photo" value="([^"]+)"', html)
    return match.group(1) if match else None


def test_a_chosen_photo_is_kept_when_the_form_comes_back_with_a_mistake(
    staff: Staff, content: Path
) -> None:
    held_folder = content / ".held" / "projects"
    # The description forgotten: the form comes back holding the photo, shown small.
    first = staff.post(
        "/studio/projects/new", {"name": "Wadi Rum Lodge", "description": ""}, jpeg((800, 600))
    )
    assert first.status_code == 422
    assert field_errors(first.text) == {"description": "Required."}
    held = held_photo_in(first.text)
    assert held is not None
    assert [path.name for path in held_folder.iterdir()] == [held]
    assert '<img class="photo" src="data:image/jpeg;base64,' in first.text
    assert "The photo shown is kept for this form" in first.text
    # Not public: the held photo is outside the images the site serves.
    assert not list((content / "images").rglob(held))

    # Saved without choosing the photo again: the held one is used, then let go.
    saved = staff.post(
        "/studio/projects/new",
        {"name": "Wadi Rum Lodge", "description": "Sandstone.", "held_photo": held},
    )
    assert saved.status_code == 303
    documents = json.loads((content / "projects.json").read_text(encoding="utf-8"))
    added = next(document for document in documents if document["id"] == "wadi-rum-lodge")
    with Image.open(content / added["photoUrl"].removeprefix("/")) as stored:
        assert stored.size == (800, 600)
    assert list(held_folder.iterdir()) == []


def test_photos_over_the_size_or_pixel_limit_are_refused(staff: Staff, content: Path) -> None:
    before = files_snapshot(content)
    # 60 megapixels in a few kilobytes: the pixel limit, not the size, refuses it.
    bomb = io.BytesIO()
    Image.new("1", (10_000, 6_000)).save(bomb, "PNG")
    response = staff.post(
        "/studio/projects/new", {"name": "B", "description": "B"}, bomb.getvalue()
    )
    assert field_errors(response.text) == {"photo": "The photo has more than 50 million pixels."}
    # Over STUDIO_PHOTO_MAX_MB (2 MB): the form comes back, the typed text kept,
    # one word on the photo at the top and beside it; the photo is never read.
    over = staff.post(
        "/studio/projects/new", {"name": "Heavy", "description": "Kept."}, b"0" * 5_000_000
    )
    assert over.status_code == 422
    assert field_errors(over.text) == {"photo": "The photo is larger than 2 MB."}
    assert 'value="Heavy"' in over.text
    assert '<a href="#photo">Photo: The photo is larger than 2 MB.</a>' in over.text
    # Far beyond (four times the limit): refused before it is read, with the limit said.
    huge = staff.post("/studio/projects/new", {"name": "H", "description": "H"}, b"0" * 8_100_000)
    assert huge.status_code == 413
    assert "far larger than the 2 MB a photo may be" in huge.text
    assert '<header class="bar">' in huge.text  # the studio's own page
    assert files_snapshot(content) == before


def test_without_a_session_every_write_is_refused_and_changes_nothing(
    studio_site: LiveServer, staff: Staff, content: Path
) -> None:
    staff.post("/studio/projects/new", {"name": "Kept", "description": "Kept."}, jpeg())
    before = files_snapshot(content)
    anonymous = httpx.Client(base_url=studio_site.url, headers={"Origin": studio_site.url})
    with anonymous:
        writes = [
            ("/studio/projects/new", {"name": "X", "description": "X"}),
            ("/studio/projects/edit/kept", {"name": "X", "description": "X"}),
            ("/studio/projects/delete/kept", {}),
            ("/studio/sign-out", {}),
        ]
        for path, data in writes:
            # Even with a real token from someone else's session.
            response = anonymous.post(path, data={"csrf": staff.token, **data})
            assert response.status_code == 401, path
            assert "Please sign in again" in response.text
        assert anonymous.get("/studio/projects").status_code == 401
        assert anonymous.get("/studio/projects/edit/kept").status_code == 401
    assert files_snapshot(content) == before


def test_without_the_csrf_token_or_from_another_site_a_write_is_refused(
    studio_site: LiveServer, staff: Staff, content: Path
) -> None:
    before = files_snapshot(content)
    no_token = staff.client.post("/studio/projects/delete/kept", data={})
    assert no_token.status_code == 403
    wrong = staff.client.post("/studio/projects/delete/kept", data={"csrf": "x" * 43})
    assert wrong.status_code == 403
    cross_site = staff.client.post(
        "/studio/projects/delete/kept",
        data={"csrf": staff.token},
        headers={"Origin": "https://elsewhere.example"},
    )
    assert cross_site.status_code == 403
    assert (
        httpx.post(
            studio_site.url + "/studio/sign-in", headers={"Sec-Fetch-Site": "cross-site"}
        ).status_code
        == 403
    )
    assert files_snapshot(content) == before


def test_the_studio_answers_on_loopback_only(studio_site: LiveServer) -> None:
    # A name pointed at 127.0.0.1 (DNS rebinding) does not reach it.
    for host in ("studio.example", "studio.example@127.0.0.1", "127.0.0.1.studio.example"):
        response = httpx.get(studio_site.url + "/studio", headers={"Host": host})
        assert response.status_code == 404, host
    for host in ("localhost", "LOCALHOST:8000", "[::1]:8000", "127.0.0.1"):
        response = httpx.get(studio_site.url + "/studio", headers={"Host": host})
        assert response.status_code == 200, host


def test_the_studio_refuses_what_a_proxy_relays(studio_site: LiveServer) -> None:
    # A proxy on this computer would make every visitor look local.
    for header in ("X-Forwarded-For", "Forwarded", "X-Real-IP"):
        response = httpx.get(studio_site.url + "/studio", headers={header: "203.0.113.9"})
        assert response.status_code == 404, header


def test_the_origin_is_matched_by_host_as_behind_a_tls_edge(staff: Staff) -> None:
    # The edge speaks https to the browser and http to the app: the same host is the same site.
    host = staff.site.url.split("://", 1)[1]
    response = staff.client.post(
        "/studio/slider/edit/quarry-blocks",
        data={
            "csrf": staff.token,
            "version": staff.version_shown("/studio/slider/edit/quarry-blocks"),
        },
        headers={"Origin": f"https://{host}"},
    )
    assert response.status_code == 303


def test_a_slide_saved_without_a_new_photo_changes_nothing(staff: Staff, content: Path) -> None:
    before = files_snapshot(content)
    response = staff.post("/studio/slider/edit/quarry-blocks", {})
    assert response.status_code == 303
    assert response.headers["location"] == "/studio/slider"
    assert files_snapshot(content) == before


def test_a_change_not_yet_live_is_looked_for_again_a_bounded_number_of_times(
    staff: Staff,
) -> None:
    waiting = staff.client.get("/studio/projects?saved=never-saved").text
    assert (
        '<meta http-equiv="refresh" content="1; url=/studio/projects'
        '?saved=never-saved&amp;looks=1">' in waiting
    )
    last = staff.client.get("/studio/projects?saved=never-saved&looks=30").text
    assert 'http-equiv="refresh"' not in last


def test_sign_out_ends_the_session(studio_site: LiveServer) -> None:
    other = Staff(studio_site)
    try:
        cookie = other.client.cookies["studio_session"]
        assert other.post("/studio/sign-out", {}).status_code == 303
        again = httpx.get(studio_site.url + "/studio/projects", cookies={"studio_session": cookie})
        assert again.status_code == 401
    finally:
        other.client.close()


def test_the_session_cookie_is_httponly_strict_and_lasts_a_stated_time(
    studio_site: LiveServer,
) -> None:
    response = httpx.post(studio_site.url + "/studio/sign-in", headers={"Origin": studio_site.url})
    cookie = response.headers["set-cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=strict" in cookie
    assert "Path=/studio" in cookie
    assert f"Max-Age={12 * 3600}" in cookie  # STUDIO_SESSION_HOURS' default


@pytest.mark.anyio
async def test_the_local_sessions_are_bounded_by_dropping_the_oldest() -> None:
    sessions = SessionStore(lifetime_seconds=3600)
    cookies = [(await sessions.sign_in(Credentials()))[0] for _ in range(MAX_SESSIONS + 1)]
    assert await sessions.find(cookies[0]) is None
    assert await sessions.find(cookies[1]) is not None
    assert await sessions.find(cookies[-1]) is not None


def test_studio_pages_are_noindex_with_their_own_csp_and_the_public_ones_unchanged(
    studio_site: LiveServer, staff: Staff
) -> None:
    page = staff.client.get("/studio/projects")
    assert '<meta name="robots" content="noindex, nofollow">' in page.text
    assert page.headers["x-robots-tag"] == "noindex, nofollow"
    assert page.headers["cache-control"] == "no-store"
    studio_csp = page.headers["content-security-policy"]
    assert "default-src 'none'" in studio_csp
    assert "script-src" not in studio_csp

    public = httpx.get(studio_site.url + "/projects")
    with TestClient(create_app(Settings())) as plain:  # no studio at all
        assert (
            public.headers["content-security-policy"]
            == plain.get("/projects").headers["content-security-policy"]
        )
    assert "x-robots-tag" not in public.headers

    robots = httpx.get(studio_site.url + "/robots.txt").text
    assert "Disallow: /studio\n" in robots
    sitemap = httpx.get(studio_site.url + "/sitemap.xml").text
    assert "<loc>" in sitemap
    assert not re.search(r'(<loc>|href=")https?://[^/"<]+/studio', sitemap)


def _document(content: Path, collection: str, document_id: str) -> dict[str, str]:
    documents = json.loads((content / f"{collection}.json").read_text(encoding="utf-8"))
    found: dict[str, str] = next(doc for doc in documents if doc["id"] == document_id)
    return found


def test_sign_in_attempts_are_rate_limited(studio_site: LiveServer) -> None:
    # Last in the module: it empties 127.0.0.1's sign-in bucket.
    answers = [
        httpx.post(studio_site.url + "/studio/sign-in", headers={"Origin": studio_site.url})
        for _ in range(12)
    ]
    assert answers[-1].status_code == 429
    assert "Too many attempts" in answers[-1].text


def test_the_list_shows_thumbnails_of_a_few_kilobytes_through_the_image_route(
    staff: Staff, studio_site: LiveServer
) -> None:
    page = staff.client.get("/studio/projects")
    thumbnails = re.findall(r'<img src="([^"]+)" alt="" width="96"', page.text)
    assert len(thumbnails) >= 7  # every sample project
    assert all(src.startswith("/img/w320/") for src in thumbnails)
    sizes = [len(staff.client.get(src).content) for src in thumbnails]
    print(f"{len(sizes)} thumbnails, {sum(sizes):,} bytes")
    assert sum(sizes) < 300_000, sizes
    assert max(sizes) < 60_000


def test_a_save_over_someone_elses_newer_save_is_refused_and_shows_theirs(
    staff: Staff, content: Path
) -> None:
    path = "/studio/projects/edit/milan-kitchen-worktop"
    opened = staff.version_shown(path)  # the second person opens the form...
    first = staff.post(path, {"name": "Milan Worktop", "description": "First."})
    assert first.status_code == 303  # ...while the first person saves
    yours = {"name": "Milan Kitchen Worktop", "description": "Second."}
    second = staff.post(path, {**yours, "version": opened})
    assert second.status_code == 409
    assert "Someone else saved this entry after you opened it" in second.text
    assert "“Milan Worktop”" in second.text  # theirs, shown
    assert "“First.”" in second.text
    assert 'value="Milan Kitchen Worktop"' in second.text  # yours, kept in the form
    assert _document(content, "projects", "milan-kitchen-worktop")["description"] == "First."
    # Saving again from that page replaces theirs, knowingly.
    again = staff.post(path, {**yours, "version": version_in(second.text)})
    assert again.status_code == 303
    assert _document(content, "projects", "milan-kitchen-worktop")["description"] == "Second."


def test_a_delete_of_an_entry_changed_since_the_question_is_refused(
    staff: Staff, content: Path
) -> None:
    entry = "athens-townhouse-staircase"
    asked = staff.version_shown(f"/studio/projects/delete/{entry}")
    staff.post(f"/studio/projects/edit/{entry}", {"name": "Athens Stairs", "description": "Now."})
    refused = staff.post(f"/studio/projects/delete/{entry}", {"version": asked})
    assert refused.status_code == 409
    assert "nothing was deleted" in refused.text
    assert _document(content, "projects", entry)["description"] == "Now."


def version_in(html: str) -> str:
    """The version a page's form carries."""
    match = re.search(r'name="version" value="([^"]*)"', html)
    assert match is not None
    return match.group(1)
