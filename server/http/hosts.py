"""The Host check (ALLOWED_HOSTS), except for the health probes.

Platforms probe an instance at its own address (`Host: 10.0.3.7:8000`), not
at the site's name; a probe refused with 400 would take a healthy instance out
of service. The probes say nothing a visitor could misuse.
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send


class SiteHosts:
    def __init__(
        self, app: ASGIApp, *, allowed_hosts: Iterable[str], probe_paths: Iterable[str]
    ) -> None:
        self.app = app
        self._checked = TrustedHostMiddleware(app, allowed_hosts=list(allowed_hosts))
        self._probe_paths = frozenset(probe_paths)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] in self._probe_paths:
            await self.app(scope, receive, send)
        else:
            await self._checked(scope, receive, send)
