"""The outbox: an enquiry's mail, sent after the visitor has had the answer, tried again by a
sweep while the mail server refuses or is away, never sent twice once accepted (a worker claims
an enquiry in the store first). The sweep also deletes enquiries past ENQUIRY_KEEP_DAYS."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formatdate
from functools import partial
from urllib.parse import unquote, urlsplit

import aiosmtplib

from server.enquiries.fields import Enquiry, State, countries
from server.enquiries.firestore import EnquiryStore
from server.enquiries.store import StoreUnavailable
from server.settings import Settings, SettingsError
from server.site.company import Company

logger = logging.getLogger(__name__)

SMTP_TIMEOUT_SECONDS = 30.0  # one attempt at the mail server, connection to last reply
CLAIM_SECONDS = 120.0  # a worker that claimed an enquiry and died lets it go after this
DAY_SECONDS = 86_400.0


def smtp_sender(url: str) -> Callable[..., Awaitable[object]]:
    """aiosmtplib.send for SMTP_URL: smtp://user:password@host:587 (STARTTLS when the server
    offers it) or smtps://user:password@host:465 (TLS from the start)."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise SettingsError("SMTP_URL: expected smtp://user:password@host:587 or smtps://…")
    return partial(
        aiosmtplib.send,
        hostname=parts.hostname,
        port=parts.port or (465 if parts.scheme == "smtps" else 587),
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
        use_tls=parts.scheme == "smtps",
        timeout=SMTP_TIMEOUT_SECONDS,
    )


class Outbox:
    def __init__(self, store: EnquiryStore, company: Company, settings: Settings) -> None:
        self.store = store
        self.company = company
        self.settings = settings
        self.send_mail = smtp_sender(settings.smtp_url) if settings.smtp_url else None
        self.sender = settings.enquiry_from or company.enquiry_email(company.branches[0]) or ""
        # Something may be left to mail: what an earlier process left, or a send that failed.
        # Only then does the sweep ask the store, so an idle site asks Firestore nothing.
        self._unsent_maybe = True

    async def send(self, enquiry_id: str) -> None:
        """Mail the enquiry unless it went already or another worker is mailing it."""
        if self.send_mail is None:
            return
        now = time.time()
        try:
            enquiry = await self.store.claim(enquiry_id, now=now, until=now + CLAIM_SECONDS)
            if enquiry is None:
                return
            message = self.message(enquiry)
            try:
                async with asyncio.timeout(SMTP_TIMEOUT_SECONDS):
                    # The envelope is given: no header of the message can add a recipient.
                    await self.send_mail(message, sender=self.sender, recipients=[message["To"]])
            except (aiosmtplib.SMTPException, OSError, TimeoutError) as error:
                logger.warning("Enquiry %s not mailed yet, tried again soon: %s", enquiry_id, error)
                self._unsent_maybe = True
                await self.store.mailed(enquiry_id, accepted=False)
                return
            await self.store.mailed(enquiry_id, accepted=True)
            logger.info("Enquiry %s mailed to %s", enquiry_id, message["To"])
        except StoreUnavailable as error:
            self._unsent_maybe = True
            logger.warning("Enquiry %s: the store did not answer: %s", enquiry_id, error)

    async def run(self) -> None:
        """Every ENQUIRY_MAIL_RETRY_SECONDS (the first after start-up), mail what is left to
        mail, if anything may be; once a day, delete what is past keeping. Until cancelled."""
        if self.send_mail is None:
            logger.info(
                "SMTP_URL is not set: enquiries are kept, not mailed (the studio lists them)"
            )
        kept_since = -DAY_SECONDS
        while True:
            await asyncio.sleep(self.settings.enquiry_mail_retry_seconds)
            try:
                if time.monotonic() - kept_since >= DAY_SECONDS:
                    keep_seconds = self.settings.enquiry_keep_days * DAY_SECONDS
                    deleted = await self.store.delete_older_than(time.time() - keep_seconds)
                    kept_since = time.monotonic()
                    logger.info("Deleted %d enquiries past ENQUIRY_KEEP_DAYS", deleted)
                if self.send_mail is not None and self._unsent_maybe:
                    self._unsent_maybe = False
                    # Oldest first: after an outage, those who waited longest are mailed first.
                    for enquiry in reversed(await self.store.newest_first(state=State.NEW)):
                        await self.send(enquiry.id)
            except StoreUnavailable as error:
                self._unsent_maybe = True
                logger.warning("The enquiry store did not answer: %s", error)

    def message(self, enquiry: Enquiry) -> EmailMessage:
        """The mail to the branch: every field in plain text, Reply-To the visitor. Each value
        reaches a header on one line (fields.checked), and the library folds it."""
        fields = enquiry.fields
        branches = self.company.branches
        branch = next((b for b in branches if b.country_code == enquiry.branch), branches[0])
        message = EmailMessage()
        about = f" about {enquiry.topic}" if enquiry.topic else ""
        message["Subject"] = f"Enquiry{about} from {fields['name']}"
        message["From"] = self.sender
        message["To"] = self.company.enquiry_email(branch) or self.sender
        if fields["email"]:
            message["Reply-To"] = Address(fields["name"], addr_spec=fields["email"])
        message["Date"] = formatdate(enquiry.created)
        base_url = self.settings.public_base_url
        message["Message-ID"] = f"<enquiry-{enquiry.id}@{urlsplit(base_url).hostname}>"
        country = dict(countries("en")).get(fields["country"], "")
        received = datetime.fromtimestamp(enquiry.created, UTC).strftime("%Y-%m-%d %H:%M UTC")
        lines = {
            "Name": fields["name"],
            "E-mail": fields["email"],
            "Phone": fields["phone"],
            "Company": fields["company"],
            "Country": f"{country} ({fields['country']})",
            "About": enquiry.topic,
            "Quantity": fields["quantity"] and f"{fields['quantity']} m²",
            "Language": enquiry.language,
            "Sent from": enquiry.page and base_url + enquiry.page,
            "Received": f"{received}, for the {branch.country} branch",
        }
        body = "\n".join(f"{label}: {value}" for label, value in lines.items() if value)
        studio = f"{base_url}/studio/enquiries/{enquiry.id}"
        message.set_content(f"{body}\n\n{fields['message']}\n\n-- \nIn the studio: {studio}\n")
        return message
