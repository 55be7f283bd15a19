"""Run Google's real Firestore emulator (via ``gcloud``) for tests.

The point is to exercise our Firestore content store with the real
``google-cloud-firestore`` client over real gRPC, not a fake. The pytest
fixtures live in ``tests/conftest.py``; this module has no pytest dependency
so it can also be used from a REPL or a script.
"""

from __future__ import annotations

import http.client
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from google.auth.credentials import AnonymousCredentials
from google.cloud import firestore

from harness.live_server import free_port
from harness.process_group import stop_process_group

# A "demo-" project id is the Firebase convention for "emulator only": even if
# something were misconfigured, no real project can have this id.
DEFAULT_PROJECT = "demo-fine-stone"

# The client library only switches to an insecure (plaintext) gRPC channel
# when it sees this variable; ``client_options={"api_endpoint": ...}`` alone
# still speaks TLS and hangs in retries against the emulator.
_EMULATOR_HOST_ENV = "FIRESTORE_EMULATOR_HOST"

# Firestore rejects batches with more than 500 writes.
_MAX_BATCH_WRITES = 500

# Fresh ports to try if another process grabs ours before the emulator binds.
_PORT_ATTEMPTS = 3

# How much of the emulator log to put into an exception message.
_LOG_TAIL_CHARS = 4000


class FirestoreEmulatorError(RuntimeError):
    """The emulator could not be started, reset or stopped."""


@dataclass
class FirestoreEmulator:
    """A running Firestore emulator in its own process group."""

    host: str  # "127.0.0.1:PORT", the form FIRESTORE_EMULATOR_HOST expects.
    project: str
    process: subprocess.Popen[bytes] = field(repr=False)
    log_path: Path
    startup_seconds: float  # Wall time from spawn to first HTTP answer.
    _seed_client: firestore.Client | None = field(default=None, init=False, repr=False)

    @classmethod
    def start(
        cls,
        *,
        project: str = DEFAULT_PROJECT,
        log_dir: Path | None = None,
        timeout: float = 60.0,
        rules: Path | None = None,
        port: int | None = None,
    ) -> FirestoreEmulator:
        """Start an emulator on a free port (or `port`) and wait until it answers HTTP.

        A given `port` starts an emulator where a stopped one was, so clients
        pointed at it find a database again (empty: the emulator keeps nothing).
        """
        gcloud = shutil.which("gcloud")
        if gcloud is None:
            raise FirestoreEmulatorError(
                "`gcloud` is not on PATH. The Firestore tests need the Google Cloud CLI "
                "with the emulator component (`gcloud components install "
                "cloud-firestore-emulator`, or the Debian package "
                "google-cloud-cli-firestore-emulator) and Java 17+."
            )
        if log_dir is None:
            log_dir = Path(tempfile.mkdtemp(prefix="firestore-emulator-"))
        log_dir.mkdir(parents=True, exist_ok=True)

        for attempt in range(1, _PORT_ATTEMPTS + 1):
            started = time.monotonic()
            emulator = cls._spawn(gcloud, project, log_dir, rules, port)
            try:
                emulator._wait_until_ready(timeout)
            except FirestoreEmulatorError:
                emulator.stop()
                # free_port() cannot reserve the port, so another process may
                # take it first; that is the one failure worth a fresh port.
                lost_port_race = "BindException" in emulator._log_tail()
                if lost_port_race and attempt < _PORT_ATTEMPTS and port is None:
                    continue
                raise
            except BaseException:
                # Never leave a half-started JVM behind, even on KeyboardInterrupt.
                emulator.stop()
                raise
            emulator.startup_seconds = time.monotonic() - started
            return emulator
        raise AssertionError("unreachable")  # The last attempt returns or raises.

    @classmethod
    def _spawn(
        cls, gcloud: str, project: str, log_dir: Path, rules: Path | None, port: int | None
    ) -> FirestoreEmulator:
        host = f"127.0.0.1:{port or free_port()}"
        log_path = log_dir / f"emulator-{host.replace(':', '-')}.log"

        env = dict(os.environ)
        # The machine may be offline; stop gcloud from phoning home or prompting.
        env["CLOUDSDK_CORE_DISABLE_PROMPTS"] = "1"
        env["CLOUDSDK_COMPONENT_MANAGER_DISABLE_UPDATE_CHECK"] = "true"
        env["CLOUDSDK_CORE_DISABLE_USAGE_REPORTING"] = "true"

        # Output goes to a file, not a PIPE: nobody reads a pipe while tests run,
        # and a full pipe buffer would block the emulator mid-test.
        with log_path.open("wb") as log:
            process = subprocess.Popen(  # noqa: S603 - fixed argv, no shell
                [
                    gcloud,
                    "emulators",
                    "firestore",
                    "start",
                    f"--host-port={host}",
                    "--quiet",
                    # Rules govern unauthenticated clients only; the tests' own
                    # client is the project owner and is not bound by them.
                    *([f"--rules={rules}"] if rules is not None else []),
                ],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                # gcloud (Python) -> bash wrapper -> java: killing only gcloud
                # orphans the JVM, so give them a group we can kill as a whole.
                start_new_session=True,
            )
        return cls(
            host=host, project=project, process=process, log_path=log_path, startup_seconds=0.0
        )

    def _wait_until_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                # Exited early (bad flag, port taken, no Java...): fail now
                # rather than after the whole timeout.
                raise FirestoreEmulatorError(
                    f"Firestore emulator exited with code {self.process.returncode} "
                    f"before answering on {self.host}.\n{self._log_tail()}"
                )
            try:
                status, body = self._request("GET", "/", timeout=1.0)
            except OSError:
                status, body = 0, b""
            # The emulator answers "Ok" on "/"; checking the body guards against
            # some other process having grabbed the port in the meantime.
            if status == 200 and body.strip() == b"Ok":
                return
            if time.monotonic() >= deadline:
                raise FirestoreEmulatorError(
                    f"Firestore emulator did not answer on {self.host} within "
                    f"{timeout:g} s.\n{self._log_tail()}"
                )
            time.sleep(0.1)

    def stop(self, grace: float = 10.0) -> None:
        """Kill the emulator's whole process group: SIGTERM, wait, then SIGKILL.

        Safe to call more than once.
        """
        self._seed_client = None
        if not stop_process_group(self.process, grace):
            raise FirestoreEmulatorError(
                f"Firestore emulator process group {self.process.pid} survived SIGKILL. Its "
                "members may be zombies that PID 1 of this container does not reap."
            )

    def reset(self) -> None:
        """Delete every document in the project's default database."""
        path = f"/emulator/v1/projects/{self.project}/databases/(default)/documents"
        status, body = self._request("DELETE", path, timeout=10.0)
        if status != 200:
            raise FirestoreEmulatorError(
                f"Resetting the Firestore emulator failed: HTTP {status}: {body[:500]!r}"
            )

    def client(self) -> firestore.Client:
        """Return a new real Firestore client talking to this emulator."""
        # The library reads FIRESTORE_EMULATOR_HOST only in Client.__init__
        # and keeps it on the instance, so setting it just for the constructor
        # is enough and does not leak into other tests or other emulators.
        with _env_var(_EMULATOR_HOST_ENV, self.host):
            # google-auth leaves AnonymousCredentials.__init__ unannotated.
            credentials = AnonymousCredentials()  # type: ignore[no-untyped-call]
            return firestore.Client(project=self.project, credentials=credentials)

    def seed(self, collection: str, documents: Sequence[Mapping[str, object]]) -> None:
        """Write documents; each dict's "id" is the document id, the rest its fields.

        ``collection`` may be a nested path such as "Projects/p1/Images".
        Typed Sequence/Mapping (read-only, so covariant) rather than
        list/dict so a ``list[dict[str, str]]`` is accepted too.
        """
        if self._seed_client is None:
            # One client for all seeding so we do not open a channel per call.
            self._seed_client = self.client()
        client = self._seed_client
        ref = client.collection(collection)
        for start in range(0, len(documents), _MAX_BATCH_WRITES):
            batch = client.batch()
            for document in documents[start : start + _MAX_BATCH_WRITES]:
                fields = dict(document)
                doc_id = fields.pop("id", None)
                if not isinstance(doc_id, str) or not doc_id:
                    raise ValueError(f"seed() needs a non-empty str 'id' in {document!r}")
                batch.set(ref.document(doc_id), fields)
            batch.commit()

    def _request(self, method: str, path: str, *, timeout: float) -> tuple[int, bytes]:
        # http.client rather than urllib: the scheme is fixed to plain HTTP and
        # there is no proxy lookup (an HTTP(S)_PROXY env var must not intercept
        # calls to localhost).
        hostname, port = self.host.rsplit(":", 1)
        conn = http.client.HTTPConnection(hostname, int(port), timeout=timeout)
        try:
            conn.request(method, path)
            response = conn.getresponse()
            return response.status, response.read()
        finally:
            conn.close()

    def _log_tail(self) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError as exc:
            return f"(could not read emulator log {self.log_path}: {exc})"
        return f"--- last output of {self.log_path} ---\n{text[-_LOG_TAIL_CHARS:]}"


@contextmanager
def _env_var(name: str, value: str) -> Iterator[None]:
    # Restore exactly what was there before, including "unset".
    previous = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = previous
