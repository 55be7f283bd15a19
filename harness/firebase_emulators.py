"""Firebase's Auth emulator (npm firebase-tools, pure JS) and a Cloud Storage
emulator (PyPI gcp-storage-emulator), each a local process on a free port, offline."""

from __future__ import annotations

import json
import os
import sys
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
    project: ClassVar[str] = PROJECT
    port: int = field(default_factory=free_port)

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> AuthEmulator:
        emulators = {
            "auth": {"host": "127.0.0.1", "port": self.port},
            # No UI (it would be downloaded), and free ports for the CLI's own helpers.
            "ui": {"enabled": False},
            "hub": {"host": "127.0.0.1", "port": free_port()},
            "logging": {"host": "127.0.0.1", "port": free_port()},
        }
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "firebase.json").write_text(json.dumps({"emulators": emulators}))
        self.process = start_group(
            [str(FIREBASE_CLI), "emulators:start", "--only", "auth", "--project", self.project],
            self.folder / "auth-emulator.log",
            f"http://{self.host}/",
            timeout=90,
            cwd=self.folder,
            env={**os.environ, "FIREBASE_CLI_DISABLE_UPDATE_CHECK": "true", "CI": "true"},
        )
        return self

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
        created = httpx.post(accounts, json={"email": email, "password": password}, headers=owner)
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
class StorageEmulator(GroupServer):
    folder: Path
    bucket: ClassVar[str] = f"{PROJECT}.appspot.com"
    port: int = field(default_factory=free_port)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> StorageEmulator:
        self.process = start_group(
            [
                str(STORAGE_CLI),
                "start",
                "--host=127.0.0.1",
                f"--port={self.port}",
                f"--default-bucket={self.bucket}",
                "--in-memory",
            ],
            self.folder / "storage-emulator.log",
            self.url,
            timeout=30,
            cwd=self.folder,
        )
        return self


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
