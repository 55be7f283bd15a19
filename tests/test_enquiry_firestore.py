"""Enquiries on Firestore content: kept in Firestore's Enquiries (the real client on Google's
emulator), closed to every client by firestore.rules, and with Firestore stopped, the
visitor's text comes back with a message and nothing is half-written."""

from __future__ import annotations

import time

import httpx2 as httpx
import pytest
from starlette.testclient import TestClient

from harness.firestore_emulator import FirestoreEmulator
from harness.tcp_proxy import TcpProxy
from server.app import create_app
from server.enquiries.guard import Guard
from server.settings import ContentSource, Settings

pytestmark = pytest.mark.emulator

SECRET = "a secret for the tests"  # noqa: S105 - the tests' own
GUARD = Guard(SECRET.encode(), min_seconds=3)


def enquiry(name: str) -> dict[str, str]:
    return {
        "token": GUARD.token(time.time() - 10),
        "name": name,
        "email": "marie@example.fr",
        "country": "FR",
        "message": "Bonjour, 120 m² de pierre de Jérusalem, s'il vous plaît.",
    }


def test_with_firestore_stopped_the_text_comes_back_and_nothing_is_half_written(
    firestore: FirestoreEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings(
        content_source=ContentSource.FIRESTORE,
        google_cloud_project=firestore.project,
        content_live=False,
        firestore_timeout_seconds=1,
        render_pool_size=1,
        enquiry_secret=SECRET,
    )
    # Firestore as the site sees it: through a proxy that can stop.
    with TcpProxy(firestore.host) as proxy:
        monkeypatch.setenv("FIRESTORE_EMULATOR_HOST", proxy.host)
        with TestClient(create_app(settings)) as client:
            kept = enquiry("Marie Dupont")
            assert client.post("/fr/enquiry", data=kept, follow_redirects=False).status_code == 303
            proxy.stop()
            lost = enquiry("Jean Martin")
            started = time.monotonic()
            response = client.post("/fr/enquiry", data=lost)
            waited = time.monotonic() - started
    assert response.status_code == 503
    assert waited < 6  # the store's deadline, twice FIRESTORE_TIMEOUT_SECONDS, and the page
    assert "Jean Martin" in response.text
    assert "120 m² de pierre de Jérusalem" in response.text
    assert "Rien n" in response.text
    assert 'href="tel:+33155550100"' in response.text
    database = firestore.client()
    stored = {
        snapshot.id: snapshot.to_dict() or {}
        for snapshot in database.collection("Enquiries").stream()
    }
    assert list(stored) == [kept["token"].split(".")[1]]
    assert stored[kept["token"].split(".")[1]]["fields"]["name"] == "Marie Dupont"
    # The sender's record counts the one enquiry kept, not the one lost.
    (record,) = [
        snapshot.to_dict() or {} for snapshot in database.collection("EnquiryLimits").stream()
    ]
    assert len(record["times"]) == 1


def test_no_client_can_read_or_write_enquiries(firestore: FirestoreEmulator) -> None:
    firestore.seed("Enquiries", [{"id": "one", "name": "Marie"}])
    firestore.seed("EnquiryLimits", [{"id": "key", "times": [1.0]}])
    documents = (
        f"http://{firestore.host}/v1/projects/{firestore.project}/databases/(default)/documents"
    )
    for path in ("Enquiries", "Enquiries/one", "EnquiryLimits/key", "EnquirySecrets/form"):
        assert httpx.get(f"{documents}/{path}").status_code == 403
    body = '{"fields": {"name": {"stringValue": "x"}}}'
    assert httpx.post(f"{documents}/Enquiries", content=body).status_code == 403
    assert httpx.patch(f"{documents}/Enquiries/one", content=body).status_code == 403
    assert httpx.delete(f"{documents}/Enquiries/one").status_code == 403
