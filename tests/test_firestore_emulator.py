"""Prove the Firestore emulator fixtures work with the real client over gRPC."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harness.firestore_emulator import FirestoreEmulator

pytestmark = pytest.mark.emulator


def _group_members(pgid: int) -> list[str]:
    """Command names of all processes in a process group (Linux /proc)."""
    names = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # The process exited while we were looking.
            continue
        # comm is in parentheses and may contain spaces; fields after it are
        # "state ppid pgrp ...".
        comm = text[text.index("(") + 1 : text.rindex(")")]
        if int(text[text.rindex(")") + 2 :].split()[2]) == pgid:
            names.append(comm)
    return names


def test_seed_then_read_back_with_real_client(firestore: FirestoreEmulator) -> None:
    firestore.seed(
        "Projects",
        [
            {"id": "amman-villa", "title": "Amman villa", "order": 2, "tags": ["marble"]},
            {"id": "aqaba-hotel", "title": "Aqaba hotel", "order": 1, "published": True},
        ],
    )

    client = firestore.client()
    docs = {doc.id: doc.to_dict() for doc in client.collection("Projects").stream()}

    assert docs == {
        "amman-villa": {"title": "Amman villa", "order": 2, "tags": ["marble"]},
        "aqaba-hotel": {"title": "Aqaba hotel", "order": 1, "published": True},
    }
    # The client was pointed at the emulator without leaking the env var.
    assert "FIRESTORE_EMULATOR_HOST" not in os.environ


def test_reset_empties_database(firestore: FirestoreEmulator) -> None:
    client = firestore.client()
    # The fixture reset() already ran, so the previous test's data is gone.
    assert list(client.collection("Projects").stream()) == []

    firestore.seed("Projects", [{"id": "p1", "title": "Quarry"}])
    firestore.seed("Projects/p1/Images", [{"id": "i1", "src": "quarry.jpg"}])
    assert len(list(client.collection("Projects/p1/Images").stream())) == 1

    firestore.reset()

    assert list(client.collection("Projects").stream()) == []
    assert list(client.collection("Projects/p1/Images").stream()) == []


def test_stop_kills_whole_process_group(tmp_path: Path) -> None:
    # A separate emulator, so stopping it does not disturb the session one.
    emulator = FirestoreEmulator(tmp_path).start()
    assert emulator.process is not None
    pgid = os.getpgid(emulator.process.pid)
    try:
        # The JVM is a grandchild; it must be in the group for killpg to reach it.
        assert "java" in _group_members(pgid)
    finally:
        emulator.stop()

    with pytest.raises(ProcessLookupError):
        os.killpg(pgid, 0)
