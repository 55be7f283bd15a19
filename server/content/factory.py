"""Choose and open the content store the settings ask for."""

from __future__ import annotations

from server.company import Company
from server.content.firestore import FirestoreContentStore
from server.content.local import LocalContentStore
from server.content.store import ContentStore
from server.settings import ContentSource, Settings


def open_content_store(settings: Settings, company: Company) -> ContentStore:
    if settings.content_source is ContentSource.FIRESTORE:
        return FirestoreContentStore.connect(
            project=settings.google_cloud_project or company.firebase_project_id,
            timeout_seconds=settings.firestore_timeout_seconds,
        )
    return LocalContentStore(settings.content_dir)
