"""Staff sessions: an opaque cookie naming a session kept in memory, with its CSRF token.

The cookie carries only a random id; who is signed in, until when, and the
form token live on the server, so a session ends for good at sign-out.
"""

from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import dataclass

LOCAL_STAFF = "local staff"
COOKIE_NAME = "studio_session"
COOKIE_PATH = "/studio"
# Beyond this many live sessions the oldest is dropped; staff are a handful.
MAX_SESSIONS = 1000


@dataclass
class NoAccess(Exception):
    """The sign-in failed, or the account is not staff: a key of the studio's messages."""

    key: str


@dataclass(frozen=True)
class Credentials:
    """What the sign-in form sent: a Google ID token, or an email address and a password."""

    id_token: str = ""
    email: str = ""
    password: str = ""


@dataclass(frozen=True)
class StaffSession:
    who: str  # what the audit log names: an email address, or "local staff"
    csrf_token: str
    expires_at: float

    def accepts(self, token: str | None) -> bool:
        return token is not None and hmac.compare_digest(token, self.csrf_token)


class SessionStore:
    """The local studio's sessions: one button, no account (loopback only: routes.py)."""

    asks_for_credentials = False

    def __init__(self, *, lifetime_seconds: float) -> None:
        self.lifetime_seconds = lifetime_seconds
        self._sessions: dict[str, StaffSession] = {}

    async def sign_in(self, _credentials: Credentials) -> tuple[str, str]:
        """A new session's cookie, and who it is for."""
        now = time.time()
        for cookie in [c for c, s in self._sessions.items() if s.expires_at <= now]:
            del self._sessions[cookie]
        while len(self._sessions) >= MAX_SESSIONS:
            self._sessions.pop(next(iter(self._sessions)))
        cookie = secrets.token_urlsafe(32)
        self._sessions[cookie] = StaffSession(
            who=LOCAL_STAFF,
            csrf_token=secrets.token_urlsafe(32),
            expires_at=now + self.lifetime_seconds,
        )
        return cookie, LOCAL_STAFF

    async def find(self, cookie: str | None) -> StaffSession | None:
        session = self._sessions.get(cookie) if cookie else None
        if session is not None and session.expires_at <= time.time():
            await self.close(cookie)
            return None
        return session

    async def close(self, cookie: str | None) -> None:
        if cookie:
            self._sessions.pop(cookie, None)
