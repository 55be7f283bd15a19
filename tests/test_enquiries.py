"""The enquiry form over HTTP, in process: the form, a sent enquiry stored and mailed to a real
SMTP server (aiosmtpd), problems, bots, line breaks, a store that fails, retention."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterator
from functools import partial
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import quote

import anyio
import pytest
from starlette.testclient import TestClient

from harness.mail_server import MailServer
from server.app import create_app
from server.enquiries.fields import Enquiry, State
from server.enquiries.guard import Guard
from server.enquiries.store import SqliteEnquiries
from server.settings import Settings

SECRET = "a secret for the tests"  # noqa: S105 - the tests' own
GUARD = Guard(SECRET.encode(), min_seconds=3)
FRENCH_BRANCH = "france@example.com"


def token(age: float = 10) -> str:
    """A form's token as the site makes it, `age` seconds ago."""
    return GUARD.token(time.time() - age)


def enquiry(**fields: str) -> dict[str, str]:
    """What a person posts from /fr/stones/aqaba-red, with `fields` changed."""
    return {
        "token": token(),
        "name": "Marie Dupont",
        "email": "marie@example.fr",
        "phone": "",
        "company": "Atelier Dupont",
        "country": "FR",
        "stone": "aqaba-red",
        "quantity": "120",
        "message": "Bonjour,\nnous cherchons 120 m² en finition flammée.",
        "about": "",
        "page": "/fr/stones/aqaba-red",
        "website": "",
        **fields,
    }


def kept(path: Path) -> list[Enquiry]:
    """What the store holds, read as the studio will."""
    store = SqliteEnquiries(path)
    try:
        return anyio.run(lambda: store.newest_first())
    finally:
        anyio.run(store.close)


def value_of(html: str, name: str) -> str:
    """What an input or textarea of the form holds."""
    found = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', html) or re.search(
        rf'<textarea[^>]*name="{name}"[^>]*>([^<]*)</textarea>', html
    )
    assert found is not None, name
    return unescape(found.group(1))


def selected(html: str, name: str) -> str:
    select = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', html, re.DOTALL)
    assert select is not None
    chosen = re.search(r'<option value="([^"]*)" selected="">', select.group(1))
    return chosen.group(1) if chosen else ""


@pytest.fixture
def mail() -> Iterator[MailServer]:
    with MailServer() as server:
        yield server


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "enquiries.sqlite3"


def site_settings(database: Path, **settings: Any) -> Settings:  # noqa: ANN401 - Settings' own
    return Settings(
        render_pool_size=1, enquiry_database=database, enquiry_secret=SECRET, **settings
    )


@pytest.fixture
def site(database: Path, mail: MailServer) -> Iterator[TestClient]:
    with TestClient(create_app(site_settings(database, smtp_url=mail.url))) as client:
        yield client


def test_from_a_french_stone_page_the_form_is_french_names_the_stone_and_guesses_france(
    site: TestClient,
) -> None:
    stone_page = site.get("/fr/stones/aqaba-red").text
    assert 'href="/fr/enquiry?stone=aqaba-red"' in stone_page
    referer = {"referer": "http://testserver/fr/stones/aqaba-red"}
    response = site.get("/fr/enquiry?stone=aqaba-red", headers=referer)
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    html = response.text
    assert '<html lang="fr" dir="ltr"' in html
    assert selected(html, "stone") == "aqaba-red"
    assert selected(html, "country") == "FR"
    assert value_of(html, "page") == "/fr/stones/aqaba-red"
    # A select of countries by name, in French: every country, not a hand list.
    countries = re.findall(r'<option value="[A-Z]{2}"[^>]*>([^<]+)</option>', html)
    assert len(countries) > 240
    assert {"Jordanie", "Belgique", "Japon", "Égypte"} <= set(countries)
    # Labels, the required mark, limits stated, and what is kept for how long.
    for text in ("Votre nom *", "Votre message *", "caractères et 3 liens au plus."):
        assert text in unescape(html)
    assert re.search(r"2\s000 caractères", unescape(html))
    assert "Nous conservons votre demande 365 jours" in unescape(html)
    # Indexed once, as /enquiry: the stone's form is that page.
    assert '<meta name="robots" content="noindex">' in html
    assert '<link rel="canonical" href="http://127.0.0.1:8000/fr/enquiry">' in html


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/enquiry", "Your name *"),
        ("/ar/enquiry", "الاسم *"),
        ("/it/enquiry", "Nome e cognome *"),
    ],
)
def test_the_form_is_in_each_language(site: TestClient, path: str, words: str) -> None:
    html = unescape(site.get(path, headers={"accept-language": "en-US,en;q=0.9"}).text)
    assert words in html
    # The browser's region counts for its language only; else the language's country.
    assert selected(html, "country") == {"/enquiry": "US", "/ar/enquiry": "JO"}.get(path, "IT")


def test_the_country_is_the_browsers_region_for_the_pages_language(site: TestClient) -> None:
    html = site.get("/fr/enquiry", headers={"accept-language": "fr-BE,fr;q=0.9,en;q=0.5"}).text
    assert selected(html, "country") == "BE"


def test_from_a_projects_page_the_form_names_the_project(site: TestClient) -> None:
    project = site.get("/projects/dead-sea-resort-lobby").text
    assert 'href="/enquiry?project=dead-sea-resort-lobby"' in project
    html = unescape(site.get("/enquiry?project=dead-sea-resort-lobby").text)
    assert "About the project: Dead Sea Resort Lobby" in html
    assert value_of(html, "about") == "projects/dead-sea-resort-lobby"
    # An id the content lacks is dropped, never shown.
    assert "About the" not in unescape(site.get("/enquiry?project=nothing-here").text)


def test_an_enquiry_is_stored_then_mailed_to_the_branch_that_serves_its_country(
    site: TestClient, mail: MailServer, database: Path
) -> None:
    posted = enquiry()
    sent = site.post("/fr/enquiry", data=posted, follow_redirects=False)
    assert sent.status_code == 303
    assert sent.headers["cache-control"] == "no-store"
    enquiry_id = posted["token"].split(".")[1]
    assert sent.headers["location"] == f"/fr/enquiry?sent={enquiry_id}"
    # The thank-you page: what was sent, to which branch, when to expect an answer.
    thanks = unescape(site.get(sent.headers["location"]).text)
    assert "Merci, votre demande est envoyée" in thanks
    assert "notre agence en France, qui vous répondra sous deux jours ouvrés" in thanks
    assert "nous cherchons 120 m² en finition flammée" in thanks
    assert "Rouge d\N{RIGHT SINGLE QUOTATION MARK}Aqaba" in thanks  # its French name
    assert FRENCH_BRANCH in thanks
    (received,) = mail.wait_for(1, timeout=10)
    message = received.message
    assert received.recipients == [FRENCH_BRANCH]
    assert message["To"] == FRENCH_BRANCH
    assert message["From"] == "info@example.com"  # ENQUIRY_FROM's default: the first branch's
    assert message["Subject"] == "Enquiry about Aqaba Red from Marie Dupont"
    assert message["Reply-To"] == "Marie Dupont <marie@example.fr>"
    body = message.get_content()
    for line in (
        "Name: Marie Dupont",
        "E-mail: marie@example.fr",
        "Company: Atelier Dupont",
        "Country: France (FR)",
        "Quantity: 120 m²",
        "Language: fr",
        "Sent from: http://127.0.0.1:8000/fr/stones/aqaba-red",
        "nous cherchons 120 m² en finition flammée.",
        f"In the studio: http://127.0.0.1:8000/studio/enquiries/{enquiry_id}",
    ):
        assert line in body
    # The server marks it e-mailed once the mail server has answered: soon after.
    deadline = time.monotonic() + 10
    while kept(database)[0].state is not State.EMAILED and time.monotonic() < deadline:
        time.sleep(0.05)
    (stored,) = kept(database)
    assert (stored.id, stored.branch, stored.language) == (enquiry_id, "FR", "fr")
    assert stored.fields["message"] == posted["message"]
    assert stored.state is State.EMAILED


def test_reloading_the_thank_you_page_or_sending_the_form_again_sends_nothing_twice(
    site: TestClient, mail: MailServer, database: Path
) -> None:
    posted = enquiry()
    first = site.post("/fr/enquiry", data=posted, follow_redirects=False)
    site.get(first.headers["location"])
    again = site.post("/fr/enquiry", data=posted, follow_redirects=False)  # Back, then Send
    assert again.status_code == 303
    assert again.headers["location"] == first.headers["location"]
    assert site.get(first.headers["location"]).status_code == 200
    assert len(kept(database)) == 1
    # The test client runs a response's background task (the mail) before it returns.
    assert len(mail.received) == 1


def test_each_problem_is_beside_its_field_and_listed_at_the_top_with_nothing_typed_lost(
    site: TestClient, mail: MailServer, database: Path
) -> None:
    posted = enquiry(
        name="",
        email="marie at example",
        quantity="beaucoup",
        message="Voir http://a.example http://b.example http://c.example www.d.example",
    )
    response = site.post("/fr/enquiry", data=posted)
    assert response.status_code == 422
    html = unescape(response.text)
    problems = {
        "name": "Obligatoire.",
        "email": "Saisissez une adresse e-mail comme nom@exemple.fr.",
        "quantity": "Saisissez un nombre de mètres carrés, comme 120.",
        "message": "3 liens au plus, s\N{RIGHT SINGLE QUOTATION MARK}il vous plaît.",
    }
    for name, words in problems.items():
        assert f'<p class="enquiry-field__error" id="enquiry-{name}-error">{words}</p>' in html
        assert re.search(rf'id="enquiry-{name}"[^>]*aria-invalid="true"', html), name
        assert f'<a href="#enquiry-{name}">' in html
    assert "Votre demande n\N{RIGHT SINGLE QUOTATION MARK}est pas encore envoyée." in html
    for name in ("email", "quantity", "message", "company", "token"):
        assert value_of(html, name) == posted[name]
    assert selected(html, "stone") == "aqaba-red"
    # Neither e-mail nor phone.
    neither = unescape(site.post("/fr/enquiry", data=enquiry(email="", phone="")).text)
    assert "Indiquez une adresse e-mail ou un numéro de téléphone." in neither
    assert kept(database) == []
    assert mail.received == []


@pytest.mark.parametrize(
    ("change", "logged"),
    [
        ({"website": "https://spam.example"}, "the hidden field was filled in"),
        ({"token": 0.5}, "sent less than 3 s after the form was made"),
        ({"token": "1700000000.made-up.signature"}, "no valid token"),
        ({"token": 2.0 * 86_400}, "the form is more than a day old"),
    ],
    ids=["hidden field filled", "within a second", "forged token", "a day old"],
)
def test_what_a_bot_sends_is_neither_stored_nor_mailed(
    site: TestClient,
    mail: MailServer,
    database: Path,
    caplog: pytest.LogCaptureFixture,
    change: dict[str, str | float],
    logged: str,
) -> None:
    # A number is a token made that many seconds before the post.
    posted = enquiry(**{k: token(v) if isinstance(v, float) else v for k, v in change.items()})
    with caplog.at_level(logging.WARNING, logger="server.enquiries"):
        response = site.post("/fr/enquiry", data=posted)
    assert response.status_code == 400
    # A person who was that quick gets the form back, typed text kept, with a new token.
    html = unescape(response.text)
    assert "Vérifiez le formulaire, puis appuyez à nouveau sur Envoyer." in html
    assert value_of(html, "message") == enquiry()["message"]
    assert value_of(html, "token") != posted["token"]
    assert value_of(html, "website") == ""
    assert [r.getMessage() for r in caplog.records if r.name == "server.enquiries"] == [
        f"Enquiry refused from testclient: {logged}"
    ]
    assert kept(database) == []
    assert mail.received == []  # the mail would have been sent before the answer came back


def test_a_line_break_in_a_field_adds_no_header_and_no_recipient(
    site: TestClient, mail: MailServer
) -> None:
    posted = enquiry(
        name="Eve\r\nBcc: victim@example.com\r\nX-Injected: yes",
        company="Acme\nCc: other@example.com",
    )
    assert site.post("/fr/enquiry", data=posted, follow_redirects=False).status_code == 303
    (received,) = mail.wait_for(1, timeout=10)
    assert received.recipients == [FRENCH_BRANCH]
    message = received.message
    assert sorted(message.keys()) == sorted(
        [
            "Subject",
            "From",
            "To",
            "Reply-To",
            "Date",
            "Message-ID",
            "Content-Type",
            "Content-Transfer-Encoding",
            "MIME-Version",
        ]
    )
    assert [a.addr_spec for a in message["Reply-To"].addresses] == ["marie@example.fr"]
    assert message["To"] == FRENCH_BRANCH
    # One header, folded where it is long (the folding's white space is no part of it).
    assert " ".join(message["Subject"].split()) == (
        "Enquiry about Aqaba Red from Eve Bcc: victim@example.com X-Injected: yes"
    )
    assert "Company: Acme Cc: other@example.com" in message.get_content()


def test_a_body_over_64_kb_is_refused(site: TestClient, database: Path) -> None:
    response = site.post("/fr/enquiry", data=enquiry(message="x" * 70_000))
    assert response.status_code == 413
    assert site.post("/fr/enquiry", json=enquiry()).status_code == 415
    assert kept(database) == []


def test_when_the_store_cannot_be_written_the_form_comes_back_with_everything_typed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    unwritable = tmp_path / "a folder, not a database"
    unwritable.mkdir()
    posted = enquiry()
    with TestClient(create_app(site_settings(unwritable))) as client:
        response = client.post("/fr/enquiry", data=posted)
    assert response.status_code == 503
    html = unescape(response.text)
    assert "pas pu enregistrer votre demande pour le moment. Rien n" in html
    # The branch that serves France, to call or write to instead.
    assert 'href="tel:+33155550100"' in html
    assert f'href="mailto:{FRENCH_BRANCH}"' in html
    for name in ("name", "email", "company", "quantity", "message", "token", "page"):
        assert value_of(html, name) == posted[name]
    assert "Enquiry not stored" in caplog.text


def test_without_smtp_url_nothing_is_sent_and_the_start_up_log_says_so(
    database: Path, mail: MailServer, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO), TestClient(create_app(site_settings(database))) as client:
        assert client.post("/fr/enquiry", data=enquiry(), follow_redirects=False).status_code == 303
    said = [r for r in caplog.records if "SMTP_URL is not set" in r.getMessage()]
    assert len(said) == 1
    (stored,) = kept(database)
    assert stored.state is State.NEW
    assert mail.received == []


def test_enquiries_older_than_enquiry_keep_days_are_deleted(database: Path) -> None:
    store = SqliteEnquiries(database)
    now = time.time()
    for days, name in ((40, "old"), (20, "recent")):
        record = Enquiry(
            id=name,
            created=now - days * 86_400,
            branch="JO",
            language="en",
            page="",
            topic="",
            fields={"name": name},
        )
        anyio.run(partial(store.add, record, address_key=name, limit=5, window_seconds=600))
    anyio.run(store.close)
    settings = site_settings(database, enquiry_keep_days=30, enquiry_mail_retry_seconds=0.1)
    with TestClient(create_app(settings)):
        # The sweep runs a retry period after start-up, then once a day.
        deadline = time.monotonic() + 10
        while len(kept(database)) > 1 and time.monotonic() < deadline:
            time.sleep(0.05)
    assert [e.id for e in kept(database)] == ["recent"]


def uri_component(text: str) -> str:
    """As the browser's encodeURIComponent escapes it."""
    return quote(text, safe="!*'()")


def test_every_page_leads_to_the_form_and_whatsapp_names_the_page(site: TestClient) -> None:
    landing = unescape(site.get("/fr").text)
    # The footer and the booking section link the form in the page's language.
    assert landing.count('href="/fr/enquiry"') == 2
    # A branch with a WhatsApp number: a chat whose first message names the page.
    hello = "Bonjour, je vous écris depuis votre site\N{NO-BREAK SPACE}: http://127.0.0.1:8000/fr"
    assert f'href="https://wa.me/962795550100?text={uri_component(hello)}"' in landing
    stone = unescape(site.get("/stones/aqaba-red").text)
    ask = "Hello, I would like to ask about Aqaba Red: http://127.0.0.1:8000/stones/aqaba-red"
    assert f'href="https://wa.me/962795550100?text={uri_component(ask)}"' in stone
    assert "Ask on WhatsApp (Jordan)" in stone
