"""A test or benchmark companion (a server, a proxy) that runs inside a `with` block:
`with Thing(...) as thing:` starts it on entry and stops it on exit, whatever happens."""

from __future__ import annotations

from typing import Self


class Started:
    def start(self) -> Self:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()


class OnLoopback(Started):
    port: int

    @property
    def host(self) -> str:
        """Where it listens, as FIRESTORE_EMULATOR_HOST and the like take it."""
        return f"127.0.0.1:{self.port}"
