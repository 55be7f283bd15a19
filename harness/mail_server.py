"""A real SMTP server in this process (aiosmtpd, on its own thread), for the tests and the
benchmark: it keeps every message it accepts, with the recipients its envelope named."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from harness.live_server import free_port
from harness.started import Started


@dataclass(frozen=True)
class Received:
    recipients: list[str]
    message: EmailMessage


@dataclass
class MailServer(Started):
    """Listens on 127.0.0.1:`port` (a free one unless given: a server "down" is one not started)."""

    port: int = field(default_factory=free_port)
    received: list[Received] = field(default_factory=list)
    _controller: Controller = field(init=False, repr=False)

    @property
    def url(self) -> str:
        """As SMTP_URL takes it."""
        return f"smtp://127.0.0.1:{self.port}"

    def start(self) -> MailServer:
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self._controller.start()
        return self

    def stop(self) -> None:
        self._controller.stop()

    async def handle_DATA(self, _server: SMTP, _session: Session, envelope: Envelope) -> str:
        content = envelope.content if isinstance(envelope.content, bytes) else b""
        message = message_from_bytes(content, _class=EmailMessage, policy=policy.default)
        # list.append and list() are atomic: the tests' thread reads as this one writes.
        self.received.append(Received(list(envelope.rcpt_tos), message))
        return "250 Message accepted for delivery"

    def wait_for(self, count: int, *, timeout: float) -> list[Received]:
        """The messages, once there are `count` (or `timeout` seconds have passed)."""
        deadline = time.monotonic() + timeout
        while len(self.received) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return list(self.received)
