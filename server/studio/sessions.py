"""Staff sessions: an opaque cookie naming a session kept in memory, with its CSRF token.

The cookie carries only a random id; who is signed in, until when, and the
form token live on the server, so a session ends for good at sign-out.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

COOKIE_NAME = "studio_session"
COOKIE_PATH = "/studio"
# Beyond this many live sessions the oldest is dropped; staff are a handful.
MAX_SESSIONS = 1000


@dataclass(frozen=True)
class StaffSession:
    who: str  # what the audit log names: an email address, or "local staff"
    csrf_token: str
    expires_at: float

    def accepts(self, token: str | None) -> bool:
        return token is not None and hmac.compare_digest(token, self.csrf_token)


class SessionStore:
    def __init__(self, *, lifetime_seconds: float, clock: Callable[[], float] = time.time) -> None:
        self.lifetime_seconds = lifetime_seconds
        self._clock = clock
        self._sessions: dict[str, StaffSession] = {}

    def open(self, who: str) -> tuple[str, StaffSession]:
        """A new session for `who`: its cookie value and the session."""
        self._forget_expired()
        while len(self._sessions) >= MAX_SESSIONS:
            self._sessions.pop(next(iter(self._sessions)))
        cookie = secrets.token_urlsafe(32)
        session = StaffSession(
            who=who,
            csrf_token=secrets.token_urlsafe(32),
            expires_at=self._clock() + self.lifetime_seconds,
        )
        self._sessions[cookie] = session
        return cookie, session

    async def find(self, cookie: str | None) -> StaffSession | None:
        if not cookie:
            return None
        session = self._sessions.get(cookie)
        if session is None:
            return None
        if session.expires_at <= self._clock():
            del self._sessions[cookie]
            return None
        return session

    async def close(self, cookie: str | None) -> None:
        if cookie:
            self._sessions.pop(cookie, None)

    def _forget_expired(self) -> None:
        now = self._clock()
        for cookie in [c for c, s in self._sessions.items() if s.expires_at <= now]:
            del self._sessions[cookie]
