"""The enquiries' store, intake and outbox (its sweep running), open for the app's lifespan."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

from server.content.cache import ContentCache
from server.enquiries.firestore import EnquiryStore, FirestoreEnquiries
from server.enquiries.intake import Intake
from server.enquiries.mail import Outbox
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
    outbox = Outbox(store, company, settings)
    sweep = asyncio.create_task(outbox.run(), name="enquiry outbox")
    try:
        yield store, Intake(store, company, content, settings), outbox
    finally:
        sweep.cancel()
        with suppress(asyncio.CancelledError):
            await sweep
        await store.close()
