"""Debian's nginx as a TLS + HTTP/2 edge (bench/edge_config.py), started and stopped."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx2 as httpx

from bench.edge_config import BROTLI_STATIC_MODULE, EdgeLayout, StaticFile, nginx_config
from bench.prerequisites import command_path


def self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    """A throw-away certificate for 127.0.0.1 and its key, made now, in `folder`."""
    certificate, key = folder / "edge.crt", folder / "edge.key"
    subprocess.run(  # noqa: S603 - fixed argv
        [  # noqa: S607 - Debian's openssl
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1,DNS:localhost",
            "-keyout",
            str(key),
            "-out",
            str(certificate),
        ],
        check=True,
        capture_output=True,
    )
    return certificate, key


@contextmanager
def run_edge(layout: EdgeLayout, files: Sequence[StaticFile], *, log_dir: Path) -> Iterator[None]:
    """nginx with the edge's configuration until the block ends; its logs copied to log_dir."""
    nginx = command_path("nginx")
    if nginx is None:
        raise RuntimeError("nginx is not installed")
    module = BROTLI_STATIC_MODULE if BROTLI_STATIC_MODULE.exists() else None
    config = layout.root / "nginx.conf"
    config.write_text(nginx_config(layout, files, brotli_module=module), encoding="utf-8")
    log_dir.mkdir(parents=True, exist_ok=True)
    (log_dir / "nginx.conf").write_text(config.read_text(encoding="utf-8"), encoding="utf-8")
    argv = [nginx, "-p", str(layout.root), "-c", str(config), "-e", str(layout.root / "error.log")]
    checked = subprocess.run([*argv, "-t"], capture_output=True, text=True, check=False)  # noqa: S603
    if checked.returncode != 0:
        raise RuntimeError(f"nginx rejected its configuration:\n{checked.stderr}")
    with (log_dir / "nginx.log").open("wb") as log:
        process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)  # noqa: S603
    try:
        _wait_for(f"https://127.0.0.1:{layout.static_port}/", process)
        yield
    finally:
        process.send_signal(signal.SIGQUIT)  # graceful: workers finish, then exit
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for name in ("error.log", "access.log"):
            written = layout.root / name
            if written.exists():
                (log_dir / f"nginx-{name}").write_bytes(written.read_bytes())


def _wait_for(url: str, process: subprocess.Popen[bytes], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    # verify=False: the certificate is our own throw-away one.
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
