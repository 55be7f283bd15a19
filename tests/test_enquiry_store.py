"""The enquiry stores keep the same promises: SQLite (a file) and Firestore (the real client on
Google's emulator). What the studio's Enquiries tab and the outbox rely on."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from harness.firestore_emulator import FirestoreEmulator
from server.enquiries.fields import Enquiry, State
from server.enquiries.firestore import EnquiryStore, FirestoreEnquiries
from server.enquiries.store import Added, SqliteEnquiries

pytestmark = pytest.mark.anyio
NOW = time.time()


def made(enquiry_id: str, *, ago: float = 0, branch: str = "FR") -> Enquiry:
    return Enquiry(
        id=enquiry_id,
        created=NOW - ago,
        branch=branch,
        language="fr",
        page="/fr/stones/aqaba-red",
        topic="Aqaba Red",
        fields={"name": "Marie", "message": "Bonjour\nà vous"},
    )


@pytest.fixture(params=["sqlite", pytest.param("firestore", marks=pytest.mark.emulator)])
def kind(request: pytest.FixtureRequest) -> str:
    kind: str = request.param
    return kind


@pytest.fixture
def emulator_host(
    kind: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[FirestoreEmulator | None]:
    if kind != "firestore":
        yield None
        return
    emulator: FirestoreEmulator = request.getfixturevalue("firestore")
    monkeypatch.setenv("FIRESTORE_EMULATOR_HOST", emulator.host)
    yield emulator


@pytest.fixture
async def store(
    kind: str, tmp_path: Path, emulator_host: FirestoreEmulator | None
) -> AsyncIterator[EnquiryStore]:
    opened: EnquiryStore
    if emulator_host is None:
        opened = SqliteEnquiries(tmp_path / "enquiries.sqlite3")
    else:
        opened = FirestoreEnquiries(emulator_host.project, timeout_seconds=5)
    yield opened
    await opened.close()


async def add(store: EnquiryStore, enquiry: Enquiry, address: str = "a") -> Added:
    return await store.add(enquiry, address_key=address, limit=2, window_seconds=600)


async def test_an_enquiry_is_kept_whole_and_once_per_id(store: EnquiryStore) -> None:
    assert await add(store, made("one")) is Added.ADDED
    assert await store.get("one") == made("one")
    assert await add(store, made("one")) is Added.DUPLICATE
    assert await store.get("nothing") is None


async def test_an_address_gets_its_limit_in_the_window_and_no_more(store: EnquiryStore) -> None:
    assert await add(store, made("old", ago=700)) is Added.ADDED  # outside the window
    assert await add(store, made("one")) is Added.ADDED
    assert await add(store, made("two")) is Added.ADDED
    assert await add(store, made("three")) is Added.LIMITED
    assert await store.get("three") is None  # nothing written
    assert await add(store, made("elsewhere"), address="b") is Added.ADDED
    # The same form sent again is no new enquiry: its page, not the limit's.
    assert await add(store, made("two")) is Added.DUPLICATE


async def test_the_studio_lists_newest_first_by_branch_and_state_and_marks_them(
    store: EnquiryStore,
) -> None:
    for index, branch in enumerate(["FR", "IT", "FR"]):
        await add(store, made(f"e{index}", ago=10 - index, branch=branch), address=str(index))
    assert [e.id for e in await store.newest_first()] == ["e2", "e1", "e0"]
    assert [e.id for e in await store.newest_first(branch="FR")] == ["e2", "e0"]
    assert await store.update("e0", state=State.HANDLED, read=True)
    assert [e.id for e in await store.newest_first(state=State.NEW)] == ["e2", "e1"]
    handled = await store.get("e0")
    assert handled is not None
    assert (handled.state, handled.read) == (State.HANDLED, True)
    assert await store.update("e0", read=False)
    unread = await store.get("e0")
    assert unread is not None
    assert (unread.state, unread.read) == (State.HANDLED, False)
    assert await store.delete("e1")
    assert not await store.delete("e1")
    assert not await store.update("e1", read=True)
    assert [e.id for e in await store.newest_first(branch="FR", state=State.HANDLED)] == ["e0"]


async def test_one_worker_at_a_time_mails_an_enquiry_and_none_once_it_went(
    store: EnquiryStore,
) -> None:
    await add(store, made("one"))
    assert [e.id for e in await store.newest_first(state=State.NEW)] == ["one"]
    claimed = await store.claim("one", now=NOW, until=NOW + 120)
    assert claimed == made("one")
    assert await store.claim("one", now=NOW + 1, until=NOW + 121) is None  # another worker
    # Refused by the mail server: free to try again at once.
    await store.mailed("one", accepted=False)
    assert await store.claim("one", now=NOW + 2, until=NOW + 122) is not None
    # A worker that died mid-send lets go when its claim runs out.
    assert await store.claim("one", now=NOW + 123, until=NOW + 243) is not None
    await store.mailed("one", accepted=True)
    assert await store.newest_first(state=State.NEW) == []
    assert await store.claim("one", now=NOW + 999, until=NOW + 1119) is None
    mailed = await store.get("one")
    assert mailed is not None
    assert mailed.state is State.EMAILED


async def test_enquiries_past_keeping_are_deleted(store: EnquiryStore) -> None:
    await add(store, made("old", ago=400 * 86_400))
    await add(store, made("new", ago=3 * 86_400))
    assert await store.delete_older_than(NOW - 365 * 86_400) == 1
    assert [e.id for e in await store.newest_first()] == ["new"]


async def test_the_form_key_is_made_once_and_shared(
    store: EnquiryStore, kind: str, tmp_path: Path, emulator_host: FirestoreEmulator | None
) -> None:
    other: EnquiryStore = (
        SqliteEnquiries(tmp_path / "enquiries.sqlite3")
        if emulator_host is None
        else FirestoreEnquiries(emulator_host.project, timeout_seconds=5)
    )
    try:
        secret = await store.secret()
        assert len(secret) >= 32
        assert await other.secret() == secret  # another worker
    finally:
        await other.close()
