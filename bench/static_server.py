"""nginx (Debian) serving one file: the physical reference for serving a page."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.nginx import running_nginx
from harness.live_server import free_port

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
    with tempfile.TemporaryDirectory(prefix="bench-nginx-") as folder:
        root = Path(folder)
        # As root, nginx's workers run as `nobody`: they must be able to read the file.
        root.chmod(0o755)
        (root / "www").mkdir(mode=0o755)
        (root / "www" / "index.html").write_bytes(content)
        port = free_port()
        config = root / "nginx.conf"
        config.write_text(_CONFIG.format(root=root, port=port), encoding="utf-8")
        url = f"http://127.0.0.1:{port}/"
        with running_nginx(root, config, ready_url=url, log_dir=log_dir):
            yield url
