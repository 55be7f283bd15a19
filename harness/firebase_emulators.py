"""Firebase's Auth emulator (npm firebase-tools, pure JS) and a Cloud Storage emulator (PyPI
gcp-storage-emulator), each a local process on a free port, offline; `main` runs both for
./dev test's two pytest processes to share (docs/development.md)."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import httpx2 as httpx

from harness.firestore_emulator import PROJECT, FirestoreEmulator
from harness.live_server import free_port
from harness.process_group import GroupServer, start_group
from server.settings import REPO_ROOT

# Its own package folder: see tools/firebase-emulator/package.json and ./dev.
FIREBASE_CLI = REPO_ROOT / "tools" / "firebase-emulator" / "node_modules" / ".bin" / "firebase"
STORAGE_CLI = Path(sys.executable).parent / "gcp-storage-emulator"


@dataclass
class AuthEmulator(GroupServer):
    folder: Path
    port: int = field(default_factory=free_port)

    def start(self) -> AuthEmulator:
        emulators = {
            "auth": {"host": "127.0.0.1", "port": self.port},
            # No UI (it would be downloaded), and free ports for the CLI's own helpers.
            "ui": {"enabled": False},
            "hub": {"host": "127.0.0.1", "port": free_port()},
            "logging": {"host": "127.0.0.1", "port": free_port()},
        }
        (self.folder / "firebase.json").write_text(json.dumps({"emulators": emulators}))
        argv = [str(FIREBASE_CLI), "emulators:start", "--only", "auth", "--project", PROJECT]
        env = {**os.environ, "FIREBASE_CLI_DISABLE_UPDATE_CHECK": "true", "CI": "true"}
        log = self.folder / "auth-emulator.log"
        self.process = start_group(argv, log, f"{self.url}/", timeout=90, cwd=self.folder, env=env)
        return self

    def add_account(self, email: str, password: str, *, staff: bool = False) -> str:
        """A new email-and-password account (with the custom claim staff=true); its uid."""
        # Identity Toolkit's admin API for the project's accounts.
        accounts = f"{self.url}/identitytoolkit.googleapis.com/v1/projects/{PROJECT}/accounts"
        owner = {"Authorization": "Bearer owner"}
        created = httpx.post(accounts, json={"email": email, "password": password}, headers=owner)
        created.raise_for_status()
        uid: str = created.json()["localId"]
        if staff:
            claims = {"localId": uid, "customAttributes": json.dumps({"staff": True})}
            httpx.post(f"{accounts}:update", json=claims, headers=owner).raise_for_status()
        return uid


@dataclass
class StorageEmulator(GroupServer):
    folder: Path
    bucket: ClassVar[str] = f"{PROJECT}.appspot.com"
    port: int = field(default_factory=free_port)

    def start(self) -> StorageEmulator:
        argv = [str(STORAGE_CLI), "start", "--host=127.0.0.1", f"--port={self.port}"]
        argv += [f"--default-bucket={self.bucket}", "--in-memory"]
        log = self.folder / "storage-emulator.log"
        self.process = start_group(argv, log, self.url, timeout=30, cwd=self.folder)
        return self


def firebase_studio_env(
    firestore: FirestoreEmulator, auth: AuthEmulator, storage: StorageEmulator, folder: Path
) -> dict[str, str]:
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


SHARED_EMULATORS_FILE = "SHARED_EMULATORS_FILE"


def shared_emulators(ports: Path) -> tuple[AuthEmulator, StorageEmulator]:
    """The emulators `main` runs, once it has written `ports` (it starts beside the tests)."""
    deadline = time.monotonic() + 300
    while not ports.exists():
        if time.monotonic() > deadline:
            raise RuntimeError(f"the shared emulators did not write {ports} within 300 s")
        time.sleep(0.1)
    started = json.loads(ports.read_text())
    if "error" in started:
        raise RuntimeError(f"the shared emulators did not start: {started['error']}")
    return (
        AuthEmulator(ports.parent, port=started["auth"]),
        StorageEmulator(ports.parent, port=started["storage"]),
    )


def main(ports: Path) -> None:
    # Stopped as a job (SIGTERM to its group, and again from `uv run`), it still stops
    # the emulators' own groups, undisturbed by the second signal.
    def stop(*_: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        sys.exit(1)

    signal.signal(signal.SIGTERM, stop)
    written = ports.with_suffix(".partial")  # renamed into place: never read half-written
    try:
        with AuthEmulator(ports.parent) as auth, StorageEmulator(ports.parent) as storage:
            written.write_text(json.dumps({"auth": auth.port, "storage": storage.port}))
            written.rename(ports)
            sys.stdin.read()  # until ./dev closes its end, or ends
    except BaseException as error:
        if not ports.exists():  # whatever stopped them, the tests waiting hear of it at once
            written.write_text(json.dumps({"error": repr(error)}))
            written.rename(ports)
        raise


if __name__ == "__main__":
    main(Path(sys.argv[1]))
