"""A test or benchmark companion (a server, a proxy) that runs inside a `with` block."""

from __future__ import annotations

from typing import Self


class Started:
    """`with Thing(...) as thing:` starts it on entry and stops it on exit, whatever happens."""

    def start(self) -> Self:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()
