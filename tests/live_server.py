"""A real uvicorn serving the real app, in its own process, for HTTP and browser tests."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

import httpx2 as httpx

REPO_ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class LiveServer:
    """`uvicorn server.app:create_app --factory` with the given environment."""

    env: Mapping[str, str] = field(default_factory=dict)
    log_path: Path = field(default_factory=lambda: Path("/dev/null"))
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> LiveServer:
        # FIRESTORE_EMULATOR_HOST and friends leak in from the developer's shell
        # otherwise; each server gets exactly the environment its test names.
        base = site_free_environment()
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(  # noqa: S603 - our own command line
                [
                    sys.executable,
                    "-m",
                    "uvicorn",
                    "server.app:create_app",
                    "--factory",
                    "--host=127.0.0.1",
                    f"--port={self.port}",
                ],
                cwd=REPO_ROOT,
                env={**base, **self.env},
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"uvicorn exited with {self.process.returncode}:\n{self.log()}")
            try:
                httpx.get(f"{self.url}/api/content/slider", timeout=1.0)
                return self
            except httpx.TransportError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"uvicorn did not answer within {timeout} s:\n{self.log()}")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def json_log(self) -> list[dict[str, Any]]:
        """The log as JSON lines (LOG_FORMAT=json); a line that is not one fails the test."""
        return [json.loads(line) for line in self.log().splitlines() if line.strip()]

    def access_lines(
        self, path: str, *, at_least: int = 1, timeout: float = 5.0
    ) -> list[dict[str, Any]]:
        """The access-log lines of requests for `path` (LOG_FORMAT=json).

        The server writes a request's line just after sending the response,
        so a client can read the log a moment too early: this waits for
        `at_least` lines, up to `timeout`.
        """
        deadline = time.monotonic() + timeout
        while True:
            lines = self.log_lines(logger="server.access", path=path)
            if len(lines) >= at_least or time.monotonic() > deadline:
                return lines
            time.sleep(0.05)

    def log_lines(self, *, logger: str, **fields: object) -> list[dict[str, Any]]:
        """The JSON log lines of `logger` whose fields have the given values."""
        return [
            line
            for line in self.json_log()
            if line["logger"] == logger
            and all(line.get(key) == value for key, value in fields.items())
        ]

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


SITE_SETTINGS = (
    "CONTENT_SOURCE",
    "CONTENT_DIR",
    "COMPANY_FILE",
    "BUNDLES_DIR",
    "GOOGLE_CLOUD_PROJECT",
    "FIRESTORE_EMULATOR_HOST",
    "FIRESTORE_TIMEOUT_SECONDS",
    "RENDER_POOL_SIZE",
    "RENDER_TIMEOUT_SECONDS",
    "LOG_LEVEL",
    "LOG_FORMAT",
    "WEB_VITALS",
    "IMAGE_ROUTE",
    "IMAGE_CACHE_DIR",
    "IMAGE_CACHE_MB",
)


def site_free_environment() -> dict[str, str]:
    """This process's environment without the site's settings."""
    return {key: value for key, value in os.environ.items() if key not in SITE_SETTINGS}
