"""Google's Firestore emulator (via `gcloud`), for the real google-cloud-firestore
client over real gRPC: no fake. The pytest fixtures are in tests/conftest.py."""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import ClassVar
from unittest import mock

import httpx2 as httpx
from google.auth.credentials import AnonymousCredentials
from google.cloud import firestore

from harness.live_server import free_port
from harness.process_group import GroupServer, start_group

# "demo-" is the Firebase convention for "emulator only": no real project has this id.
PROJECT = "demo-fine-stone"


@dataclass
class FirestoreEmulator(GroupServer):
    """An emulator whose log goes to `folder`, on a free port. `rules` govern
    unauthenticated clients only; `client()` is the project's owner."""

    folder: Path
    rules: Path | None = None
    port: int = field(default=0, init=False)  # chosen by start()
    project: ClassVar[str] = PROJECT

    def start(self) -> FirestoreEmulator:
        gcloud = shutil.which("gcloud")
        if gcloud is None:
            raise RuntimeError("no `gcloud` on PATH: `./dev test` installs the Firestore emulator")
        # The machine may be offline: no update checks, prompts or usage reports.
        env = {
            **os.environ,
            "CLOUDSDK_CORE_DISABLE_PROMPTS": "1",
            "CLOUDSDK_COMPONENT_MANAGER_DISABLE_UPDATE_CHECK": "true",
            "CLOUDSDK_CORE_DISABLE_USAGE_REPORTING": "true",
        }
        for attempt in (1, 2, 3):
            self.port = free_port()
            argv = [gcloud, "emulators", "firestore", "start", f"--host-port={self.host}"]
            argv += ["--quiet", *([f"--rules={self.rules}"] if self.rules else [])]
            log = self.folder / f"emulator-{self.port}.log"
            try:
                self.process = start_group(argv, log, f"{self.url}/", 60, env=env)
                return self
            except RuntimeError as error:
                # free_port() reserves nothing: another process may take the port first.
                if attempt == 3 or "BindException" not in str(error):
                    raise
        raise AssertionError("unreachable")

    def reset(self) -> None:
        """Delete every document in the project's default database."""
        documents = f"{self.url}/emulator/v1/projects/{self.project}/databases/(default)/documents"
        httpx.delete(documents, timeout=10, trust_env=False).raise_for_status()

    def client(self) -> firestore.Client:
        """A new real client of this emulator."""
        # Only this variable makes the client speak plaintext gRPC (an api_endpoint alone
        # speaks TLS and hangs); it is read in __init__ only, so it need not stay set.
        with mock.patch.dict(os.environ, FIRESTORE_EMULATOR_HOST=self.host):
            # google-auth leaves AnonymousCredentials.__init__ unannotated.
            credentials = AnonymousCredentials()  # type: ignore[no-untyped-call]
            return firestore.Client(project=self.project, credentials=credentials)

    @cached_property
    def _seed_client(self) -> firestore.Client:
        return self.client()

    def seed(self, collection: str, documents: Sequence[Mapping[str, object]]) -> None:
        """Write documents: each one's "id" is the document id, the rest its fields.
        `collection` may be a nested path such as "Projects/p1/Images"."""
        client = self._seed_client
        batch = client.batch()  # one, however many: Firestore no longer caps a batch at 500
        for document in documents:
            fields = dict(document)
            batch.set(client.collection(collection).document(str(fields.pop("id"))), fields)
        batch.commit()
