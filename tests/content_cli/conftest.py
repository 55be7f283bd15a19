"""Fixtures of the `stone-content` tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from harness.firestore_emulator import FirestoreEmulator
from server.content_cli.main import main
from tests.content_cli.support import SHIPPED_CONTENT, Run, StoneContent


@pytest.fixture
def stone_content(capsys: pytest.CaptureFixture[str]) -> StoneContent:
    """Run the command in-process: `stone_content("push", folder, "--yes")`."""

    def run(*argv: str | Path) -> Run:
        code = main([str(arg) for arg in argv])
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


@pytest.fixture
def emulator(firestore: FirestoreEmulator, monkeypatch: pytest.MonkeyPatch) -> FirestoreEmulator:
    """The reset emulator, and the environment that points the command at it."""
    monkeypatch.setenv("FIRESTORE_EMULATOR_HOST", firestore.host)
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", firestore.project)
    return firestore


@pytest.fixture
def shipped_copy(tmp_path: Path) -> Path:
    """The repository's content/ (files and images), copied so a test may change it."""
    return Path(shutil.copytree(SHIPPED_CONTENT, tmp_path / "content"))
