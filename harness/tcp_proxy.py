"""A TCP proxy between the server and Firestore: it counts the bytes the database sends
(bench/firestore_cost.py), and can make the open connections go silent both ways, with no
close and no reset, as a NAT or a flaky uplink does to an idle stream; new ones go through.
It can also stand for a database that stopped and started again (`down`), in a moment."""

from __future__ import annotations

import selectors
import socket
import socketserver
import threading

from harness.started import OnLoopback


class TcpProxy(OnLoopback):
    """127.0.0.1:`port` forwards to `upstream` ("host:port"); `pulled` counts what upstream sent."""

    def __init__(self, upstream: str) -> None:
        host, _, port = upstream.rpartition(":")
        self._upstream = (host, int(port))
        proxy = self

        class Connection(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                proxy._forward(self.request)

        # Not daemon threads: server_close() waits for every connection's.
        self._server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Connection)
        self.port: int = self._server.server_address[1]
        # Set: every connection is closed, as a stopped database's are, and new ones at once.
        self.down = threading.Event()
        self._lock = threading.Lock()
        self._open: list[threading.Event] = []  # each set once its connection is dropped
        self.accepted = 0
        self.pulled = 0  # bytes from upstream, every connection together

    def start(self) -> TcpProxy:
        threading.Thread(target=self._server.serve_forever, args=(0.1,), daemon=True).start()
        return self

    def drop_open(self) -> int:
        """Every connection open now goes silent; returns how many there were."""
        with self._lock:
            live = [dropped for dropped in self._open if not dropped.is_set()]
            for dropped in live:
                dropped.set()
        return len(live)

    def _forward(self, client: socket.socket) -> None:
        if self.down.is_set():
            return  # closed on return
        try:
            upstream = socket.create_connection(self._upstream, timeout=5)
        except OSError:
            return
        upstream.settimeout(None)
        dropped = threading.Event()
        with self._lock:
            self._open.append(dropped)
            self.accepted += 1
        peers = {client: upstream, upstream: client}
        with upstream, selectors.DefaultSelector() as selector:
            for sock in peers:
                selector.register(sock, selectors.EVENT_READ)
            while not (dropped.is_set() or self.down.is_set()):
                for key, _ in selector.select(timeout=0.1):
                    if dropped.is_set():
                        break  # from now on nothing is read nor written
                    source: socket.socket = key.fileobj  # type: ignore[assignment]
                    try:
                        data = source.recv(65536)
                        peers[source].sendall(data)
                    except OSError:
                        data = b""
                    if not data:
                        return
                    if source is upstream:
                        with self._lock:
                            self.pulled += len(data)
            # A dropped connection's sockets stay open, unread, until the proxy stops.
            self.down.wait()

    def stop(self) -> None:
        self.down.set()  # as the database's own connections close when it stops
        self._server.shutdown()
        self._server.server_close()
