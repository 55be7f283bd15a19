"""A server the harness runs in a process group of its own, with all it starts: an emulator
is a chain of processes (gcloud, a shell wrapper, a JVM; the Firebase CLI and its helpers),
and stopping only the leader would orphan the rest."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import time
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

import httpx2 as httpx

from harness.started import OnLoopback


def start_group(
    argv: list[str],
    log: Path,
    ready_url: str,
    timeout: float,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    """Start `argv` with its output appended to `log`; return once `ready_url` answers 2xx.
    RuntimeError (with the end of the log) if it exits first or does not answer in time."""
    log.parent.mkdir(parents=True, exist_ok=True)
    # A file, not a pipe: nobody reads a pipe while tests run, and a full one blocks the server.
    with log.open("ab") as output:
        process = subprocess.Popen(  # noqa: S603 - our own command lines
            argv,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            cwd=cwd,
            env=env,
        )
    deadline = time.monotonic() + timeout
    try:
        while process.poll() is None and time.monotonic() < deadline:
            with suppress(httpx.TransportError):
                if httpx.get(ready_url, timeout=2.0, trust_env=False).is_success:
                    return process
            time.sleep(0.1)
    except BaseException:
        stop_group(process)  # never a half-started server left behind, even on KeyboardInterrupt
        raise
    code = process.returncode
    stop_group(process)
    failure = f"exited with {code}" if code is not None else f"did not answer within {timeout:g} s"
    tail = log.read_text(errors="replace")[-4000:]
    raise RuntimeError(f"{shlex.join(argv)} {failure}; the end of {log}:\n{tail}")


def stop_group(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM the group, then SIGKILL what outlives 10 s. Safe to call more than once."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with suppress(ProcessLookupError):
            # start_new_session made the process its group's leader.
            os.killpg(process.pid, sig)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            # Reap the leader: an unreaped zombie keeps the group "alive" for killpg.
            process.poll()
            try:
                os.killpg(process.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)
    raise RuntimeError(
        f"process group {process.pid} survived SIGKILL: its members may be zombies"
        " that PID 1 of this container does not reap"
    )


@dataclass
class GroupServer(OnLoopback):
    """A companion whose start() runs `process` with start_group; stop() stops its group."""

    process: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)

    @property
    def url(self) -> str:
        return f"http://{self.host}"

    def stop(self) -> None:
        if self.process is not None:
            stop_group(self.process)
