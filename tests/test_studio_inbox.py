"""The studio's Enquiries tab over HTTP against a real uvicorn (the local studio): the inbox newest
first with the unread marked, by branch and status; an enquiry opened (read), answered by links,
marked handled, deleted after asking; refused without a session, a form token or the same origin.
The enquiries are put in the store the site reads (SQLite), as the form would."""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator
from functools import partial
from html import unescape
from pathlib import Path
from urllib.parse import quote

import anyio
import httpx2 as httpx
import pytest
from starlette.testclient import TestClient

from harness.live_server import LiveServer
from server.app import create_app
from server.enquiries.fields import Enquiry, State
from server.enquiries.store import SqliteEnquiries
from server.settings import REPO_ROOT, Settings
from server.studio.inbox import international

HOUR = 3600.0


def enquiry(
    enquiry_id: str,
    hours_ago: float,
    *,
    branch: str = "FR",
    language: str = "fr",
    topic: str = "Aqaba Red",
    **fields: str,
) -> Enquiry:
    """What the form stores for a visitor from France asking about Aqaba Red, `fields` changed."""
    return Enquiry(
        id=enquiry_id,
        created=time.time() - hours_ago * HOUR,
        branch=branch,
        language=language,
        page="/fr/stones/aqaba-red",
        topic=topic,
        fields={
            "name": "Marie Dupont",
            "email": "marie@example.fr",
            "phone": "06 12 34 56 78",
            "company": "Atelier Dupont",
            "country": "FR",
            "stone": "aqaba-red",
            "quantity": "120",
            "message": "Bonjour,\nnous cherchons 120 m² en finition flammée.",
            "about": "",
            **fields,
        },
    )


class Inbox:
    """The store the site reads, as this test process sees it."""

    def __init__(self, path: Path) -> None:
        self.store = SqliteEnquiries(path)

    def add(self, *enquiries: Enquiry) -> None:
        for each in enquiries:
            anyio.run(
                partial(self.store.add, each, address_key=each.id, limit=5, window_seconds=600)
            )

    def status(self, enquiry_id: str) -> tuple[State, bool] | None:
        """The enquiry's status and whether it was read; None when it is gone."""
        found = anyio.run(self.store.get, enquiry_id)
        return None if found is None else (found.state, found.read)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("studio-inbox")
    shutil.copytree(REPO_ROOT / "content", folder / "content")
    return folder


@pytest.fixture(scope="module")
def inbox(folder: Path) -> Iterator[Inbox]:
    inbox = Inbox(folder / "enquiries.sqlite3")
    inbox.add(
        enquiry(
            "jordan-old",
            50,
            name="رانيا حداد",
            branch="JO",
            language="ar",
            topic="",
            email="",
            phone="079 123 4567",
            country="JO",
        ),
        enquiry("france-new", 2),
        enquiry(
            "italy-newest",
            1,
            name="Giulia Bianchi",
            branch="IT",
            language="it",
            topic="Jerusalem Gold",
            phone="",
            country="IT",
        ),
    )
    anyio.run(lambda: inbox.store.update("italy-newest", state=State.HANDLED))
    yield inbox
    anyio.run(inbox.store.close)


@pytest.fixture(scope="module")
def site(folder: Path, inbox: Inbox) -> Iterator[LiveServer]:
    env = {
        "DEV_MODE": "on",
        "CONTENT_DIR": str(folder / "content"),
        "IMAGE_CACHE_DIR": str(folder / "image-cache"),
        "ENQUIRY_DATABASE": str(folder / "enquiries.sqlite3"),
        "LOG_FORMAT": "json",
    }
    with LiveServer(env=env, log_path=folder / "uvicorn.log") as server:
        yield server


@pytest.fixture(scope="module")
def staff(site: LiveServer) -> Iterator[httpx.Client]:
    client = httpx.Client(base_url=site.url, headers={"Origin": site.url})
    assert client.post("/studio/sign-in").status_code == 303
    yield client
    client.close()


def names(page: str) -> list[str]:
    return [unescape(name) for name in re.findall(r'class="item-name"[^>]*>([^<]*)<', page)]


def unread(page: str) -> list[str]:
    rows = re.findall(r'<li id="item-([^"]+)" class="enquiry unread">', page)
    return rows


def token(client: httpx.Client) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', client.get("/studio/enquiries").text)
    assert found is not None
    return found.group(1)


def test_the_inbox_lists_the_newest_first_with_the_unread_marked(staff: httpx.Client) -> None:
    page = staff.get("/studio/enquiries")
    assert page.status_code == 200
    assert page.headers["cache-control"] == "no-store"
    assert names(page.text) == ["Giulia Bianchi", "Marie Dupont", "رانيا حداد"]
    assert unread(page.text) == ["italy-newest", "france-new", "jordan-old"]
    assert page.text.count('<span class="badge">Unread</span>') == 3
    assert '<a href="/studio/enquiries" aria-current="page">Enquiries</a>' in page.text
    # What each is about, where it went, its status and when, in the staff member's language.
    assert re.search(
        r"Aqaba Red · France · Not emailed yet · \w{3} \d+, \d{4} \d\d:\d\d UTC", page.text
    )
    assert "Jordan · Not emailed yet" in page.text
    assert "Italy · Handled" in page.text
    staff.get("/studio/language/fr")
    try:
        french = staff.get("/studio/enquiries").text
        assert "Aqaba Red · France · Pas encore envoyée par e-mail" in unescape(french)
        assert "Jordanie" in french
    finally:
        staff.get("/studio/language/en")


def test_the_inbox_is_filtered_by_branch_and_status(staff: httpx.Client) -> None:
    france = staff.get("/studio/enquiries?branch=FR").text
    assert names(france) == ["Marie Dupont"]
    assert '<option value="FR" selected>France</option>' in france
    handled = staff.get("/studio/enquiries?state=handled").text
    assert names(handled) == ["Giulia Bianchi"]
    assert '<option value="handled" selected>Handled</option>' in handled
    assert names(staff.get("/studio/enquiries?branch=JO&state=new").text) == ["رانيا حداد"]
    assert names(staff.get("/studio/enquiries?branch=IT&state=new").text) == []
    # An unknown status is no filter.
    assert len(names(staff.get("/studio/enquiries?state=lost").text)) == 3


def test_an_enquiry_opened_is_read_and_answered_by_email_phone_or_whatsapp(
    staff: httpx.Client, inbox: Inbox
) -> None:
    # The address each enquiry's mail links to.
    page = staff.get("/studio/enquiries/france-new")
    assert page.status_code == 200
    text = unescape(page.text)
    assert "<h1>Enquiry from Marie Dupont</h1>" in text
    for shown in ("marie@example.fr", "06 12 34 56 78", "/fr/stones/aqaba-red"):
        assert f'<bdi dir="ltr">{shown}</bdi>' in text  # in Arabic too
    for shown in ("Atelier Dupont", "Français", "Aqaba Red"):
        assert f'<bdi dir="auto">{shown}</bdi>' in text
    assert "Bonjour,\nnous cherchons 120 m² en finition flammée." in text
    # The reply's subject is in the visitor's language and names the stone; the number is
    # read as French, for the phone and for WhatsApp.
    subject = quote("Votre demande concernant Aqaba Red")
    assert f'href="mailto:marie@example.fr?subject={subject}">Reply by email<' in page.text
    assert 'href="tel:+33612345678">Call<' in page.text
    assert 'href="https://wa.me/33612345678">WhatsApp<' in page.text
    assert inbox.status("france-new") == (State.NEW, True)
    assert "france-new" not in unread(staff.get("/studio/enquiries").text)

    # Without an e-mail address, no mail link; a Jordanian number in its national form.
    jordan = staff.get("/studio/enquiries/jordan-old").text
    assert "mailto:" not in jordan
    assert 'href="https://wa.me/962791234567"' in jordan
    # Without a phone number, mail only, the subject in Italian.
    italy = staff.get("/studio/enquiries/italy-newest").text
    assert f"subject={quote('La vostra richiesta su Jerusalem Gold')}" in italy
    assert "tel:" not in italy
    assert "wa.me" not in italy
    # Handled already: nothing to mark.
    assert "Mark as handled" not in italy
    assert staff.get("/studio/enquiries/no-such-enquiry").status_code == 404


def test_marking_handled_changes_its_status_and_is_audited(
    staff: httpx.Client, inbox: Inbox, site: LiveServer
) -> None:
    inbox.add(enquiry("to-handle", 3))
    assert "Mark as handled" in staff.get("/studio/enquiries/to-handle").text
    response = staff.post("/studio/enquiries/to-handle", data={"csrf": token(staff)})
    assert response.status_code == 303
    assert response.headers["location"] == "/studio/enquiries?handled=to-handle"
    assert inbox.status("to-handle") == (State.HANDLED, True)
    assert "Marked as handled." in staff.get(response.headers["location"]).text
    audit = site.log_lines(logger="server.studio.audit", document="to-handle")
    assert [(line["who"], line["studio_action"], line["collection"]) for line in audit] == [
        ("local staff", "handled", "Enquiries")
    ]


def test_delete_asks_first_then_deletes(staff: httpx.Client, inbox: Inbox) -> None:
    inbox.add(enquiry("to-delete", 4, name="Jean Martin"))
    question = staff.get("/studio/enquiries/delete/to-delete")
    assert question.status_code == 200
    assert "Delete the enquiry from “Jean Martin”? This cannot be undone." in question.text
    assert 'action="/studio/enquiries/delete/to-delete"' in question.text
    assert '<a class="button" href="/studio/enquiries">Cancel</a>' in question.text
    assert inbox.status("to-delete") is not None
    response = staff.post("/studio/enquiries/delete/to-delete", data={"csrf": token(staff)})
    assert response.status_code == 303
    assert response.headers["location"] == "/studio/enquiries?deleted=to-delete"
    assert inbox.status("to-delete") is None
    listing = staff.get(response.headers["location"]).text
    assert "Enquiry deleted." in listing
    assert "Jean Martin" not in listing
    assert staff.get("/studio/enquiries/to-delete").status_code == 404


def test_an_enquiry_opened_from_a_filtered_list_goes_back_to_that_list(
    staff: httpx.Client, inbox: Inbox
) -> None:
    inbox.add(enquiry("filtered-1", 5, name="Luc Moreau"))
    inbox.add(enquiry("filtered-2", 6, name="Anne Roux"))
    kept = "branch=FR&state=new"
    listing = staff.get(f"/studio/enquiries?{kept}").text
    assert 'href="/studio/enquiries/filtered-1?branch=FR&amp;state=new"' in listing
    page = staff.get(f"/studio/enquiries/filtered-1?{kept}").text
    assert 'href="/studio/enquiries?branch=FR&amp;state=new">Back to the enquiries</a>' in page
    assert 'action="/studio/enquiries/filtered-1?branch=FR&amp;state=new"' in page
    handled = staff.post(f"/studio/enquiries/filtered-1?{kept}", data={"csrf": token(staff)})
    assert handled.headers["location"] == f"/studio/enquiries?{kept}&handled=filtered-1"
    listing = staff.get(handled.headers["location"]).text
    assert "Marked as handled." in listing
    assert "Anne Roux" in listing
    assert "Luc Moreau" not in listing  # handled now: not in a list of new ones
    page = staff.get(f"/studio/enquiries/filtered-2?{kept}").text
    assert 'href="/studio/enquiries/delete/filtered-2?branch=FR&amp;state=new"' in page
    question = staff.get(f"/studio/enquiries/delete/filtered-2?{kept}").text
    assert 'action="/studio/enquiries/delete/filtered-2?branch=FR&amp;state=new"' in question
    assert 'href="/studio/enquiries?branch=FR&amp;state=new">Cancel</a>' in question
    deleted = staff.post(f"/studio/enquiries/delete/filtered-2?{kept}", data={"csrf": token(staff)})
    assert deleted.headers["location"] == f"/studio/enquiries?{kept}&deleted=filtered-2"


def test_signed_out_everything_is_refused_and_signing_in_comes_back_to_the_enquiry(
    site: LiveServer, staff: httpx.Client, inbox: Inbox
) -> None:
    inbox.add(enquiry("kept", 5))
    with httpx.Client(base_url=site.url, headers={"Origin": site.url}) as anonymous:
        for path in (
            "/studio/enquiries",
            "/studio/enquiries/kept",
            "/studio/enquiries/delete/kept",
        ):
            assert anonymous.get(path).status_code == 401, path
        for path in ("/studio/enquiries/kept", "/studio/enquiries/delete/kept"):
            response = anonymous.post(path, data={"csrf": token(staff)})
            assert response.status_code == 401, path
        # The page an enquiry's mail links to leads to the sign-in, and back to it.
        refused = anonymous.get("/studio/enquiries/kept").text
        assert 'href="/studio?next=/studio/enquiries/kept"' in refused
        sign_in = anonymous.get("/studio?next=/studio/enquiries/kept").text
        assert 'action="/studio/sign-in?next=/studio/enquiries/kept"' in sign_in
        signed_in = anonymous.post("/studio/sign-in?next=/studio/enquiries/kept")
        assert signed_in.headers["location"] == "/studio/enquiries/kept"
        # Never to another site.
        elsewhere = anonymous.post("/studio/sign-in?next=//elsewhere.example/studio")
        assert elsewhere.headers["location"] == "/studio/projects"
    assert inbox.status("kept") == (State.NEW, False)


def test_without_the_form_token_or_from_another_site_nothing_changes(
    staff: httpx.Client, inbox: Inbox
) -> None:
    inbox.add(enquiry("guarded", 6))
    for path in ("/studio/enquiries/guarded", "/studio/enquiries/delete/guarded"):
        assert staff.post(path, data={}).status_code == 403
        assert staff.post(path, data={"csrf": "x" * 43}).status_code == 403
        cross_site = staff.post(
            path, data={"csrf": token(staff)}, headers={"Origin": "https://elsewhere.example"}
        )
        assert cross_site.status_code == 403
    assert inbox.status("guarded") == (State.NEW, False)


def test_a_store_that_cannot_be_read_gets_a_page_saying_so(tmp_path: Path) -> None:
    # A folder where the SQLite file should be: no database opens there.
    settings = Settings(dev_mode=True, render_pool_size=1, enquiry_database=tmp_path)
    local = TestClient(create_app(settings), "http://127.0.0.1", client=("127.0.0.1", 50000))
    with local as client:
        client.post("/studio/sign-in", headers={"Origin": "http://127.0.0.1"})
        page = client.get("/studio/enquiries")
    assert page.status_code == 503
    assert "The enquiries cannot be read right now. Try again in a minute." in page.text
    assert '<header class="bar">' in page.text  # the studio's own page


def test_a_number_is_read_in_the_visitors_country_unless_it_says_its_own() -> None:
    assert international("06 12 34 56 78", "FR") == "+33612345678"
    assert international("02 1234 5678", "IT") == "+390212345678"  # Italy keeps its 0
    assert international("+962 79 123 4567", "FR") == "+962791234567"
    assert international("0039 02 1234 5678", "FR") == "+390212345678"
    assert international("12", "FR") is None
    assert international("06 12 34 56 78", "") is None  # no country, no + : not a number
