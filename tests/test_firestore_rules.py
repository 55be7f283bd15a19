"""firestore.rules, enforced by the real emulator on unauthenticated REST calls."""

from __future__ import annotations

import json

import httpx2 as httpx
import pytest

from harness.firestore_emulator import FirestoreEmulator

pytestmark = pytest.mark.emulator

DOCUMENT = {"name": "Villa", "description": "d", "photoUrl": "https://x.example/a.jpg"}


def documents_url(emulator: FirestoreEmulator, path: str) -> str:
    return f"http://{emulator.host}/v1/projects/{emulator.project}/databases/(default)/documents/{path}"


def write_body() -> str:
    return json.dumps({"fields": {"name": {"stringValue": "defaced"}}})


@pytest.fixture
def seeded(firestore: FirestoreEmulator) -> FirestoreEmulator:
    for collection in ("Projects", "Collabrations", "Slider", "Stones", "Users"):
        firestore.seed(collection, [{"id": "one", **DOCUMENT}])
    firestore.seed("Projects/one/Notes", [{"id": "n", "text": "internal"}])
    return firestore


@pytest.mark.parametrize("collection", ["Projects", "Collabrations", "Slider", "Stones"])
def test_anyone_can_read_the_four_collections(seeded: FirestoreEmulator, collection: str) -> None:
    listing = httpx.get(documents_url(seeded, collection))
    assert listing.status_code == 200
    assert len(listing.json()["documents"]) == 1
    assert httpx.get(documents_url(seeded, f"{collection}/one")).status_code == 200


@pytest.mark.parametrize("collection", ["Projects", "Collabrations", "Slider", "Stones"])
def test_nobody_can_write_them(seeded: FirestoreEmulator, collection: str) -> None:
    url = documents_url(seeded, f"{collection}/one")
    assert httpx.patch(url, content=write_body()).status_code == 403
    assert httpx.delete(url).status_code == 403
    assert httpx.post(documents_url(seeded, collection), content=write_body()).status_code == 403
    # Still as it was.
    fields = httpx.get(url).json()["fields"]
    assert fields["name"]["stringValue"] == "Villa"


@pytest.mark.parametrize(
    "path", ["Users", "Users/one", "Projects/one/Notes", "Projects/one/Notes/n"]
)
def test_every_other_path_is_closed(seeded: FirestoreEmulator, path: str) -> None:
    assert httpx.get(documents_url(seeded, path)).status_code == 403
