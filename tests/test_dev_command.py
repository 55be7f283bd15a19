"""`./dev test` installs the Firestore emulator on Debian, or says why it cannot and what to do.

Every run here is a dry run (DEV_DRY_RUN=1): the command prints what it would run
as root instead of running it. A stand-in `python3` plays the key download, so
Google's host is never asked, and PATH hides the machine's own gcloud.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from server.settings import REPO_ROOT

DEV = REPO_ROOT / "dev"
KEYRING = "/usr/share/keyrings/cloud.google.gpg"
APT_SOURCE = "/etc/apt/sources.list.d/google-cloud-sdk.list"
APT_LINE = f"deb [signed-by={KEYRING}] https://packages.cloud.google.com/apt cloud-sdk main"
INSTALL = (
    "would run as root: apt-get install -y -qq --no-install-recommends "
    "google-cloud-cli google-cloud-cli-firestore-emulator"
)


def commands_without(folder: Path, *hidden: str) -> Path:
    """A folder of links to every command on this PATH but the hidden ones."""
    folder.mkdir()
    for directory in os.environ["PATH"].split(os.pathsep):
        if not Path(directory).is_dir():
            continue
        for command in Path(directory).iterdir():
            link = folder / command.name
            if command.name in hidden or link.exists() or link.is_symlink():
                continue
            if command.is_file() and os.access(command, os.X_OK):
                link.symlink_to(command)
    return folder


def stand_in(folder: Path, name: str, script: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(f"#!/usr/bin/env bash\n{script}\n")
    (folder / name).chmod(0o755)


def key_download(folder: Path, *, reachable: bool) -> None:
    """`python3` as ./dev calls it to fetch the key: it prints the key."""
    script = "echo key" if reachable else "exit 1"
    stand_in(folder, "python3", script)


def dev_test(*path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": os.pathsep.join(map(str, path)), "DEV_DRY_RUN": "1"}
    return subprocess.run(  # noqa: S603 - the project's own script
        [str(DEV), "test"], env=env, capture_output=True, text=True, timeout=120, check=False
    )


def test_with_the_emulator_installed_nothing_is_to_be_installed() -> None:
    result = dev_test(*map(Path, os.environ["PATH"].split(os.pathsep)))
    assert result.returncode == 0, result.stderr
    assert "would run as root:" not in result.stderr
    assert "Dry run: nothing was installed" in result.stderr


def test_without_it_the_emulator_comes_from_googles_apt_source(tmp_path: Path) -> None:
    stand_ins = tmp_path / "stand-ins"
    key_download(stand_ins, reachable=True)
    result = dev_test(stand_ins, commands_without(tmp_path / "bin", "gcloud"))
    assert result.returncode == 0, result.stderr
    assert f"would run as root: gpg --dearmor --yes -o {KEYRING}" in result.stderr
    if not Path(APT_SOURCE).exists():  # an existing source is left as it is
        assert f"would run as root: sh -c echo '{APT_LINE}' > {APT_SOURCE}" in result.stderr
    assert "would run as root: apt-get update -qq" in result.stderr
    assert INSTALL in result.stderr


def assert_says_what_to_do(result: subprocess.CompletedProcess[str], reason: str) -> None:
    assert result.returncode == 1
    assert f"./dev cannot install it here: {reason}" in result.stderr
    assert f"echo '{APT_LINE}' > {APT_SOURCE}" in result.stderr
    assert "gcloud components install cloud-firestore-emulator" in result.stderr
    assert "would run as root:" not in result.stderr


def test_out_of_reach_of_googles_host_it_stops_and_says_what_to_do(tmp_path: Path) -> None:
    stand_ins = tmp_path / "stand-ins"
    key_download(stand_ins, reachable=False)
    result = dev_test(stand_ins, commands_without(tmp_path / "bin", "gcloud"))
    assert_says_what_to_do(result, "packages.cloud.google.com cannot be reached")


def test_without_apt_it_stops_and_says_what_to_do(tmp_path: Path) -> None:
    result = dev_test(commands_without(tmp_path / "bin", "gcloud", "apt-get"))
    assert_says_what_to_do(result, "this is not Debian (no apt-get)")


def test_without_root_or_sudo_it_stops_and_says_what_to_do(tmp_path: Path) -> None:
    stand_ins = tmp_path / "stand-ins"
    stand_in(stand_ins, "id", '[ "$1" = -u ] && echo 1000')
    result = dev_test(stand_ins, commands_without(tmp_path / "bin", "gcloud", "sudo"))
    assert_says_what_to_do(result, "installing needs root, and there is no sudo")


def test_a_cloud_cli_from_googles_archive_adds_the_emulator_itself(tmp_path: Path) -> None:
    sdk = tmp_path / "google-cloud-sdk"
    stand_in(sdk / "bin", "gcloud", "exit 0")
    commands = commands_without(tmp_path / "bin", "gcloud")
    result = dev_test(sdk / "bin", commands)
    assert_says_what_to_do(result, f"{sdk / 'bin' / 'gcloud'} is not from a Debian package")

    # With the component in its tree, that gcloud has the emulator.
    stand_in(sdk / "platform" / "cloud-firestore-emulator", "cloud_firestore_emulator", "exit 0")
    result = dev_test(sdk / "bin", commands)
    assert result.returncode == 0, result.stderr
    assert "would run as root:" not in result.stderr
