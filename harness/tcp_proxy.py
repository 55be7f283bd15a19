"""A TCP proxy between the server and Firestore: it counts bytes, and can drop connections silently.

The count is what the database sent, measured at the connection (the cost
benchmark, bench/firestore_cost.py). The drop is what a NAT, a load balancer
or a flaky uplink does to an idle stream: at one moment the connections already
open stop carrying bytes, both ways, with no close and no reset, while new
connections go through as before. `drop_open()` does exactly that: the open
connections' sockets stay open and unread until the proxy stops.
"""

from __future__ import annotations

import selectors
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

_CHUNK = 65536


@dataclass
class _Connection:
    client: socket.socket
    upstream: socket.socket
    counted: Callable[[int], None]  # told the size of each chunk the upstream sends
    dropped: threading.Event = field(default_factory=threading.Event)

    def pump(self, stopping: threading.Event) -> None:
        peers = {self.client: self.upstream, self.upstream: self.client}
        with selectors.DefaultSelector() as selector:
            for sock in peers:
                selector.register(sock, selectors.EVENT_READ)
            while not stopping.is_set() and not self.dropped.is_set():
                for key, _ in selector.select(timeout=0.1):
                    if self.dropped.is_set():
                        break  # from now on nothing is read nor written
                    source: socket.socket = key.fileobj  # type: ignore[assignment]
                    try:
                        data = source.recv(_CHUNK)
                        if not data:
                            return self._close()
                        peers[source].sendall(data)
                        if source is self.upstream:
                            self.counted(len(data))
                    except OSError:
                        return self._close()
        if not self.dropped.is_set():
            self._close()
        # A dropped connection's sockets stay open: the proxy closes them at stop.
        return None

    def _close(self) -> None:
        for sock in (self.client, self.upstream):
            sock.close()


class TcpProxy:
    """127.0.0.1:`port` forwards to `upstream` ("host:port"); `pulled` counts what upstream sent."""

    def __init__(self, upstream: str) -> None:
        host, _, port = upstream.rpartition(":")
        self._upstream = (host, int(port))
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.1)
        self.port: int = self._listener.getsockname()[1]
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._connections: list[_Connection] = []
        self._threads: list[threading.Thread] = []
        self.accepted = 0
        self.pulled = 0  # bytes from upstream, every connection together
        self._accepting = threading.Thread(target=self._accept, name="proxy-accept", daemon=True)
        self._accepting.start()

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    def drop_open(self) -> int:
        """Every connection open now goes silent; returns how many there were."""
        with self._lock:
            live = [c for c in self._connections if not c.dropped.is_set()]
            for connection in live:
                connection.dropped.set()
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
            connection = _Connection(client, upstream, self._count)
            thread = threading.Thread(
                target=connection.pump, args=(self._stopping,), name="proxy-pump", daemon=True
            )
            with self._lock:
                self._connections.append(connection)
                self._threads.append(thread)
                self.accepted += 1
            thread.start()

    def _count(self, size: int) -> None:
        with self._lock:
            self.pulled += size

    def close(self) -> None:
        self._stopping.set()
        self._listener.close()
        self._accepting.join(timeout=5)
        for thread in self._threads:
            thread.join(timeout=5)
        for connection in self._connections:
            connection._close()

    def __enter__(self) -> TcpProxy:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
