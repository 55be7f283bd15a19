"""Rules every request meets before routing: host, methods, path length, canonical case. The Host
check (ALLOWED_HOSTS) spares the health probes: platforms probe an instance at its own address
(`Host: 10.0.3.7:8000`), and a probe refused with 400 would take a healthy instance out of
service."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from starlette.datastructures import URL
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from server.http.caching import NO_STORE

MAX_PATH_BYTES = 2048  # longer than any URL of the site; browsers and proxies stop near 8 KB
MAX_HEADER_BYTES = 16 * 1024  # uvicorn's httptools parser sets no limit; browsers send a few KB


class RequestRules:
    def __init__(
        self,
        app: ASGIApp,
        *,
        allowed_hosts: Iterable[str],
        probe_paths: Iterable[str],
        canonical_paths: Iterable[str],
        item_prefixes: Iterable[str],
        methods: Mapping[str, tuple[str, ...]],
        post_prefixes: Iterable[str],
    ) -> None:
        self.app = app
        self._host_checked = TrustedHostMiddleware(self._apply, allowed_hosts=list(allowed_hosts))
        self._probe_paths = frozenset(probe_paths)
        # "/collabrations" (any case) -> "/Collabrations"
        self._canonical = {path.lower(): path for path in canonical_paths}
        # The pages whose items live one segment below them (/projects/{id}):
        # their part of such a path is made canonical, never the id's, whose
        # case is its own (Firestore ids are case-sensitive).
        self._item_prefixes = {path.lower(): path for path in item_prefixes}
        # The paths that take other methods than GET and HEAD (the web-vitals beacon's, a form's).
        self._methods = dict(methods)
        # Paths below these take POST too (the studio's forms, when it is on).
        self._post_prefixes = tuple(post_prefixes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
        elif scope["path"] in self._probe_paths:
            await self._apply(scope, receive, send)
        else:
            await self._host_checked(scope, receive, send)

    async def _apply(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = self._refusal(scope)
        if response is None:
            await self.app(scope, receive, send)
        else:
            await response(scope, receive, send)

    def _refusal(self, scope: Scope) -> Response | None:
        headers = {"Cache-Control": NO_STORE}
        path: str = scope["path"]
        allowed = self._methods.get(path, ("GET", "HEAD"))
        if self._post_prefixes and path.startswith(self._post_prefixes):
            allowed = ("GET", "HEAD", "POST")
        if scope["method"] not in allowed:
            allow = {**headers, "Allow": ", ".join(allowed)}
            return PlainTextResponse("Method Not Allowed", 405, allow)
        raw_path: bytes = scope.get("raw_path") or scope["path"].encode()
        if len(raw_path) > MAX_PATH_BYTES:
            return PlainTextResponse("URI Too Long", 414, headers)
        header_bytes = sum(len(name) + len(value) for name, value in scope["headers"])
        if header_bytes > MAX_HEADER_BYTES:
            return PlainTextResponse("Request Header Fields Too Large", 431, headers)
        query = scope.get("query_string", b"").decode("latin-1")
        canonical = self._canonical.get(path.lower())
        if canonical is not None and canonical != path:
            return RedirectResponse(str(URL(path=canonical, query=query)), 301)
        prefix, _, item_id = path.rpartition("/")
        canonical = self._item_prefixes.get(prefix.lower())
        if canonical is not None and canonical != prefix and item_id:
            # The id as the request spelt it: escaped, and not decoded twice.
            raw_id = raw_path.rpartition(b"/")[2].decode("latin-1")
            return RedirectResponse(str(URL(path=f"{canonical}/{raw_id}", query=query)), 301)
        return None
