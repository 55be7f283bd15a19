"""Debian's nginx as a TLS + HTTP/2 edge (bench/edge_config.py), started and stopped."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from bench.edge_config import BROTLI_STATIC_MODULE, EdgeLayout, StaticFile, nginx_config
from bench.nginx import running_nginx


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
    module = BROTLI_STATIC_MODULE if BROTLI_STATIC_MODULE.exists() else None
    config = layout.root / "nginx.conf"
    config.write_text(nginx_config(layout, files, brotli_module=module), encoding="utf-8")
    log_dir.mkdir(parents=True, exist_ok=True)
    (log_dir / "nginx.conf").write_text(config.read_text(encoding="utf-8"), encoding="utf-8")
    ready = f"https://127.0.0.1:{layout.static_port}/"
    with running_nginx(layout.root, config, ready_url=ready, log_dir=log_dir):
        yield
