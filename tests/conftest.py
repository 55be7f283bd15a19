"""Shared pytest fixtures."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from harness.firebase_emulators import (
    SHARED_EMULATORS_FILE,
    AuthEmulator,
    StorageEmulator,
    shared_emulators,
)
from harness.firestore_emulator import FirestoreEmulator
from server.settings import REPO_ROOT


@pytest.fixture(scope="session", autouse=True)
def firestore_emulator_starting(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[[], FirestoreEmulator]]:
    """One real Firestore emulator for the whole session. Its start-up costs seconds: when a
    test names it, it starts with the session, beside the tests before the first to need it;
    otherwise when a test first asks for it (`request.getfixturevalue`)."""
    emulator = FirestoreEmulator(
        tmp_path_factory.mktemp("firestore-emulator"), rules=REPO_ROOT / "firestore.rules"
    )
    with ThreadPoolExecutor(max_workers=1) as pool:
        starting: Future[FirestoreEmulator] | None = None

        def started() -> FirestoreEmulator:
            nonlocal starting
            starting = starting or pool.submit(emulator.start)
            return starting.result()

        items = request.session.items
        if any("firestore_emulator" in getattr(item, "fixturenames", ()) for item in items):
            starting = pool.submit(emulator.start)
        try:
            yield started
        finally:
            if starting is not None:
                starting.exception()  # started or failed: never stopped half-way through
                emulator.stop()


@pytest.fixture(scope="session")
def firestore_emulator(
    firestore_emulator_starting: Callable[[], FirestoreEmulator],
) -> FirestoreEmulator:
    try:
        return firestore_emulator_starting()
    except RuntimeError as exc:
        # Deliberately fail, never skip: a missing emulator must not turn the
        # Firestore tests silently green.
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture
def firestore(firestore_emulator: FirestoreEmulator) -> FirestoreEmulator:
    """The session emulator, wiped so each test starts from an empty database."""
    # Reset before (not after) the test, so a failing test leaves its data in
    # place for debugging and the next test still starts clean.
    firestore_emulator.reset()
    return firestore_emulator


@pytest.fixture
def anyio_backend() -> str:
    """The event loop the anyio-marked tests run on (the app's: asyncio)."""
    return "asyncio"


@pytest.fixture(scope="session")
def auth_emulator(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AuthEmulator]:
    """Firebase's Auth emulator: ./dev test's, shared by its pytest processes, else one for
    this session (it takes tens of seconds to start). Tests add accounts of their own and
    never reset it: the other process may be signing in."""
    if shared := os.environ.get(SHARED_EMULATORS_FILE):
        yield shared_emulators(Path(shared))[0]
        return
    with AuthEmulator(tmp_path_factory.mktemp("auth-emulator")) as emulator:
        yield emulator


@pytest.fixture(scope="session")
def storage_emulator(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StorageEmulator]:
    if shared := os.environ.get(SHARED_EMULATORS_FILE):
        yield shared_emulators(Path(shared))[1]
        return
    with StorageEmulator(tmp_path_factory.mktemp("storage-emulator")) as emulator:
        yield emulator
