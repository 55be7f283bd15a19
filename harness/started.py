"""A test or benchmark companion (a server, a proxy) that runs inside a `with` block."""

from __future__ import annotations

from types import TracebackType
from typing import Self


class Started:
    """`with Thing(...) as thing:` starts it on entry and stops it on exit, whatever happens."""

    def start(self) -> Self:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
