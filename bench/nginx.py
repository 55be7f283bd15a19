"""Debian's nginx for the benchmark: throughput's one static page over plain HTTP, and
the edge's two TLS + HTTP/2 server blocks (docs/benchmarks.md)."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from bench.page_copy import StaticFile, write_copy
from bench.prerequisites import BROTLI_STATIC_MODULE, command_path
from harness.live_server import free_port
from harness.process_group import start_group, stop_group


@contextmanager
def running_nginx(
    files: Sequence[StaticFile], http: str, *, ready_url: str, log_dir: Path, main: str = ""
) -> Iterator[None]:
    """nginx in the foreground, one worker per core as in production, until the block ends,
    once `ready_url` answers 2xx: `files` in www/ of a temporary prefix, the `http` block (its
    relative paths are in that prefix), `main` before it; nginx.conf and the logs in log_dir."""
    temporary = "".join(
        f"    {kind}_temp_path {kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    error_log = _quoted(str(log_dir / "nginx-error.log"))
    config = f"""\
{main}daemon off;
worker_processes auto;
pid nginx.pid;
error_log {error_log} warn;
events {{ worker_connections 1024; }}
http {{
    sendfile on;
{temporary}{http}}}
"""
    log_dir.mkdir(parents=True, exist_ok=True)
    (log_dir / "nginx.conf").write_text(config, encoding="utf-8")
    with tempfile.TemporaryDirectory(prefix="bench-nginx-") as root:
        write_copy(files, Path(root) / "www")
        # nginx's workers run as `nobody` when the master is root: everything readable.
        for path in [Path(root), *Path(root).rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        argv = [command_path("nginx") or "nginx", "-p", root, "-c", str(log_dir / "nginx.conf")]
        argv += ["-e", str(log_dir / "nginx-error.log")]
        process = start_group(argv, log_dir / "nginx.log", ready_url, timeout=10)
        try:
            yield
        finally:
            stop_group(process)


@contextmanager
def serve_static_file(content: bytes, *, log_dir: Path) -> Iterator[str]:
    """Serve `content` as / with nginx, access log off; yields the URL; stops nginx after."""
    port = free_port()
    page = StaticFile(path="/", content_type="text/html", headers={}, body=content)
    http = (
        "    access_log off;\n    default_type text/html;\n"
        f"    server {{ listen 127.0.0.1:{port}; root www; index index.html; }}\n"
    )
    url = f"http://127.0.0.1:{port}/"
    with running_nginx([page], http, ready_url=url, log_dir=log_dir):
        yield url


@contextmanager
def run_edge(
    app_port: int, files: Sequence[StaticFile], *, log_dir: Path
) -> Iterator[dict[str, str]]:
    """nginx in front of the app at `app_port`, serving `files` as the static copy, until the
    block ends; yields the origins: "app" through the edge, "static" the copy."""
    edge_port, static_port, ready_port = free_port(), free_port(), free_port()
    locations = "\n".join(_static_location(item) for item in files)
    with tempfile.TemporaryDirectory(prefix="bench-edge-") as keys:
        # A throw-away certificate for 127.0.0.1 and its key.
        openssl = "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
        openssl += " -days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1,DNS:localhost"
        argv = [*openssl.split(), "-keyout", f"{keys}/edge.key", "-out", f"{keys}/edge.crt"]
        subprocess.run(argv, check=True, capture_output=True)  # noqa: S603 - fixed argv
        # nginx 1.22 syntax: `listen ... ssl http2`.
        http = f"""\
    log_format edge '$server_port $status $request_method "$request_uri" $body_bytes_sent '
                    '"$sent_http_content_encoding" "$http_accept_encoding"';
    access_log {_quoted(str(log_dir / "nginx-access.log"))} edge;
    tcp_nopush on;
    server_tokens off;
    ssl_certificate {keys}/edge.crt;
    ssl_certificate_key {keys}/edge.key;
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_session_cache shared:edge:1m;
    gzip off;

    upstream app {{
        server 127.0.0.1:{app_port};
        keepalive 16;
    }}

    server {{
        listen 127.0.0.1:{edge_port} ssl http2;
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
        listen 127.0.0.1:{static_port} ssl http2;
        root www;
        brotli_static on;
        gzip_static on;
        location / {{ return 404; }}
{locations}
    }}

    server {{ listen 127.0.0.1:{ready_port}; return 204; }}
"""
        main = f"load_module {_quoted(str(BROTLI_STATIC_MODULE))};\n"
        ready = f"http://127.0.0.1:{ready_port}/"
        with running_nginx(files, http, ready_url=ready, log_dir=log_dir, main=main):
            yield {
                "app": f"https://127.0.0.1:{edge_port}",
                "static": f"https://127.0.0.1:{static_port}",
            }


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
