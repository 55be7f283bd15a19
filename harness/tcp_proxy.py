"""A TCP proxy between the server and Firestore: it counts bytes, and can drop connections silently.

The count is what the database sent, measured at the connection (the cost
benchmark, bench/firestore_cost.py). The drop is what a NAT, a load balancer
or a flaky uplink does to an idle stream: the connections open at one moment
stop carrying bytes, both ways, with no close and no reset (their sockets stay
open and unread until the proxy stops), while new connections go through.
"""

from __future__ import annotations

import selectors
import socket
import threading
from threading import Event

from harness.started import Started


class TcpProxy(Started):
    """127.0.0.1:`port` forwards to `upstream` ("host:port"); `pulled` counts what upstream sent."""

    def __init__(self, upstream: str) -> None:
        host, _, port = upstream.rpartition(":")
        self._upstream = (host, int(port))
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.1)
        self.port: int = self._listener.getsockname()[1]
        self._stopping = Event()
        self._lock = threading.Lock()
        self._open: list[Event] = []  # set once the connection is dropped
        self._sockets: list[socket.socket] = []
        self._threads = [threading.Thread(target=self._accept, name="proxy-accept", daemon=True)]
        self.accepted = 0
        self.pulled = 0  # bytes from upstream, every connection together

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> TcpProxy:
        self._threads[0].start()
        return self

    def drop_open(self) -> int:
        """Every connection open now goes silent; returns how many there were."""
        with self._lock:
            live = [dropped for dropped in self._open if not dropped.is_set()]
            for dropped in live:
                dropped.set()
        return len(live)

    def _accept(self) -> None:
        while not self._stopping.is_set():
            try:
                client, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            try:
                upstream = socket.create_connection(self._upstream, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            client.settimeout(None)
            dropped = Event()
            thread = threading.Thread(
                target=self._pump, args=(client, upstream, dropped), name="proxy-pump", daemon=True
            )
            with self._lock:
                self._open.append(dropped)
                self._sockets += [client, upstream]
                self._threads.append(thread)
                self.accepted += 1
            thread.start()

    def _pump(self, client: socket.socket, upstream: socket.socket, dropped: Event) -> None:
        peers = {client: upstream, upstream: client}
        with selectors.DefaultSelector() as selector:
            for sock in peers:
                selector.register(sock, selectors.EVENT_READ)
            while not self._stopping.is_set() and not dropped.is_set():
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
                        client.close()
                        upstream.close()
                        return
                    if source is upstream:
                        with self._lock:
                            self.pulled += len(data)

    def stop(self) -> None:
        self._stopping.set()
        self._listener.close()
        for thread in self._threads:
            thread.join(timeout=5)
        for sock in self._sockets:
            sock.close()
