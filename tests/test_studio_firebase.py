"""The studio on Firebase, with real parts: the Firebase Auth emulator, the Firestore
emulator and a Cloud Storage emulator, against a real uvicorn.

Sign-in is email and password (the server asks the Auth emulator, verifies the
ID token with the Admin SDK and keeps a session cookie); staff by the custom
claim or the allow-list; writes land in Firestore and photos in the bucket.
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote, urlsplit

import httpx2 as httpx
import pytest
from google.cloud.storage import Bucket, Client
from PIL import Image

from harness.firebase_emulators import AuthEmulator, StorageEmulator, firebase_studio_env
from harness.firestore_emulator import FirestoreEmulator
from harness.live_server import LiveServer
from server.content.models import Collection
from server.enquiries.fields import Enquiry
from server.studio.documents import Changed, FirestoreStudioContent

pytestmark = pytest.mark.emulator

PHOTO = "https://firebasestorage.googleapis.com/v0/b/demo/o/a.jpg?alt=media"
PASSWORD = "correct horse battery staple"  # noqa: S105 - an emulator account
ALLOWED = "ana@example.com"


def jpeg(colour: tuple[int, int, int]) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (320, 240), colour).save(buffer, "JPEG")
    return buffer.getvalue()


@pytest.fixture(scope="module")
def bucket(storage_emulator: StorageEmulator, monkeypatch_module: pytest.MonkeyPatch) -> Bucket:
    monkeypatch_module.setenv("STORAGE_EMULATOR_HOST", storage_emulator.url)
    return Client(project="demo-fine-stone").bucket(storage_emulator.bucket)


@pytest.fixture(scope="module")
def monkeypatch_module() -> Iterator[pytest.MonkeyPatch]:
    with pytest.MonkeyPatch.context() as patch:
        yield patch


@pytest.fixture(scope="module")
def firebase_site(
    firestore_emulator: FirestoreEmulator,
    auth_emulator: AuthEmulator,
    storage_emulator: StorageEmulator,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[LiveServer]:
    firestore_emulator.reset()
    folder = tmp_path_factory.mktemp("studio-firebase")
    env = firebase_studio_env(firestore_emulator, auth_emulator, storage_emulator, folder)
    env["STUDIO_STAFF_EMAILS"] = ALLOWED
    env["LOG_FORMAT"] = "json"
    with LiveServer(env=env, log_path=folder / "uvicorn.log") as server:
        yield server


def sign_in(site: LiveServer, email: str, password: str = PASSWORD) -> httpx.Response:
    return httpx.post(
        site.url + "/studio/sign-in",
        data={"email": email, "password": password},
        headers={"Origin": site.url},
    )


class Staff:
    """A signed-in client. The cookie is Secure, so it is sent by hand over the test's http."""

    def __init__(self, site: LiveServer, email: str) -> None:
        response = sign_in(site, email)
        assert response.status_code == 303, response.text
        cookie = re.search(r"studio_session=([^;]+)", response.headers["set-cookie"])
        assert cookie is not None
        self.cookie = cookie.group(1)
        self.client = httpx.Client(
            base_url=site.url,
            headers={"Origin": site.url, "Cookie": f"studio_session={self.cookie}"},
        )
        page = self.client.get("/studio/projects")
        assert page.status_code == 200, page.text
        token = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert token is not None
        self.token = token.group(1)

    def post(self, path: str, data: dict[str, str], photo: bytes | None = None) -> httpx.Response:
        """As a browser sends the form: an edit or a delete with the version its page showed."""
        files = {"photo": ("photo.jpg", photo, "image/jpeg")} if photo is not None else None
        fields = {"csrf": self.token, **data}
        if ("/edit/" in path or "/delete/" in path) and "version" not in data:
            page = self.client.get(path).text
            version = re.search(r'name="version" value="([^"]*)"', page)
            fields["version"] = version.group(1) if version else ""
        return self.client.post(path, data=fields, files=files)


def object_path(photo_url: str) -> str:
    return unquote(urlsplit(photo_url).path.rpartition("/o/")[2])


def until(condition: object, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return True
        time.sleep(0.1)
    return False


def test_an_account_that_is_not_staff_is_told_it_has_no_access(
    firebase_site: LiveServer, auth_emulator: AuthEmulator
) -> None:
    auth_emulator.add_account("visitor@example.com", PASSWORD)
    refused = sign_in(firebase_site, "visitor@example.com")
    assert refused.status_code == 403
    assert "You have no access to the studio." in refused.text
    assert "set-cookie" not in refused.headers
    # An address on the allow-list that Firebase has not verified is not enough.
    auth_emulator.add_account(ALLOWED, PASSWORD)
    assert sign_in(firebase_site, ALLOWED).status_code == 403
    wrong = sign_in(firebase_site, "visitor@example.com", "not the password")
    assert wrong.status_code == 401
    # Only the password is typed again: the address stays in its field.
    assert 'value="visitor@example.com"' in wrong.text


def test_staff_add_replace_and_delete_through_firestore_and_storage(
    firebase_site: LiveServer,
    auth_emulator: AuthEmulator,
    firestore_emulator: FirestoreEmulator,
    bucket: Bucket,
) -> None:
    auth_emulator.add_account("omar@example.com", PASSWORD, staff=True)
    staff = Staff(firebase_site, "omar@example.com")
    cookie_header = sign_in(firebase_site, "omar@example.com").headers["set-cookie"]
    for attribute in ("HttpOnly", "Secure", "SameSite=strict", f"Max-Age={12 * 3600}"):
        assert attribute in cookie_header

    created = staff.post(
        "/studio/projects/new",
        {"name": "Jerash Colonnade", "description": "Limestone columns restored."},
        jpeg((200, 180, 150)),
    )
    assert created.status_code == 303, created.text
    documents = firestore_emulator.client().collection("Projects")
    document = documents.document("jerash-colonnade").get().to_dict()
    assert document is not None
    assert document["name"] == "Jerash Colonnade"
    blob = bucket.get_blob(object_path(document["photoUrl"]))
    assert blob is not None
    token = blob.metadata["firebaseStorageDownloadTokens"]
    assert document["photoUrl"].endswith(f"?alt=media&token={token}")
    assert object_path(document["photoUrl"]).startswith("studio/projects/jerash-colonnade-")
    # The listeners bring it to the pages within their 2 s.
    assert until(lambda: "Jerash Colonnade" in httpx.get(firebase_site.url + "/projects").text)
    audit = firebase_site.log_lines(logger="server.studio.audit", document="jerash-colonnade")
    assert [(line["who"], line["studio_action"]) for line in audit] == [
        ("omar@example.com", "create")
    ]

    old_path = object_path(document["photoUrl"])
    # A new photo with a mistake in the text: the photo is held in the bucket,
    # unpublished (no download token), and the next Save uses it.
    mistaken = staff.post(
        "/studio/projects/edit/jerash-colonnade",
        {"name": "Jerash Colonnade", "description": ""},
        jpeg((10, 20, 30)),
    )
    assert mistaken.status_code == 422
    held_name = re.search(r'name="held_photo" value="([^"]+)"', mistaken.text)
    assert held_name is not None
    held = f"studio-held/projects/{held_name.group(1)}"
    held_blob = bucket.get_blob(held)
    assert held_blob is not None
    assert "firebaseStorageDownloadTokens" not in (held_blob.metadata or {})
    replaced = staff.post(
        "/studio/projects/edit/jerash-colonnade",
        {
            "name": "Jerash Colonnade",
            "description": "Restored.",
            "name_ar": "أعمدة جرش",
            "held_photo": held_name.group(1),
        },
    )
    assert replaced.status_code == 303
    assert bucket.get_blob(held) is None
    document = documents.document("jerash-colonnade").get().to_dict()
    assert document is not None
    assert document["name_ar"] == "أعمدة جرش"
    assert object_path(document["photoUrl"]) != old_path
    assert bucket.get_blob(object_path(document["photoUrl"])) is not None
    assert bucket.get_blob(old_path) is None

    deleted = staff.post("/studio/projects/delete/jerash-colonnade", {})
    assert deleted.status_code == 303
    assert not documents.document("jerash-colonnade").get().exists
    assert bucket.get_blob(object_path(document["photoUrl"])) is None
    assert until(lambda: "Jerash Colonnade" not in httpx.get(firebase_site.url + "/projects").text)

    # Sign-out ends the session for good.
    assert staff.post("/studio/sign-out", {}).status_code == 303
    assert staff.client.get("/studio/projects").status_code == 401
    staff.client.close()


def test_without_a_session_or_token_nothing_reaches_firestore(
    firebase_site: LiveServer, auth_emulator: AuthEmulator, firestore_emulator: FirestoreEmulator
) -> None:
    auth_emulator.add_account("lina@example.com", PASSWORD, staff=True)
    staff = Staff(firebase_site, "lina@example.com")
    anonymous = httpx.post(
        firebase_site.url + "/studio/projects/new",
        data={"csrf": staff.token, "name": "X", "description": "X"},
        headers={"Origin": firebase_site.url},
    )
    assert anonymous.status_code == 401
    no_token = staff.client.post("/studio/projects/new", data={"name": "X", "description": "X"})
    assert no_token.status_code == 403
    assert list(firestore_emulator.client().collection("Projects").stream()) == []
    staff.client.close()


def test_the_enquiries_tab_reads_and_changes_firestores_enquiries(
    firebase_site: LiveServer, auth_emulator: AuthEmulator, firestore_emulator: FirestoreEmulator
) -> None:
    auth_emulator.add_account("samir@example.com", PASSWORD, staff=True)
    staff = Staff(firebase_site, "samir@example.com")
    enquiries = firestore_emulator.client().collection("Enquiries")
    fields = {"name": "Samir Khoury", "email": "samir@example.com", "phone": "", "country": "JO"}
    sent = Enquiry(
        id="from-the-form",
        created=time.time(),
        branch="JO",
        language="ar",
        page="/ar/stones/aqaba-red",
        topic="Aqaba Red",
        fields={"company": "", "stone": "aqaba-red", "quantity": "", "message": "Hi", **fields},
    )
    # As the form's store writes it.
    enquiries.document(sent.id).set(sent.record() | {"claimedUntil": 0})
    try:
        listing = staff.client.get("/studio/enquiries?branch=JO&state=new").text
        assert '<li id="item-from-the-form" class="enquiry unread">' in listing
        opened = staff.client.get("/studio/enquiries/from-the-form")
        assert opened.status_code == 200
        assert "Aqaba Red" in opened.text
        assert (enquiries.document(sent.id).get().to_dict() or {})["read"] is True
        assert staff.post("/studio/enquiries/from-the-form", {}).status_code == 303
        assert (enquiries.document(sent.id).get().to_dict() or {})["state"] == "handled"
        assert staff.post("/studio/enquiries/delete/from-the-form", {}).status_code == 303
        assert not enquiries.document(sent.id).get().exists
    finally:
        staff.client.close()


def test_the_sign_in_page_alone_allows_the_google_sign_in_script(
    firebase_site: LiveServer, auth_emulator: AuthEmulator
) -> None:
    page = httpx.get(firebase_site.url + "/studio")
    script = re.search(
        r'<script type="module" src="(/assets/studio-googleSignIn-\w+\.js)">', page.text
    )
    assert script is not None
    assert httpx.get(firebase_site.url + script.group(1)).status_code == 200
    # The SDK's needs on the emulator: its script and gapi, the emulator's API and helper iframe.
    emulator = f"http://{auth_emulator.host}"
    assert page.headers["content-security-policy"] == (
        "default-src 'none'; script-src 'self' https://apis.google.com; "
        f"connect-src {emulator}; frame-src {emulator}; style-src 'self'; "
        "img-src 'self' data: https://firebasestorage.googleapis.com"
        " https://storage.googleapis.com; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    )
    assert page.headers["cross-origin-opener-policy"] == "same-origin-allow-popups"

    # Every other studio page, and every public page, stays without it.
    auth_emulator.add_account("csp@example.com", PASSWORD, staff=True)
    staff = Staff(firebase_site, "csp@example.com")
    try:
        inside = staff.client.get("/studio/projects")
    finally:
        staff.client.close()
    assert "script-src" not in inside.headers["content-security-policy"]
    assert inside.headers["cross-origin-opener-policy"] == "same-origin"
    public = httpx.get(firebase_site.url + "/projects")
    assert "studio-googleSignIn" not in public.text
    assert "apis.google.com" not in public.headers["content-security-policy"]
    assert public.headers["cross-origin-opener-policy"] == "same-origin"


@pytest.mark.anyio
async def test_firestore_refuses_a_write_over_a_newer_one(
    firestore_emulator: FirestoreEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The handlers compare versions first; this is the write's own guard, for a save
    # that lands between that comparison and the write: Firestore's update-time precondition.
    monkeypatch.setenv("FIRESTORE_EMULATOR_HOST", firestore_emulator.host)
    content = FirestoreStudioContent(firestore_emulator.project)
    fields = {"name": "Umm Qais", "description": "Basalt.", "photoUrl": PHOTO}
    assert await content.create(Collection.PROJECTS, "umm-qais", fields)
    found = await content.document(Collection.PROJECTS, "umm-qais")
    assert found is not None
    opened = found[1]
    assert await content.update(Collection.PROJECTS, "umm-qais", {"name": "A"}, version=opened)
    with pytest.raises(Changed):
        await content.update(Collection.PROJECTS, "umm-qais", {"name": "B"}, version=opened)
    with pytest.raises(Changed):
        await content.delete(Collection.PROJECTS, "umm-qais", version=opened)
    found = await content.document(Collection.PROJECTS, "umm-qais")
    assert found is not None
    latest_fields, latest = found
    assert latest_fields == {**fields, "name": "A"}
    assert await content.delete(Collection.PROJECTS, "umm-qais", version=latest) is not None
    await content.close()


@pytest.mark.anyio
async def test_positions_are_written_to_firestore_in_one_batch(
    firestore_emulator: FirestoreEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FIRESTORE_EMULATOR_HOST", firestore_emulator.host)
    content = FirestoreStudioContent(firestore_emulator.project)
    for name in ("jerash", "petra"):
        fields = {"name": name.title(), "description": "Stone.", "photoUrl": PHOTO}
        assert await content.create(Collection.COLLABRATIONS, name, fields)
    await content.set_positions(Collection.COLLABRATIONS, {"petra": 10, "jerash": 20})
    stored = dict(await content.documents(Collection.COLLABRATIONS))
    assert (stored["petra"]["position"], stored["jerash"]["position"]) == (10, 20)
    for name in ("jerash", "petra"):
        found = await content.document(Collection.COLLABRATIONS, name)
        assert found is not None
        await content.delete(Collection.COLLABRATIONS, name, version=found[1])
    await content.close()


@pytest.mark.anyio
async def test_a_stones_typed_fields_and_finish_photos_round_trip_through_firestore(
    firestore_emulator: FirestoreEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FIRESTORE_EMULATOR_HOST", firestore_emulator.host)
    content = FirestoreStudioContent(firestore_emulator.project)
    hammered = PHOTO.replace("a.jpg", "hammered.jpg")
    fields = {
        "name": "Ma'an Beige",
        "description": "Limestone.",
        "photoUrl": PHOTO,
        "family": "limestone",
        "colour": "beige",
        "finishes": ["honed", "bush-hammered"],
        "finishPhotos": {"bush-hammered": hammered},
        "formats": ["Slabs, 2 cm"],
        "density": 2350,
        "absorption": 4.5,
    }
    assert await content.create(Collection.STONES, "maan-beige", fields)
    # A finish's photo is in use, found by one query (its field path quoted: bush-hammered).
    assert await content.photo_in_use(hammered)
    assert not await content.photo_in_use(PHOTO.replace("a.jpg", "other.jpg"))
    found = await content.document(Collection.STONES, "maan-beige")
    assert found is not None
    assert found[0] == fields
    # Emptied, a figure, a list and a map leave the document (never a 0 or an empty list).
    emptied: dict[str, Any] = {"absorption": None, "finishPhotos": {}, "formats": []}
    assert await content.update(Collection.STONES, "maan-beige", emptied, version=found[1])
    found = await content.document(Collection.STONES, "maan-beige")
    assert found is not None
    assert set(fields) - set(found[0]) == set(emptied)
    assert found[0]["density"] == 2350
    assert not await content.photo_in_use(hammered)
    assert await content.delete(Collection.STONES, "maan-beige", version=found[1]) is not None
    await content.close()
