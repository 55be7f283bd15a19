"""The site as production starts it (the Procfile's `web:` command), on a loopback port:
the one way this project runs a real uvicorn for the tests, the benchmark and the scripts."""

from __future__ import annotations

import dataclasses
import errno
import itertools
import json
import os
import random
import re
import shlex
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.process_group import GroupServer, start_group, stop_group
from server.settings import REPO_ROOT, Settings

EPHEMERAL_PORTS = Path("/proc/sys/net/ipv4/ip_local_port_range")
_PORTS = random.SystemRandom()  # not the global generator, which tests may seed

# NAME=value before the command: the environment the platform's shell gives it.
_ASSIGNMENT = re.compile(r"[A-Z_][A-Z0-9_]*=")

# Every variable the site reads, its own and its libraries': none leaks in from
# the developer's shell, so each server gets exactly the settings its caller names.
SITE_SETTINGS = frozenset(
    {setting.name.upper() for setting in dataclasses.fields(Settings)}
    | {"FIRESTORE_EMULATOR_HOST", "FORWARDED_ALLOW_IPS", "PORT", "WEB_CONCURRENCY"}
    | {"FIREBASE_AUTH_EMULATOR_HOST", "STORAGE_EMULATOR_HOST"}
)


def free_port() -> int:
    """A loopback port free when asked, below the kernel's ephemeral range: the range it gives
    outgoing connections (and port 0) their ports from, so none of the tests' own connections
    can take it before the server binds it, as one once did."""
    lowest = int(EPHEMERAL_PORTS.read_text().split()[0])
    for _ in range(100):
        # Above the usual services' ports; where the range starts lower, any the kernel gives.
        port = _PORTS.randrange(20000, lowest) if lowest > 20000 else 0
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError as error:
                if error.errno == errno.EADDRINUSE:
                    continue
                raise
            bound: int = sock.getsockname()[1]
            return bound
    raise RuntimeError(f"no free loopback port between 20000 and {lowest} in 100 tries")


def site_free_environment() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key not in SITE_SETTINGS}


def procfile_line() -> str:
    """The Procfile's `web:` command, as the platform runs it."""
    lines = (REPO_ROOT / "Procfile").read_text(encoding="utf-8").splitlines()
    (command,) = [line.removeprefix("web:").strip() for line in lines if line.startswith("web:")]
    return command


def procfile_environment() -> dict[str, str]:
    """The variables the web line sets before its command (NAME=value ...)."""
    assignments = itertools.takewhile(_ASSIGNMENT.match, shlex.split(procfile_line()))
    return {name: value for name, _, value in (part.partition("=") for part in assignments)}


def procfile_default_workers() -> int:
    """The worker count of `--workers ${WEB_CONCURRENCY:-N}` when the platform sets none."""
    (workers,) = re.findall(r"\$\{WEB_CONCURRENCY:-(\d+)\}", procfile_line())
    return int(workers)


@dataclass
class LiveServer(GroupServer):
    """The Procfile's server with the given settings (`env`) and worker processes."""

    log_path: Path
    env: Mapping[str, str] = field(default_factory=dict)
    workers: int = 1
    port: int = field(default_factory=free_port)
    # The tree whose server package runs: another checkout for bench/variants.py.
    cwd: Path = REPO_ROOT

    def start(self) -> LiveServer:
        # Through bash, as the platform runs the line (bash execs uvicorn), on loopback; uvicorn
        # imports the server package of `cwd`, the project's environment first on PATH.
        command = re.sub(r"--host[ =]\S+", "--host=127.0.0.1", procfile_line())
        path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
        platform = {"PORT": str(self.port), "WEB_CONCURRENCY": str(self.workers), "PATH": path}
        env = {**site_free_environment(), **platform, **self.env}
        argv = ["/bin/bash", "-c", command]
        ready = f"{self.url}/healthz"  # liveness only: starting the server reads no content
        self.process = start_group(argv, self.log_path, ready, timeout=60, cwd=self.cwd, env=env)
        return self

    def stop(self) -> None:
        # The leader only: uvicorn's graceful shutdown stops its workers.
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            stop_group(self.process)

    def pids(self) -> list[int]:
        """The server process and every process under it (workers)."""
        return process_tree(self.process.pid) if self.process is not None else []

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def json_log(self) -> list[dict[str, Any]]:
        """The log's finished lines as JSON (LOG_FORMAT=json); a line that is not one fails the
        test. The last line is left out until its newline is written: it may be half-written."""
        finished = self.log().rpartition("\n")[0]
        return [json.loads(line) for line in finished.splitlines() if line.strip()]

    def log_lines(self, *, at_least: int = 0, **fields: object) -> list[dict[str, Any]]:
        """The JSON log lines (LOG_FORMAT=json) with the given fields (logger=..., path=...),
        once there are `at_least` (up to 5 s): an access line follows its response."""
        deadline = time.monotonic() + 5
        while True:
            lines = [line for line in self.json_log() if fields.items() <= line.items()]
            if len(lines) >= at_least or time.monotonic() > deadline:
                return lines
            time.sleep(0.05)


def process_tree(root: int) -> list[int]:
    """`root` and every process under it, from /proc."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with suppress(OSError):
            # The command name is in parentheses and may hold spaces: the parent id follows it.
            parents[int(stat.parent.name)] = int(stat.read_text().rpartition(")")[2].split()[1])
    tree = [root]
    for pid in tree:  # grows as it is read
        tree += [child for child, parent in parents.items() if parent == pid]
    return tree
