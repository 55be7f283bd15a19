"""A web server on loopback, in a thread, serving photos good and bad."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from contextlib import suppress
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from harness.started import Started


class PhotoServer(Started):
    """`routes`: path -> (status, headers, body). Two paths behave on their own:
    /slow answers after `slow_seconds`; /endless streams bytes until the client leaves."""

    def __init__(
        self,
        routes: Mapping[str, tuple[int, Mapping[str, str], bytes]],
        *,
        slow_seconds: float = 3.0,
    ) -> None:
        self.requests: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                server.requests.append(self.path)
                if self.path == "/slow":
                    time.sleep(slow_seconds)
                if self.path == "/endless":
                    self._endless()
                    return
                status, headers, body = routes.get(self.path, (404, {}, b"not found"))
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                with suppress(OSError):  # a client that gave up (the /slow one) has hung up
                    self.wfile.write(body)

            def _endless(self) -> None:
                # No Content-Length: only counting what arrives can stop it.
                self.send_response(200)
                self.send_header("Content-Type", "image/jpeg")
                self.end_headers()
                try:
                    for _ in range(10_000):
                        self.wfile.write(b"\xff" * 65536)
                except OSError:
                    return  # the client hung up, as it should

            def log_message(self, format: str, *args: object) -> None:
                return  # quiet

        # Not daemon threads: stop() waits for every request, so none outlives its
        # test and writes into the next one (test_photo_keys counts filesystem calls).
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = False
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        port: int = self._httpd.server_address[1]
        return port

    def url(self, path: str, *, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    def start(self) -> PhotoServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
