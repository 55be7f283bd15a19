"""Every check before the studio acts on a request, in one place; each raises a Refusal (its page
says why) before anything changes."""

from __future__ import annotations

from dataclasses import dataclass
from ipaddress import ip_address
from urllib.parse import urlsplit

from starlette.datastructures import FormData
from starlette.requests import Request

from server.http.rate_limit import TokenBuckets
from server.studio.sessions import COOKIE_NAME, StaffSession, StaffSessions

# Room for the form's text fields around the photo.
FORM_OVERHEAD_BYTES = 64 * 1024
# A photo over the limit is still read, up to this many times the limit, so the
# form comes back with its typed text and a word on the photo; beyond, a refusal.
UPLOAD_CEILING = 4
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
RELAY_HEADERS = ("forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip")


@dataclass
class Refusal(Exception):
    """A request refused before anything changed: its status and its message's key."""

    status: int
    key: str


class Guards:
    def __init__(self, sessions: StaffSessions, *, photo_max_bytes: int) -> None:
        self.sessions = sessions
        self._photo_max_bytes = photo_max_bytes
        # Ten tries at once, then one a minute: enough for a mistyped password.
        self.sign_in_limits = TokenBuckets(burst=10, per_second=1 / 60)
        # A batch of twenty photos at once, then one every ten seconds.
        self.upload_limits = TokenBuckets(burst=20, per_second=1 / 10)

    async def session(self, request: Request) -> StaffSession:
        """Every page but the sign-in's asks for it."""
        session = await self.sessions.find(request.cookies.get(COOKIE_NAME))
        if session is None:
            raise Refusal(401, "signed_out")
        return session

    async def write(self, request: Request, *, uploads: int = 0) -> tuple[StaffSession, FormData]:
        """The session and the form of a write (with at most `uploads` photo inputs, together
        within the upload ceiling), or a Refusal before anything changes."""
        same_origin(request)
        session = await self.session(request)  # before reading any body
        if uploads and not self.upload_limits.allow(client(request)):
            raise Refusal(429, "too_many")
        photos = UPLOAD_CEILING * self._photo_max_bytes if uploads else 0
        form = await self.form(request, FORM_OVERHEAD_BYTES + photos, max_files=uploads)
        if not session.accepts(form.get("csrf")):
            await form.close()
            raise Refusal(403, "bad_token")
        return session, form

    async def sign_in(self, request: Request) -> FormData:
        """The sign-in's form (empty when the local studio asks for nothing), or a Refusal."""
        same_origin(request)
        if not self.sign_in_limits.allow(client(request)):
            raise Refusal(429, "too_many")
        if not self.sessions.asks_for_credentials:
            return FormData()
        return await self.form(request, FORM_OVERHEAD_BYTES, max_fields=5)

    async def form(
        self, request: Request, limit: int, *, max_files: int = 0, max_fields: int = 1000
    ) -> FormData:
        length = request.headers.get("content-length", "")
        if not length.isdigit() or int(length) > limit:
            raise Refusal(413, "too_large")
        return await request.form(max_files=max_files, max_fields=max_fields)


def same_origin(request: Request) -> None:
    """Writes come from the studio's own pages: a cross-site form is refused outright."""
    if request.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        raise Refusal(403, "bad_token")
    # The host alone: behind a TLS edge the app may see its own scheme as http.
    origin = request.headers.get("origin")
    if origin is not None and urlsplit(origin).netloc != request.url.netloc:
        raise Refusal(403, "bad_token")


def client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def is_loopback(request: Request) -> bool:
    """Both ends on this computer: the client, and the Host it asked for (so no web page can reach
    a developer's studio through a DNS name it points at 127.0.0.1: DNS rebinding). Anything
    relayed (a proxy on this computer) is not local."""
    if any(name in request.headers for name in RELAY_HEADERS):
        return False
    try:
        local_client = ip_address(client(request)).is_loopback
    except ValueError:
        return False
    # The Host header as sent, parsed exactly (a URL parser would accept "x@127.0.0.1").
    host = request.headers.get("host", "").lower()
    name = host if host.endswith("]") else host.rsplit(":", 1)[0]
    return local_client and name.strip("[]") in LOOPBACK_HOSTS
