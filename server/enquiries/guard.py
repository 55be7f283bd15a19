"""What keeps bots and floods out without a third-party CAPTCHA: a field people do not see, a
form token signed with the time it was made, and a keyed hash of each sender's address for
the rate limit (the store counts)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

TRAP_FIELD = "website"  # people do not see it (site.css puts it off screen); bots fill it
TOKEN_FIELD = "token"  # noqa: S105 - a field's name
# At most this many enquiries from one address in this many seconds, every worker together.
RATE_LIMIT = 5
RATE_WINDOW_SECONDS = 600.0
MAX_FORM_SECONDS = 86_400.0  # a form older than this is refused (sent again with a new token)


class Refused(Exception):
    """A post no person sends as it is: the reason, for the log."""


@dataclass(frozen=True)
class Guard:
    secret: bytes
    min_seconds: float  # a person takes longer than this to fill the form in (ENQUIRY_MIN_SECONDS)

    def token(self, now: float) -> str:
        """A new form's token: when it was made, and the id its enquiry will have."""
        issued, enquiry_id = str(int(now)), secrets.token_urlsafe(16)
        return f"{issued}.{enquiry_id}.{self._signature(issued, enquiry_id)}"

    def enquiry_id(self, form: Mapping[str, str], now: float) -> str:
        """The id the posted form's token carries; Refused for a bot's post or a stale form.
        One token makes one enquiry: the store keeps one per id (Back and Send again)."""
        if form.get(TRAP_FIELD):
            raise Refused("the hidden field was filled in")
        issued, _, rest = form.get(TOKEN_FIELD, "").partition(".")
        enquiry_id, _, signature = rest.partition(".")
        expected = self._signature(issued, enquiry_id)
        if not issued.isdigit() or not hmac.compare_digest(signature, expected):
            raise Refused("no valid token")
        age = now - int(issued)
        if age < self.min_seconds:
            raise Refused(f"sent less than {self.min_seconds:g} s after the form was made")
        if age > MAX_FORM_SECONDS:
            raise Refused("the form is more than a day old")
        return enquiry_id

    def address_key(self, address: str) -> str:
        """What the store keeps of the sender's address: enough to count, not to read it."""
        return self._signature("address", address)

    def _signature(self, *parts: str) -> str:
        digest = hmac.new(self.secret, ".".join(parts).encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:18]).decode()
