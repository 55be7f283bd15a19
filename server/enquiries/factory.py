"""The enquiries' store, intake and outbox (its sweep running), open for the app's lifespan."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

from server.content.cache import ContentCache
from server.enquiries.firestore import EnquiryStore, FirestoreEnquiries
from server.enquiries.intake import Intake
from server.enquiries.mail import Outbox, SmtpMailer
from server.enquiries.store import SqliteEnquiries
from server.settings import ContentSource, Settings
from server.site.company import Company


@asynccontextmanager
async def open_enquiries(
    settings: Settings, company: Company, content: ContentCache
) -> AsyncIterator[tuple[EnquiryStore, Intake, Outbox]]:
    store: EnquiryStore
    if settings.content_source is ContentSource.FIRESTORE:
        project = company.firestore_project(settings.google_cloud_project)
        store = FirestoreEnquiries(project, timeout_seconds=settings.firestore_timeout_seconds)
    else:
        store = SqliteEnquiries(settings.enquiry_database)
    outbox = Outbox(
        store=store,
        mailer=SmtpMailer(settings.smtp_url) if settings.smtp_url else None,
        company=company,
        sender=settings.enquiry_from or company.enquiry_email(company.branches[0]) or "",
        base_url=settings.public_base_url,
        retry_seconds=settings.enquiry_mail_retry_seconds,
        keep_days=settings.enquiry_keep_days,
    )
    intake = Intake(
        store=store,
        company=company,
        content=content,
        secret=settings.enquiry_secret,
        min_seconds=settings.enquiry_min_seconds,
        keep_days=settings.enquiry_keep_days,
    )
    sweep = asyncio.create_task(outbox.run(), name="enquiry outbox")
    try:
        yield store, intake, outbox
    finally:
        sweep.cancel()
        with suppress(asyncio.CancelledError):
            await sweep
        await store.close()
