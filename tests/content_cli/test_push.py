"""`stone-content push` against the real Firestore emulator."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from google.api_core.exceptions import ServiceUnavailable
from google.api_core.gapic_v1.method import DEFAULT
from google.cloud.firestore_v1.batch import WriteBatch

from harness.firestore_emulator import FirestoreEmulator
from harness.live_server import free_port
from tests.content_cli.support import StoneContent, as_dump, dump
from tests.content_files import sample_cards, write_content

emulator_test = pytest.mark.emulator


def update_times(firestore: FirestoreEmulator) -> dict[str, Any]:
    client = firestore.client()
    try:
        return {
            snapshot.reference.path: snapshot.update_time
            for name in ("Projects", "Collabrations", "Slider")
            for snapshot in client.collection(name).stream()
        }
    finally:
        client.close()  # type: ignore[no-untyped-call]


@emulator_test
def test_push_writes_every_document_of_the_folder(
    emulator: FirestoreEmulator, shipped_copy: Path, stone_content: StoneContent
) -> None:
    result = stone_content("push", shipped_copy, "--yes")
    assert result.code == 0, result.err
    assert dump(emulator) == as_dump(shipped_copy)
    assert f"Firestore project {emulator.project} (the emulator at {emulator.host})" in result.out
    written = sum(len(documents) for documents in as_dump(shipped_copy).values())
    assert f"Done: {written} writes" in result.out


@emulator_test
def test_a_second_push_changes_nothing(
    emulator: FirestoreEmulator, shipped_copy: Path, stone_content: StoneContent
) -> None:
    assert stone_content("push", shipped_copy, "--yes").code == 0
    before, times_before = dump(emulator), update_times(emulator)

    again = stone_content("push", shipped_copy, "--yes")

    assert again.code == 0
    assert "Firestore already matches: nothing to write." in again.out
    projects = len(as_dump(shipped_copy)["Projects"])
    assert f"Projects: 0 to add, 0 to change, {projects} unchanged" in again.out
    assert dump(emulator) == before == as_dump(shipped_copy)
    # Not even rewritten with the same values: the documents were left alone.
    assert update_times(emulator) == times_before


@pytest.fixture
def drifted(emulator: FirestoreEmulator, tmp_path: Path) -> Path:
    """A folder of 3 projects, and Firestore holding an older state of it plus a stray."""
    cards = sample_cards("project", 3)
    emulator.seed(
        "Projects",
        [
            {**cards[0], "description": "Old text.", "caption": "only in Firestore"},
            cards[1],
            {**cards[1], "id": "stray"},
        ],
    )
    return write_content(tmp_path, projects=cards, collabrations=[], slider=[])


@emulator_test
def test_dry_run_reports_the_changes_and_writes_nothing(
    emulator: FirestoreEmulator, drifted: Path, stone_content: StoneContent
) -> None:
    before, times_before = dump(emulator), update_times(emulator)

    result = stone_content("push", drifted, "--dry-run", "--prune")

    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert "  add     Projects/project-3" in lines
    assert "  change  Projects/project-1: caption, description" in lines
    assert "  remove  Projects/stray" in lines
    assert "Projects: 1 to add, 1 to change, 1 to remove, 1 unchanged" in lines
    assert "Collabrations: 0 to add, 0 to change, 0 to remove, 0 unchanged" in lines
    assert lines[-1] == "Dry run: nothing was written."
    assert dump(emulator) == before
    assert update_times(emulator) == times_before


@emulator_test
def test_without_prune_a_dry_run_lists_no_removals(
    emulator: FirestoreEmulator, drifted: Path, stone_content: StoneContent
) -> None:
    result = stone_content("push", drifted, "--dry-run")
    assert result.code == 0
    assert not [line for line in result.out.splitlines() if "remove" in line]
    assert (
        "Projects: 1 to add, 1 to change, 1 unchanged, "
        "1 only in Firestore (kept; --prune deletes them)"
    ) in result.out


@emulator_test
def test_push_makes_exactly_the_changes_the_dry_run_reported(
    emulator: FirestoreEmulator, drifted: Path, stone_content: StoneContent
) -> None:
    result = stone_content("push", drifted, "--yes")
    assert result.code == 0
    assert "Done: 2 writes to" in result.out
    projects = dump(emulator)["Projects"]
    # The changed document is replaced whole: its Firestore-only field is gone.
    assert projects == {**as_dump(drifted)["Projects"], "stray": projects["stray"]}


@emulator_test
def test_prune_deletes_what_is_not_in_the_folder(
    emulator: FirestoreEmulator, drifted: Path, stone_content: StoneContent
) -> None:
    assert stone_content("push", drifted, "--yes").code == 0
    assert "stray" in dump(emulator)["Projects"]

    result = stone_content("push", drifted, "--prune", "--yes")

    assert result.code == 0
    assert "Done: 1 write to" in result.out
    assert dump(emulator) == as_dump(drifted)


@emulator_test
def test_invalid_content_writes_nothing(
    emulator: FirestoreEmulator, shipped_copy: Path, stone_content: StoneContent
) -> None:
    emulator.seed("Projects", [{"id": "existing", "name": "n", "description": "d", "photoUrl": ""}])
    before = dump(emulator)
    # Projects and Collabrations are fine; only the last file is broken.
    (shipped_copy / "slider.json").write_text('[{"id": "s1"}]', encoding="utf-8")

    result = stone_content("push", shipped_copy, "--yes", "--prune")

    assert result.code == 1
    assert f"{shipped_copy / 'slider.json'}: s1: photoUrl: is missing" in result.err
    assert "Nothing was written to Firestore." in result.err
    assert dump(emulator) == before


@emulator_test
def test_push_asks_first_and_writes_nothing_unconfirmed(
    emulator: FirestoreEmulator, shipped_copy: Path, stone_content: StoneContent
) -> None:
    # Under pytest stdin is not a terminal, as in a script or CI job.
    result = stone_content("push", shipped_copy)
    assert result.code == 4
    assert "pass --yes" in result.err
    assert dump(emulator) == {"Projects": {}, "Collabrations": {}, "Slider": {}, "Stones": {}}


@pytest.fixture
def batch_sizes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of writes in each batch committed, in order."""
    sizes: list[int] = []
    commit = WriteBatch.commit

    def counting_commit(
        self: WriteBatch, retry: object = DEFAULT, timeout: float | None = None
    ) -> list[Any]:
        sizes.append(len(self))
        return commit(self, retry=retry, timeout=timeout)

    monkeypatch.setattr(WriteBatch, "commit", counting_commit)
    return sizes


@emulator_test
def test_a_large_push_is_written_in_batches_of_at_most_500(
    emulator: FirestoreEmulator,
    tmp_path: Path,
    stone_content: StoneContent,
    batch_sizes: list[int],
) -> None:
    root = write_content(tmp_path, projects=sample_cards("p", 1195), collabrations=[])
    result = stone_content("push", root, "--yes")
    assert result.code == 0, result.err
    assert batch_sizes == [500, 500, 198]  # 1195 projects and 3 slides
    assert len(dump(emulator)["Projects"]) == 1195
    # Its progress, a line per batch (a pipe or a log gets them as a terminal does).
    assert [line for line in result.out.splitlines() if line.startswith("Wrote ")] == [
        "Wrote 500 of 1198",
        "Wrote 1000 of 1198",
        "Wrote 1198 of 1198",
    ]


@emulator_test
def test_an_unreachable_firestore_fails_fast_and_says_so(
    shipped_copy: Path, stone_content: StoneContent, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FIRESTORE_EMULATOR_HOST", f"127.0.0.1:{free_port()}")
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "demo-fine-stone")
    started = time.monotonic()
    result = stone_content("push", shipped_copy, "--yes", "--timeout", "1")
    assert result.code == 3
    assert result.err.startswith("stone-content: Firestore: ")
    assert time.monotonic() - started < 5


@emulator_test
def test_a_push_cut_short_is_finished_by_the_next_one(
    emulator: FirestoreEmulator,
    tmp_path: Path,
    stone_content: StoneContent,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root = write_content(tmp_path, projects=sample_cards("p", 1195), collabrations=[])
    commit = WriteBatch.commit
    commits: list[int] = []

    def failing_second_commit(
        self: WriteBatch, retry: object = DEFAULT, timeout: float | None = None
    ) -> list[Any]:
        commits.append(len(self))
        if len(commits) == 2:
            raise ServiceUnavailable("connection lost")  # type: ignore[no-untyped-call]
        return commit(self, retry=retry, timeout=timeout)

    with monkeypatch.context() as patch:
        patch.setattr(WriteBatch, "commit", failing_second_commit)
        cut_short = stone_content("push", root, "--yes")
    assert cut_short.code == 3
    assert "Stopped after 500 of 1198 writes." in cut_short.err
    assert "connection lost" in cut_short.err
    assert len(dump(emulator)["Projects"]) == 500

    finished = stone_content("push", root, "--yes")
    assert finished.code == 0
    assert "Done: 698 writes" in finished.out
    assert dump(emulator) == as_dump(root)
