"""The installed `stone-content` script, run as staff run it: a separate process."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import IO

import pytest

from harness.firestore_emulator import FirestoreEmulator
from harness.live_server import SITE_SETTINGS
from server.content_cli.main import build_parser
from server.settings import REPO_ROOT
from tests.content_cli.support import CONTENT_FILES, as_dump, dump

# Installed by `uv sync` from pyproject's [project.scripts], beside the interpreter.
SCRIPT = Path(sys.executable).parent / "stone-content"


def run(
    *argv: str | Path, env: dict[str, str] | None = None, stdin: IO[bytes] | None = None
) -> subprocess.CompletedProcess[str]:
    # Only the settings the test names: none leak in from the developer's shell.
    base = {key: value for key, value in os.environ.items() if key not in SITE_SETTINGS}
    return subprocess.run(  # noqa: S603 - our own script
        [SCRIPT, *map(str, argv)],
        env={**base, **(env or {})},
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.emulator
def test_the_script_validates_pushes_and_pulls(
    firestore: FirestoreEmulator, shipped_copy: Path, tmp_path: Path
) -> None:
    env = {"FIRESTORE_EMULATOR_HOST": firestore.host, "GOOGLE_CLOUD_PROJECT": firestore.project}

    validated = run("validate", shipped_copy)
    assert (validated.returncode, validated.stderr) == (0, "")

    pushed = run("push", shipped_copy, "--yes", env=env)
    assert pushed.returncode == 0, pushed.stderr
    assert dump(firestore) == as_dump(shipped_copy)

    pulled = run("pull", tmp_path / "pulled", env=env)
    assert pulled.returncode == 0, pulled.stderr
    assert as_dump(tmp_path / "pulled") == as_dump(shipped_copy)


def test_the_script_exits_non_zero_on_a_problem(shipped_copy: Path) -> None:
    (shipped_copy / "images" / "projects" / "abdoun-villa-facade.jpg").unlink()
    result = run("validate", shipped_copy)
    assert result.returncode == 1
    assert result.stderr.startswith(
        f"{shipped_copy / 'projects.json'}: abdoun-villa-facade: photoUrl: "
    )


def test_the_help_says_pull_does_not_download_images() -> None:
    result = run("pull", "--help")
    assert result.returncode == 0
    assert "Images are not downloaded" in " ".join(result.stdout.split())


def test_the_staff_guide_shows_every_command() -> None:
    readme = (REPO_ROOT / "docs" / "content.md").read_text(encoding="utf-8")
    [subcommands] = [
        action
        for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    ]
    commands = list(subcommands.choices)
    assert sorted(commands) == ["pull", "push", "validate"]
    for command in commands:
        assert f"stone-content {command} " in readme
    assert set(CONTENT_FILES) <= set(readme.replace("`", " ").split())


@pytest.mark.emulator
def test_at_a_terminal_push_asks_and_writes_after_yes(
    firestore: FirestoreEmulator, shipped_copy: Path
) -> None:
    env = {"FIRESTORE_EMULATOR_HOST": firestore.host, "GOOGLE_CLOUD_PROJECT": firestore.project}
    leader, follower = os.openpty()
    with os.fdopen(leader, "wb", buffering=0) as keyboard, open(follower, "rb") as terminal:
        keyboard.write(b"y\n")
        result = run("push", shipped_copy, env=env, stdin=terminal)
    assert result.returncode == 0, result.stderr
    assert "writes to demo-fine-stone? [y/N]" in result.stdout
    assert dump(firestore) == as_dump(shipped_copy)
