"""A real uvicorn serving the real app, in its own process, for HTTP and browser tests."""

from __future__ import annotations

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
        base = {key: value for key, value in os.environ.items() if not _is_site_setting(key)}
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
    "IMAGE_ROUTE",
    "IMAGE_CACHE_DIR",
    "IMAGE_CACHE_MB",
)


def _is_site_setting(name: str) -> bool:
    return name in SITE_SETTINGS
