"""Enquiries on the Procfile's server with two workers sharing one SQLite file: the rate limit
holds across them, and a mail server that was down gets each enquiry once when it is back."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import anyio
import httpx2 as httpx
import pytest

from harness.live_server import LiveServer, free_port
from harness.mail_server import MailServer
from server.enquiries.fields import Enquiry, State
from server.enquiries.guard import Guard
from server.enquiries.store import SqliteEnquiries

SECRET = "a secret for the tests"  # noqa: S105 - the tests' own
GUARD = Guard(SECRET.encode(), min_seconds=3)
# The sweep's period here: short, so the test waits seconds, not minutes.
RETRY_SECONDS = 1


def post(site: LiveServer, path: str, address: str, **fields: str) -> httpx.Response:
    """An enquiry from `address` (the proxy's X-Forwarded-For, which uvicorn trusts from the
    loopback), on a connection of its own: either worker may take it."""
    form = {
        "token": GUARD.token(time.time() - 10),
        "name": "Rania Haddad",
        "phone": "+962 79 123 4567",
        "country": "JO",
        "message": "مرحبًا، نحتاج 300 م² من الحجر المقدسي الذهبي.",
        **fields,
    }
    headers = {"x-forwarded-for": address}
    return httpx.post(
        site.url + path, data=form, headers=headers, follow_redirects=False, timeout=30
    )


def logged(site: LiveServer, logger: str, words: str, *, at_least: int) -> list[str]:
    """The messages of `logger` holding `words`, once there are `at_least` (10 s at most). With
    workers, uvicorn's supervisor writes plain lines too: only the JSON ones are the site's."""
    deadline = time.monotonic() + 10
    while True:
        lines = [json.loads(line) for line in site.log().splitlines() if line.startswith("{")]
        found = [
            line["message"]
            for line in lines
            if line["logger"] == logger and words in line["message"]
        ]
        if len(found) >= at_least or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def kept(database: Path) -> list[Enquiry]:
    store = SqliteEnquiries(database)
    try:
        return anyio.run(lambda: store.newest_first())
    finally:
        anyio.run(store.close)


@pytest.fixture(scope="module")
def mail_port() -> int:
    return free_port()


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("enquiries") / "enquiries.sqlite3"


@pytest.fixture(scope="module")
def site(
    tmp_path_factory: pytest.TempPathFactory, database: Path, mail_port: int
) -> Iterator[LiveServer]:
    env = {
        "ENQUIRY_DATABASE": str(database),
        "ENQUIRY_SECRET": SECRET,
        # Nothing listens there until a test starts the mail server.
        "SMTP_URL": f"smtp://127.0.0.1:{mail_port}",
        "ENQUIRY_MAIL_RETRY_SECONDS": str(RETRY_SECONDS),
        "LOG_FORMAT": "json",
    }
    log = tmp_path_factory.mktemp("site") / "uvicorn.log"
    with LiveServer(env=env, log_path=log, workers=2) as server:
        yield server


def test_the_sixth_enquiry_in_ten_minutes_from_one_address_gets_a_429_with_two_workers(
    site: LiveServer,
) -> None:
    # Eight at once, each on its own connection: both workers take some, at the same time.
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: post(site, "/ar/enquiry", "203.0.113.7"), range(8)))
    assert sorted(answer.status_code for answer in answers) == [303] * 5 + [429] * 3
    sixth = post(site, "/ar/enquiry", "203.0.113.7")
    assert sixth.status_code == 429
    assert sixth.headers["retry-after"] == "600"
    # In the visitor's language, with the branch's phone, and nothing typed lost.
    assert '<html lang="ar" dir="rtl"' in sixth.text
    assert "أرسلت عدة استفسارات في الدقائق الأخيرة" in sixth.text
    assert 'href="tel:+96255550100"' in sixth.text
    assert "نحتاج 300 م² من الحجر المقدسي الذهبي" in sixth.text
    # Another address is not held back.
    assert post(site, "/ar/enquiry", "198.51.100.4").status_code == 303
    refused = logged(site, "server.enquiries", "203.0.113.7: its 5 in 10 minutes", at_least=4)
    assert len(refused) == 4


def test_with_the_mail_server_down_an_enquiry_is_kept_and_mailed_once_when_it_is_back(
    site: LiveServer, database: Path, mail_port: int
) -> None:
    answer = post(site, "/fr/enquiry", "192.0.2.55", name="Luc Bernard", country="FR")
    assert answer.status_code == 303
    enquiry_id = answer.headers["location"].rpartition("=")[2]
    # Tried, refused (nothing listens), and kept as not yet e-mailed: the studio shows it so.
    assert logged(site, "server.enquiries.mail", f"{enquiry_id} not mailed yet", at_least=1)
    waiting = {e.id: e.state for e in kept(database)}
    assert waiting[enquiry_id] is State.NEW
    with MailServer(port=mail_port) as mail:
        came_back = time.monotonic()
        mail.wait_for(len(waiting), timeout=120)
        arrived = time.monotonic() - came_back
        # Then a few more sweeps of both workers: nothing is sent again.
        deadline = time.monotonic() + 30
        while any(e.state is State.NEW for e in kept(database)) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(3 * RETRY_SECONDS)  # three sweeps more, each of which would send a duplicate
        received = list(mail.received)
    assert arrived < 120
    assert {e.state for e in kept(database)} == {State.EMAILED}
    sent = Counter(str(message.message["Message-ID"]) for message in received)
    assert len(sent) == len(waiting)
    assert set(sent.values()) == {1}
    (luc,) = [r for r in received if "Luc Bernard" in str(r.message["Subject"])]
    assert luc.recipients == ["france@example.com"]
    assert f"<enquiry-{enquiry_id}@" in str(luc.message["Message-ID"])
