"""nginx (Debian) serving one file: the physical reference for serving a page."""

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
from tests.live_server import free_port

# Minimal: no access log, every path nginx writes kept in the temporary folder.
# worker_processes auto: one per core, as a production nginx is set up.
_CONFIG = """\
daemon off;
worker_processes auto;
pid {root}/nginx.pid;
error_log {root}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    sendfile on;
    default_type text/html;
    client_body_temp_path {root}/client_body;
    proxy_temp_path {root}/proxy;
    fastcgi_temp_path {root}/fastcgi;
    uwsgi_temp_path {root}/uwsgi;
    scgi_temp_path {root}/scgi;
    server {{
        listen 127.0.0.1:{port};
        root {root}/www;
        index index.html;
    }}
}}
"""


@contextmanager
def serve_static_file(content: bytes, *, log_dir: Path) -> Iterator[str]:
    """Serve `content` as / with nginx; yields the URL; stops nginx after."""
    nginx = command_path("nginx")
    if nginx is None:
        raise RuntimeError("nginx is not installed")
    with tempfile.TemporaryDirectory(prefix="bench-nginx-") as folder:
        root = Path(folder)
        # As root, nginx's workers run as `nobody`: they must be able to read the file.
        root.chmod(0o755)
        (root / "www").mkdir(mode=0o755)
        (root / "www" / "index.html").write_bytes(content)
        port = free_port()
        config = root / "nginx.conf"
        config.write_text(_CONFIG.format(root=root, port=port), encoding="utf-8")
        log_dir.mkdir(parents=True, exist_ok=True)
        with (log_dir / "nginx.log").open("wb") as log:
            process = subprocess.Popen(  # noqa: S603 - fixed argv
                [nginx, "-p", str(root), "-c", str(config), "-e", str(root / "error.log")],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        try:
            url = f"http://127.0.0.1:{port}/"
            _wait_for(url, process)
            yield url
        finally:
            process.send_signal(signal.SIGQUIT)  # graceful: workers finish, then exit
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            error_log = root / "error.log"
            if error_log.exists():
                (log_dir / "nginx-error.log").write_bytes(error_log.read_bytes())


def _wait_for(url: str, process: subprocess.Popen[bytes], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"nginx exited with {process.returncode}")
        try:
            if httpx.get(url, timeout=1.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"nginx did not answer on {url} within {timeout:g} s")
