"""The Procfile's web command, run as a platform runs it: it serves, then stops on SIGTERM."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx
import pytest

from harness.live_server import (
    free_port,
    procfile_default_workers,
    procfile_line,
    site_free_environment,
)
from server.settings import REPO_ROOT


def graceful_timeout(command: str) -> int:
    match = re.search(r"--timeout-graceful-shutdown[ =](\d+)", command)
    assert match, "the web command sets no --timeout-graceful-shutdown"
    return int(match.group(1))


def test_the_web_command_has_what_production_needs() -> None:
    command = procfile_line()
    assert "server.app:create_app --factory" in command
    assert "--host 0.0.0.0" in command
    assert "--port $PORT" in command
    assert f"--workers ${{WEB_CONCURRENCY:-{procfile_default_workers()}}}" in command
    assert "--proxy-headers" in command
    assert "--no-server-header" in command
    assert graceful_timeout(command) < 30  # platforms kill 30 s after SIGTERM (some sooner)


@pytest.mark.parametrize("workers", ["1", None], ids=["WEB_CONCURRENCY=1", "default workers"])
def test_the_web_command_serves_and_stops_cleanly_on_sigterm(
    tmp_path: Path, workers: str | None
) -> None:
    command = procfile_line()
    port = free_port()
    env = {
        **site_free_environment(),
        "PORT": str(port),
        # The platform's slug has the project's environment on PATH.
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "LOG_FORMAT": "json",
    }
    env.pop("WEB_CONCURRENCY", None)
    if workers is not None:
        env["WEB_CONCURRENCY"] = workers
    log_path = tmp_path / "web.log"
    with log_path.open("wb") as log:
        # Through bash, as Heroku runs the line (bash then execs uvicorn); in a
        # session of its own, so SIGTERM reaches every process of it, as a
        # platform stopping an instance sends it.
        process = subprocess.Popen(  # noqa: S603 - the project's own Procfile
            ["/bin/bash", "-c", command],
            cwd=REPO_ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        response = wait_for_page(f"http://127.0.0.1:{port}/", process, log_path)
        started = time.monotonic()
        os.killpg(process.pid, signal.SIGTERM)
        returncode = process.wait(timeout=graceful_timeout(command) + 10)
        stopped_in = time.monotonic() - started
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    output = log_path.read_text(errors="replace")
    assert response.status_code == 200
    assert "Fine Stone" in response.text
    assert "server" not in response.headers  # --no-server-header
    # uvicorn shuts down, then re-raises the SIGTERM it caught, so that its
    # exit says why it stopped.
    assert returncode in (0, -signal.SIGTERM), output
    assert stopped_in < graceful_timeout(command)
    workers_started = int(workers or procfile_default_workers())
    assert output.count("Application shutdown complete") == workers_started
    assert "Traceback" not in output
    assert "ERROR" not in output


def wait_for_page(url: str, process: subprocess.Popen[bytes], log_path: Path) -> httpx.Response:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(
                f"the web command exited with {process.returncode}:\n{log_path.read_text()}"
            )
        try:
            return httpx.get(url, timeout=2.0)
        except httpx.TransportError:
            time.sleep(0.2)
    pytest.fail(f"the web command did not answer within 60 s:\n{log_path.read_text()}")
