"""One log line per request (fields: docs/operating.md), its id in X-Request-ID."""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Iterable
from typing import Any

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server.logs import handling_request

logger = logging.getLogger("server.access")

# An id from a proxy or a client is kept only if it cannot garble a log line
# or a header: short, and of a plain alphabet.
_SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


def _printable(path: str) -> str:
    # The path is percent-decoded: "/%0A" would start a fake line in a text log.
    return path if path.isprintable() else path.encode("unicode_escape").decode("ascii")


class AccessLog:
    def __init__(self, app: ASGIApp, *, quiet_paths: Iterable[str] = ()) -> None:
        self.app = app
        # Health probes ask every few seconds: their lines are at DEBUG level.
        self._quiet_paths = frozenset(quiet_paths)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        incoming = Headers(scope=scope).get("x-request-id", "")
        request_id = incoming if _SANE_REQUEST_ID.fullmatch(incoming) else uuid.uuid4().hex
        # If the app raises before it answers, the server answers 500.
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                MutableHeaders(scope=message)["X-Request-ID"] = request_id
            await send(message)

        with handling_request(request_id) as facts:
            try:
                await self.app(scope, receive, send_with_id)
            finally:
                fields: dict[str, Any] = {
                    "request_id": request_id,
                    "client": scope["client"][0] if scope.get("client") else None,
                    "method": scope["method"],
                    "path": scope["path"],
                    "route": getattr(scope.get("route"), "path", None),
                    "status": status,
                    "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                    "html_cache": facts.html_cache,
                    "content_reads": facts.content_reads,
                }
                # Readable on its own in the text format; the JSON line has each part as a field.
                message = (
                    f"{fields['client'] or '-'} {scope['method']} {_printable(scope['path'])}"
                    f" {status} {fields['duration_ms']:.1f} ms"
                )
                if facts.html_cache is not None:
                    message += f", html cache {facts.html_cache}"
                if reads := facts.content_reads:
                    message += f", {reads} content read{'s' if reads > 1 else ''}"
                level = logging.DEBUG if scope["path"] in self._quiet_paths else logging.INFO
                logger.log(level, "%s", message, extra=fields)
