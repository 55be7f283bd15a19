"""Staff sessions, each with its CSRF token: local (kept in memory, so a session ends for good at
sign-out) or Firebase: an ID token of a staff account (claim `staff: true`, or a verified address
on STUDIO_STAFF_EMAILS) from the Google popup or an email and password, verified with the Admin
SDK and turned into a session cookie each request verifies, revocation included."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import anyio
import firebase_admin
import httpx2 as httpx
from firebase_admin import auth, exceptions

logger = logging.getLogger(__name__)

LOCAL_STAFF = "local staff"
COOKIE_NAME = "studio_session"
COOKIE_PATH = "/studio"
# Beyond this many live sessions the oldest is dropped; staff are a handful.
MAX_SESSIONS = 1000
# How old a sign-in may be to start a session (Firebase's advice: five minutes).
RECENT_SIGN_IN_SECONDS = 5 * 60

IDENTITY_TOOLKIT_HOST = "identitytoolkit.googleapis.com"
SECURE_TOKEN_HOST = "securetoken.googleapis.com"  # noqa: S105 - a host name
# The Firebase SDK loads Google's iframe library (gapi) here to talk to the popup.
GAPI_ORIGIN = "https://apis.google.com"
APP_NAME = "studio"


def auth_emulator_host() -> str | None:
    """FIREBASE_AUTH_EMULATOR_HOST (host:port), the Admin SDK's own switch to the Auth emulator."""
    return os.environ.get("FIREBASE_AUTH_EMULATOR_HOST") or None


@dataclass(frozen=True, kw_only=True)
class GoogleSignIn:
    """The sign-in page's "Sign in with Google": the Firebase web config its script reads (public
    by design), and the sources its CSP must allow for the popup, and nothing more."""

    api_key: str
    auth_domain: str
    project_id: str
    script_url: str  # /assets/studio-googleSignIn-<hash>.js, as build.py recorded it
    emulator_host: str | None = None

    @property
    def page_config(self) -> str:
        emulator = f"http://{self.emulator_host}" if self.emulator_host else None
        config = {"apiKey": self.api_key, "authDomain": self.auth_domain}
        return json.dumps({**config, "projectId": self.project_id, "emulator": emulator})

    def csp_directives(self) -> dict[str, str]:
        if self.emulator_host:
            # The emulator serves the token API, the popup's page and its helper iframe.
            api = frame = f"http://{self.emulator_host}"
        else:
            api = f"https://{IDENTITY_TOOLKIT_HOST} https://{SECURE_TOKEN_HOST}"
            frame = f"https://{self.auth_domain}"
        return {"script-src": f"'self' {GAPI_ORIGIN}", "connect-src": api, "frame-src": frame}


class NoAccess(Exception):
    """The sign-in failed, or the account is not staff: its message is a key of the studio's."""


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

    def accepts(self, token: object) -> bool:
        return isinstance(token, str) and hmac.compare_digest(token, self.csrf_token)


class SessionStore:
    """The local studio's sessions: one button, no account (loopback only: routes.py)."""

    asks_for_credentials = False

    def __init__(self, *, lifetime_seconds: float) -> None:
        self.lifetime_seconds = lifetime_seconds
        self._sessions: dict[str, tuple[StaffSession, float]] = {}  # each with when it ends

    async def sign_in(self, _credentials: Credentials) -> tuple[str, str]:
        now = time.time()
        for cookie in [c for c, (_, ends) in self._sessions.items() if ends <= now]:
            del self._sessions[cookie]
        while len(self._sessions) >= MAX_SESSIONS:
            self._sessions.pop(next(iter(self._sessions)))
        cookie = secrets.token_urlsafe(32)
        session = StaffSession(who=LOCAL_STAFF, csrf_token=secrets.token_urlsafe(32))
        self._sessions[cookie] = (session, now + self.lifetime_seconds)
        return cookie, LOCAL_STAFF

    async def find(self, cookie: str | None) -> StaffSession | None:
        # An expired one is dropped by the next sign-in.
        session, ends = self._sessions.get(cookie or "", (None, 0.0))
        return session if ends > time.time() else None

    async def close(self, cookie: str | None) -> None:
        self._sessions.pop(cookie or "", None)


class FirebaseSessions:
    asks_for_credentials = True

    def __init__(
        self,
        *,
        project_id: str,
        api_key: str | None,
        staff_emails: tuple[str, ...],
        lifetime_seconds: float,
    ) -> None:
        self.lifetime_seconds = lifetime_seconds
        self._api_key = api_key
        self._staff_emails = frozenset(staff_emails)
        try:
            self._app = firebase_admin.get_app(APP_NAME)
        except ValueError:
            # The platform's own credentials (or GOOGLE_APPLICATION_CREDENTIALS).
            self._app = firebase_admin.initialize_app(
                options={"projectId": project_id}, name=APP_NAME
            )

    async def sign_in(self, credentials: Credentials) -> tuple[str, str]:
        """A staff account's session cookie, and who it is for; or NoAccess."""
        if credentials.id_token:
            id_token, who = credentials.id_token, "Google account"
        elif credentials.email and credentials.password:
            id_token = await self._password_sign_in(credentials.email, credentials.password)
            who = credentials.email
        else:
            raise NoAccess("wrong_password")
        try:
            claims: dict[str, Any] = await anyio.to_thread.run_sync(
                lambda: auth.verify_id_token(id_token, app=self._app, check_revoked=True)
            )
        except (ValueError, auth.InvalidIdTokenError, exceptions.FirebaseError):
            raise NoAccess("signed_out") from None
        # A session only for a sign-in of the last minutes, as Firebase advises:
        # an ID token lives an hour, a session far longer.
        if time.time() - float(claims.get("auth_time", 0)) > RECENT_SIGN_IN_SECONDS:
            raise NoAccess("signed_out")
        if not self._is_staff(claims):
            logger.warning("Studio sign-in refused: %s is not staff", claims.get("email"))
            raise NoAccess("no_access")
        try:
            cookie = await anyio.to_thread.run_sync(
                lambda: auth.create_session_cookie(
                    id_token, timedelta(seconds=self.lifetime_seconds), app=self._app
                )
            )
        except exceptions.FirebaseError as error:
            logger.error("Studio sign-in: no session cookie from Firebase: %s", error)
            raise NoAccess("sign_in_unavailable") from None
        return cookie, who

    async def _password_sign_in(self, email: str, password: str) -> str:
        if not self._api_key:
            raise NoAccess("no_access")
        emulator = auth_emulator_host()
        base = f"http://{emulator}/" if emulator else "https://"
        try:
            async with httpx.AsyncClient(timeout=10) as client:
                response = await client.post(
                    f"{base}{IDENTITY_TOOLKIT_HOST}/v1/accounts:signInWithPassword",
                    params={"key": self._api_key},
                    json={"email": email, "password": password, "returnSecureToken": True},
                )
        except httpx.HTTPError as error:
            logger.error("Studio sign-in: Firebase Authentication did not answer: %s", error)
            raise NoAccess("sign_in_unavailable") from None
        if response.status_code != 200:
            raise NoAccess("wrong_password")
        return str(response.json()["idToken"])

    async def find(self, cookie: str | None) -> StaffSession | None:
        if not cookie:
            return None
        claims = await self._verified(cookie, check_revoked=True)
        if claims is None or not self._is_staff(claims):  # (taken off the list since signing in)
            return None
        return StaffSession(
            who=str(claims.get("email") or claims["uid"]),
            # Derived from the secret cookie: the same in every worker.
            csrf_token=hmac.new(cookie.encode(), b"studio form token", hashlib.sha256).hexdigest(),
        )

    async def close(self, cookie: str | None) -> None:
        """Sign-out: every session of the account ends (Firebase revokes by account)."""
        claims = await self._verified(cookie, check_revoked=False) if cookie else None
        if claims is None:
            logger.warning("Studio sign-out without a valid session cookie: nothing to revoke")
            return
        uid = claims["uid"]
        # Firebase revokes what was issued before the revocation's second: a cookie issued
        # in that same second would outlive it. The clock is read again after the sleep, as
        # asyncio may wake a timer a little early.
        next_second = float(claims["iat"]) + 1
        while (wait := next_second - time.time()) > 0:
            await anyio.sleep(wait + 0.01)
        await anyio.to_thread.run_sync(lambda: auth.revoke_refresh_tokens(uid, app=self._app))

    async def _verified(self, cookie: str, *, check_revoked: bool) -> dict[str, Any] | None:
        try:
            claims: dict[str, Any] = await anyio.to_thread.run_sync(
                lambda: auth.verify_session_cookie(
                    cookie, check_revoked=check_revoked, app=self._app
                )
            )
        except (ValueError, auth.InvalidSessionCookieError, exceptions.FirebaseError):
            return None
        return claims

    def _is_staff(self, claims: dict[str, Any]) -> bool:
        email = str(claims.get("email") or "").lower()
        verified_email = bool(email) and claims.get("email_verified") is True
        return claims.get("staff") is True or (verified_email and email in self._staff_emails)


StaffSessions = SessionStore | FirebaseSessions
