"""The site as production starts it, on a loopback port: the one way this project runs
a real uvicorn for the tests, the benchmark and the scripts.

`LiveServer` runs the Procfile's `web:` command (its flags: proxy headers,
graceful shutdown, no Server header), bound to 127.0.0.1, with exactly the
settings its caller names.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx

from harness.started import Started
from server.settings import REPO_ROOT, Settings

PROCFILE = REPO_ROOT / "Procfile"
# uvicorn takes its worker count from this when --workers is not given.
WORKERS_ENV = "WEB_CONCURRENCY"
_PORT_REFERENCE = re.compile(r"\$\{PORT(?::-[^}]*)?\}|\$PORT\b")
# NAME=value before the command: the environment the platform's shell gives it.
_ASSIGNMENT = re.compile(r"[A-Z_][A-Z0-9_]*=")
# --workers ${WEB_CONCURRENCY:-2}: the platform's value, else the default.
_WORKERS_DEFAULT = re.compile(r"\$\{" + WORKERS_ENV + r":-(\d+)\}")

# Every variable the site reads, its own and its libraries': none leaks in from
# the developer's shell, so each server gets exactly the settings its caller names.
SITE_SETTINGS = frozenset(
    {setting.name.upper() for setting in dataclasses.fields(Settings)}
    | {"FIRESTORE_EMULATOR_HOST", "FORWARDED_ALLOW_IPS", "PORT", WORKERS_ENV}
    | {"FIREBASE_AUTH_EMULATOR_HOST", "STORAGE_EMULATOR_HOST"}
)


def free_port() -> int:
    """A loopback port the kernel says is free: not reserved, another process may take it first."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def site_free_environment() -> dict[str, str]:
    """This process's environment without the site's settings."""
    return {key: value for key, value in os.environ.items() if key not in SITE_SETTINGS}


def procfile_line(process: str = "web") -> str:
    """The command of one process type of the Procfile, as the platform runs it."""
    for line in PROCFILE.read_text(encoding="utf-8").splitlines():
        kind, _, command = line.partition(":")
        if kind.strip() == process:
            return command.strip()
    raise RuntimeError(f"{PROCFILE} has no {process}: line")


def procfile_environment() -> dict[str, str]:
    """The variables the web line sets before its command (NAME=value ...)."""
    assignments = itertools.takewhile(_ASSIGNMENT.match, shlex.split(procfile_line()))
    return {name: value for name, _, value in (part.partition("=") for part in assignments)}


def procfile_default_workers() -> int:
    """The worker count of `--workers ${WEB_CONCURRENCY:-N}` when the platform sets none."""
    match = _WORKERS_DEFAULT.search(procfile_line())
    if match is None:
        raise RuntimeError(f"{PROCFILE}: no --workers ${{{WORKERS_ENV}:-N}}")
    return int(match.group(1))


def procfile_process_model() -> str:
    """The Procfile's process model, in a sentence for the benchmark's notes."""
    workers = procfile_default_workers()
    return (
        f"the Procfile starts {workers} uvicorn worker(s) (--workers ${{{WORKERS_ENV}:-{workers}}})"
    )


def server_argv(port: int, workers: int | None) -> list[str]:
    """The Procfile's command, on 127.0.0.1:port, with `workers` processes (None: one)."""
    argv = [_PORT_REFERENCE.sub(str(port), part) for part in shlex.split(procfile_line())]
    argv = argv[len(procfile_environment()) :]
    if argv[0] != "uvicorn":
        raise RuntimeError(f"{PROCFILE}: expected a uvicorn command, found {argv[0]!r}")
    result = [sys.executable, "-m", "uvicorn"]
    arguments = iter(argv[1:])
    for argument in arguments:
        # Loopback only, and the caller says how many workers.
        if argument in ("--host", "--workers"):
            next(arguments, None)
        elif not argument.startswith(("--host=", "--workers=")):
            result.append(argument)
    result.append("--host=127.0.0.1")
    if workers is not None:
        result.append(f"--workers={workers}")
    return result


@dataclass
class LiveServer(Started):
    """The Procfile's server with the given settings (`env`) and worker processes."""

    env: Mapping[str, str] = field(default_factory=dict)
    log_path: Path = field(default_factory=lambda: Path("/dev/null"))
    workers: int | None = None
    port: int = field(default_factory=free_port)
    # The tree whose server package runs: another checkout for bench/variants.py.
    cwd: Path = REPO_ROOT
    process: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> LiveServer:
        if self.log_path.parent != Path("/dev"):
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(  # noqa: S603 - our own command line
                server_argv(self.port, self.workers),
                cwd=self.cwd,
                env={**site_free_environment(), **procfile_environment(), **self.env},
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its workers share its group, stopped together
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"uvicorn exited with {self.process.returncode}:\n{self.log()}")
            try:
                # Liveness only: starting the server reads no content.
                httpx.get(f"{self.url}/healthz", timeout=2.0)
                return self
            except httpx.TransportError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"uvicorn did not answer within {timeout:g} s:\n{self.log()}")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def pids(self) -> list[int]:
        """The server process and every process under it (workers)."""
        return process_tree(self.process.pid) if self.process is not None else []

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


def process_tree(root: int) -> list[int]:
    """`root` and every process under it, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # The command name is in parentheses and may hold spaces: parse after it.
        fields = stat.rpartition(")")[2].split()
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return tree
