"""Firebase's Auth emulator (npm firebase-tools, pure JS) and a Cloud Storage
emulator (PyPI gcp-storage-emulator), each a local process on a free port, offline."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx2 as httpx

from harness.firestore_emulator import FirestoreEmulator
from harness.live_server import free_port
from harness.process_group import stop_process_group
from harness.started import Started
from server.settings import REPO_ROOT

# Its own package folder: see tools/firebase-emulator/package.json and ./dev.
FIREBASE_CLI = REPO_ROOT / "tools" / "firebase-emulator" / "node_modules" / ".bin" / "firebase"
STORAGE_CLI = Path(sys.executable).parent / "gcp-storage-emulator"


def _wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"exited with {process.returncode}:\n{log.read_text()}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise RuntimeError(f"no answer on port {port} within {timeout:g} s:\n{log.read_text()}")


@dataclass
class AuthEmulator(Started):
    folder: Path
    project: str = "demo-fine-stone"
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> AuthEmulator:
        self.folder.mkdir(parents=True, exist_ok=True)
        config = self.folder / "firebase.json"
        emulators = {
            "auth": {"host": "127.0.0.1", "port": self.port},
            # No UI (it would be downloaded), and free ports for the CLI's own helpers.
            "ui": {"enabled": False},
            "hub": {"host": "127.0.0.1", "port": free_port()},
            "logging": {"host": "127.0.0.1", "port": free_port()},
        }
        config.write_text(json.dumps({"emulators": emulators}))
        log = self.folder / "auth-emulator.log"
        with log.open("ab") as output:
            self.process = subprocess.Popen(  # noqa: S603 - our own command line
                [str(FIREBASE_CLI), "emulators:start", "--only", "auth", "--project", self.project],
                cwd=self.folder,
                stdout=output,
                stderr=subprocess.STDOUT,
                env={**os.environ, "FIREBASE_CLI_DISABLE_UPDATE_CHECK": "true", "CI": "true"},
                start_new_session=True,
            )
        _wait_for_port(self.port, self.process, log, timeout=90)
        return self

    def stop(self) -> None:
        if self.process is not None:
            stop_process_group(self.process)

    def reset(self) -> None:
        url = f"http://{self.host}/emulator/v1/projects/{self.project}/accounts"
        httpx.delete(url, headers={"Authorization": "Bearer owner"}).raise_for_status()

    def add_account(self, email: str, password: str, *, staff: bool = False) -> str:
        """A new email-and-password account (with the custom claim staff=true); its uid."""
        # Identity Toolkit's admin API for the project's accounts.
        accounts = (
            f"http://{self.host}/identitytoolkit.googleapis.com/v1/projects/{self.project}/accounts"
        )
        owner = {"Authorization": "Bearer owner"}
        created = httpx.post(
            accounts,
            json={"email": email, "password": password},
            headers=owner,
        )
        created.raise_for_status()
        uid: str = created.json()["localId"]
        if staff:
            httpx.post(
                f"{accounts}:update",
                json={"localId": uid, "customAttributes": json.dumps({"staff": True})},
                headers=owner,
            ).raise_for_status()
        return uid


@dataclass
class StorageEmulator(Started):
    folder: Path
    bucket: str = "demo-fine-stone.appspot.com"
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> StorageEmulator:
        self.folder.mkdir(parents=True, exist_ok=True)
        log = self.folder / "storage-emulator.log"
        with log.open("ab") as output:
            self.process = subprocess.Popen(  # noqa: S603 - our own command line
                [
                    str(STORAGE_CLI),
                    "start",
                    "--host=127.0.0.1",
                    f"--port={self.port}",
                    f"--default-bucket={self.bucket}",
                    "--in-memory",
                ],
                cwd=self.folder,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        _wait_for_port(self.port, self.process, log, timeout=30)
        return self

    def stop(self) -> None:
        if self.process is not None:
            stop_process_group(self.process)


def firebase_studio_env(
    firestore: FirestoreEmulator, auth: AuthEmulator, storage: StorageEmulator, folder: Path
) -> dict[str, str]:
    """The settings of a site whose studio runs on the three emulators."""
    return {
        "CONTENT_SOURCE": "firestore",
        "FIRESTORE_EMULATOR_HOST": firestore.host,
        "GOOGLE_CLOUD_PROJECT": firestore.project,
        "FIREBASE_AUTH_EMULATOR_HOST": auth.host,
        "STORAGE_EMULATOR_HOST": storage.url,
        "STUDIO": "on",
        "STUDIO_STORAGE_BUCKET": storage.bucket,
        # The storage emulator's download URLs are http:.
        "DEV_MODE": "on",
        "IMAGE_CACHE_DIR": str(folder / "image-cache"),
    }
