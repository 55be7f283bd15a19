"""The site as production starts it: the Procfile's `web:` command, on a loopback port."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

import httpx2 as httpx

from bench.context import REPO_ROOT
from tests.live_server import SITE_SETTINGS, free_port

PROCFILE = REPO_ROOT / "Procfile"
# uvicorn takes its worker count from this when --workers is not given.
_WORKERS_ENV = "WEB_CONCURRENCY"
_PORT_REFERENCE = re.compile(r"\$\{PORT(?::-[^}]*)?\}|\$PORT\b")


def procfile_command() -> list[str]:
    """The `web:` line of the Procfile, split into arguments ($PORT still in it)."""
    for line in PROCFILE.read_text(encoding="utf-8").splitlines():
        kind, _, command = line.partition(":")
        if kind.strip() == "web":
            return shlex.split(command.strip())
    raise RuntimeError(f"{PROCFILE} has no web: line")


def procfile_workers() -> int:
    """The number of server processes the Procfile starts."""
    return _procfile_workers_flag() or 1


def procfile_process_model() -> str:
    """The Procfile's process model, in a sentence for the notes."""
    flag = _procfile_workers_flag()
    if flag is not None:
        return f"the Procfile starts {flag} uvicorn worker(s) (--workers {flag})"
    return (
        "the Procfile's uvicorn has no --workers: 1 process (uvicorn would take "
        f"${_WORKERS_ENV} if the platform set it; the benchmark unsets it)"
    )


# --workers ${WEB_CONCURRENCY:-2}: the platform's value, else the default.
_WORKERS_DEFAULT = re.compile(r"\$\{" + _WORKERS_ENV + r":-(\d+)\}")


def _procfile_workers_flag() -> int | None:
    argv = procfile_command()
    for index, argument in enumerate(argv):
        if argument == "--workers":
            return _workers_value(argv[index + 1])
        if argument.startswith("--workers="):
            return _workers_value(argument.partition("=")[2])
    return None


def _workers_value(value: str) -> int:
    # The benchmark unsets the platform's variable, so its default applies.
    default = _WORKERS_DEFAULT.fullmatch(value)
    return int(default.group(1)) if default else int(value)


def server_argv(port: int, workers: int | None) -> list[str]:
    """The Procfile's command, bound to 127.0.0.1:port, with `workers` processes if given."""
    argv = [_PORT_REFERENCE.sub(str(port), argument) for argument in procfile_command()]
    if argv[0] != "uvicorn":
        raise RuntimeError(f"{PROCFILE}: expected a uvicorn command, found {argv[0]!r}")
    result = [sys.executable, "-m", "uvicorn"]
    skip_next = False
    for index, argument in enumerate(argv[1:], start=1):
        if skip_next:
            skip_next = False
            continue
        # The benchmark listens on loopback only, and says how many workers it runs.
        if argument in ("--host", "--workers"):
            skip_next = True
            continue
        if argument.startswith(("--host=", "--workers=")):
            continue
        result.append(argv[index])
    result.append("--host=127.0.0.1")
    if workers is not None:
        result.append(f"--workers={workers}")
    return result


@dataclass
class AppServer:
    """A running site. `env` is added to a clean environment (no site settings inherited)."""

    name: str
    env: Mapping[str, str]
    log_dir: Path
    workers: int | None = None
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.log_dir / f"{self.name}.log"

    def start(self, timeout: float = 60.0) -> AppServer:
        unset = {*SITE_SETTINGS, _WORKERS_ENV}
        base = {key: value for key, value in os.environ.items() if key not in unset}
        self.log_dir.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(  # noqa: S603 - our own command line
                server_argv(self.port, self.workers),
                cwd=REPO_ROOT,
                env={**base, **self.env},
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its workers share its group, stopped together
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name}: uvicorn exited: see {self.log_path}")
            try:
                # Any answer means the app is serving; this path reads no content.
                httpx.get(f"{self.url}/api/content/__bench_ready__", timeout=2.0)
                return self
            except httpx.TransportError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"{self.name}: no answer within {timeout:g} s: see {self.log_path}")

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
        if self.process is None:
            return []
        return process_tree(self.process.pid)

    def __enter__(self) -> AppServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


def process_tree(root: int) -> list[int]:
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
