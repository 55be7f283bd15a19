"""Debian's nginx as the edge: TLS + HTTP/2 in front of the app, and a static copy.

One nginx, two server blocks on two loopback ports (two origins, so a page's
same-origin paths mean the same thing on both):
- the app's edge proxies to uvicorn over HTTP/1.1 with keep-alive, as a
  platform router or CDN does, and passes Accept-Encoding through, so the
  app's own brotli is what the browser gets (nginx compresses nothing there);
- the static copy serves each captured file at its own path, with the content
  type and headers the app sent and brotli/gzip files made beforehand.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bench.nginx import preamble, running_nginx, temporary_paths
from bench.prerequisites import BROTLI_STATIC_MODULE
from harness.live_server import free_port


@dataclass(frozen=True, kw_only=True)
class StaticFile:
    """One response of the app, kept as a file of the static copy."""

    path: str  # URL path, decoded, as nginx matches it: "/assets/entry-X.js"
    file: str  # relative to the copy's root: "assets/entry-X.js", "projects/index.html"
    content_type: str
    # Headers the app sent with it that a browser acts on (caching, security).
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class EdgeLayout:
    root: Path  # nginx's prefix: its pid, logs, temporary folders, certificate, static copy
    app_port: int  # uvicorn, plain HTTP/1.1 on loopback
    edge_port: int = field(default_factory=free_port)  # TLS + HTTP/2 in front of the app
    static_port: int = field(default_factory=free_port)  # TLS + HTTP/2 serving the copy

    @property
    def certificate(self) -> Path:
        return self.root / "edge.crt"

    @property
    def private_key(self) -> Path:
        return self.root / "edge.key"

    @property
    def static_root(self) -> Path:
        return self.root / "www"

    @property
    def edge_origin(self) -> str:
        return f"https://127.0.0.1:{self.edge_port}"

    @property
    def static_origin(self) -> str:
        return f"https://127.0.0.1:{self.static_port}"


def nginx_config(
    layout: EdgeLayout, files: Sequence[StaticFile], *, brotli_module: Path | None
) -> str:
    """nginx.conf for the two server blocks (nginx 1.22 syntax: `listen ... ssl http2`)."""
    root = layout.root
    load = f"load_module {_quoted(str(brotli_module))};\n" if brotli_module else ""
    precompressed = "brotli_static on;\n        " if brotli_module else ""
    locations = "\n".join(_static_location(item) for item in files)
    return f"""\
{load}{preamble(root)}http {{
    log_format edge '$server_port $status $request_method "$request_uri" $body_bytes_sent '
                    '"$sent_http_content_encoding" "$http_accept_encoding"';
    access_log {root}/access.log edge;
    sendfile on;
    tcp_nopush on;
    server_tokens off;
{temporary_paths(root)}    ssl_certificate {layout.certificate};
    ssl_certificate_key {layout.private_key};
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_session_cache shared:edge:1m;
    gzip off;

    upstream app {{
        server 127.0.0.1:{layout.app_port};
        keepalive 16;
    }}

    server {{
        listen 127.0.0.1:{layout.edge_port} ssl http2;
        location / {{
            proxy_pass http://app;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host:$server_port;
            proxy_set_header Accept-Encoding $http_accept_encoding;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
        }}
    }}

    server {{
        listen 127.0.0.1:{layout.static_port} ssl http2;
        root {layout.static_root};
        {precompressed}gzip_static on;
        location / {{ return 404; }}
{locations}
    }}
}}
"""


def _static_location(item: StaticFile) -> str:
    # An exact location per file: its own content type (an /img URL ending in
    # .jpg may hold AVIF), its own headers, and no extension guessing.
    headers = "".join(
        f"            add_header {name} {_quoted(value)} always;\n"
        for name, value in sorted(item.headers.items())
    )
    return (
        f"        location = {_quoted(item.path)} {{\n"
        f"            types {{ }}\n"
        f"            default_type {_quoted(item.content_type)};\n"
        f"{headers}"
        f"            try_files {_quoted('/' + item.file)} =404;\n"
        f"        }}"
    )


def _quoted(value: str) -> str:
    """An nginx string literal: double quotes, with backslash and quote escaped."""
    # nginx expands $ in most values and has no escape for it outside regexes.
    if "$" in value or any(ord(character) < 0x20 for character in value):
        raise ValueError(f"cannot write {value!r} as an nginx value")
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def _self_signed_certificate(layout: EdgeLayout) -> None:
    """A throw-away certificate for 127.0.0.1 and its key, made now."""
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
            str(layout.private_key),
            "-out",
            str(layout.certificate),
        ],
        check=True,
        capture_output=True,
    )


@contextmanager
def run_edge(layout: EdgeLayout, files: Sequence[StaticFile], *, log_dir: Path) -> Iterator[None]:
    """nginx with the edge's configuration until the block ends; its logs copied to log_dir.

    The certificate is made for the run; `files` must already be in the layout's static_root.
    """
    _self_signed_certificate(layout)
    layout.static_root.mkdir(mode=0o755, exist_ok=True)
    module = BROTLI_STATIC_MODULE if BROTLI_STATIC_MODULE.exists() else None
    config = layout.root / "nginx.conf"
    config.write_text(nginx_config(layout, files, brotli_module=module), encoding="utf-8")
    log_dir.mkdir(parents=True, exist_ok=True)
    (log_dir / "nginx.conf").write_text(config.read_text(encoding="utf-8"), encoding="utf-8")
    ready = f"https://127.0.0.1:{layout.static_port}/"
    with running_nginx(layout.root, config, ready_url=ready, log_dir=log_dir):
        yield
