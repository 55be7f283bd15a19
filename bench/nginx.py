"""Debian's nginx for the benchmark: started on a configuration, stopped after.

Both uses (throughput's one static page, bench/edge_server.py's edge) run it
the same way: the configuration checked first (`nginx -t`), the process until
the `with` block ends, a graceful stop, and its logs kept.
"""

from __future__ import annotations

import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx2 as httpx

from bench.prerequisites import command_path
from harness.live_server import free_port

# The logs nginx writes in its folder, copied to the run's logs as nginx-<name>.
_LOGS = ("error.log", "access.log")


def preamble(root: Path) -> str:
    """The start of every configuration here: in the foreground, one worker per core
    as in production, and every file nginx writes kept in `root`."""
    return f"""\
daemon off;
worker_processes auto;
pid {root}/nginx.pid;
error_log {root}/error.log warn;
events {{ worker_connections 1024; }}
"""


def temporary_paths(root: Path) -> str:
    return "".join(
        f"    {kind}_temp_path {root}/{kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )


@contextmanager
def serve_static_file(content: bytes, *, log_dir: Path) -> Iterator[str]:
    """Serve `content` as / with nginx, access log off; yields the URL; stops nginx after."""
    with tempfile.TemporaryDirectory(prefix="bench-nginx-") as folder:
        root = Path(folder)
        # As root, nginx's workers run as `nobody`: they must be able to read the file.
        root.chmod(0o755)
        (root / "www").mkdir(mode=0o755)
        (root / "www" / "index.html").write_bytes(content)
        port = free_port()
        config = root / "nginx.conf"
        config.write_text(
            preamble(root)
            + "http {\n    access_log off;\n    sendfile on;\n    default_type text/html;\n"
            + temporary_paths(root)
            + f"    server {{ listen 127.0.0.1:{port}; root {root}/www; index index.html; }}\n}}\n",
            encoding="utf-8",
        )
        url = f"http://127.0.0.1:{port}/"
        with running_nginx(root, config, ready_url=url, log_dir=log_dir):
            yield url


@contextmanager
def running_nginx(root: Path, config: Path, *, ready_url: str, log_dir: Path) -> Iterator[None]:
    """nginx with `config` (paths under `root`) until the block ends, once `ready_url` answers."""
    nginx = command_path("nginx")
    if nginx is None:
        raise RuntimeError("nginx is not installed")
    argv = [nginx, "-p", str(root), "-c", str(config), "-e", str(root / "error.log")]
    checked = subprocess.run([*argv, "-t"], capture_output=True, text=True, check=False)  # noqa: S603
    if checked.returncode != 0:
        raise RuntimeError(f"nginx rejected its configuration:\n{checked.stderr}")
    log_dir.mkdir(parents=True, exist_ok=True)
    with (log_dir / "nginx.log").open("wb") as log:
        process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)  # noqa: S603
    try:
        _wait_for(ready_url, process)
        yield
    finally:
        process.send_signal(signal.SIGQUIT)  # graceful: workers finish, then exit
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for name in _LOGS:
            written = root / name
            if written.exists():
                (log_dir / f"nginx-{name}").write_bytes(written.read_bytes())


def _wait_for(url: str, process: subprocess.Popen[bytes], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    # verify=False: the edge's certificate is a throw-away one of our own.
    with httpx.Client(verify=False, timeout=1.0) as client:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"nginx exited with {process.returncode}")
            try:
                client.get(url)  # any answer: nginx is serving
                return
            except httpx.TransportError:
                time.sleep(0.05)
    raise RuntimeError(f"nginx did not answer on {url} within {timeout:g} s")
