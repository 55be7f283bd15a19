"""Stop a process the harness started with `start_new_session=True`, and all it started.

An emulator is a chain of processes (gcloud, a shell wrapper, a JVM; the Firebase
CLI and its helpers): stopping only the leader orphans the rest, so the whole
group gets SIGTERM, then SIGKILL if it outlives the grace period.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from contextlib import suppress


def stop_process_group(process: subprocess.Popen[bytes], grace: float = 10.0) -> bool:
    """SIGTERM the group, wait, then SIGKILL; whether it is gone. Safe to call more than once."""
    pgid = process.pid  # start_new_session made it the group leader.
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pgid, sig)
        except ProcessLookupError:
            break
        if _wait_for_group_exit(process, pgid, grace):
            break
    # Reap our direct child so it does not linger as a zombie.
    with suppress(subprocess.TimeoutExpired):
        process.wait(timeout=grace)
    return not _group_alive(pgid)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def _wait_for_group_exit(process: subprocess.Popen[bytes], pgid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while True:
        # Reap the leader as soon as it exits: an unreaped zombie leader would
        # keep the group "alive" for killpg(pgid, 0).
        process.poll()
        if not _group_alive(pgid):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)
