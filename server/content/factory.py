"""Choose and open the content store the settings ask for."""

from __future__ import annotations

from server.company import Company
from server.content.firestore import FirestoreContentStore
from server.content.local import IMAGES_FOLDER, LocalContentStore
from server.content.photo_urls import PhotoUrlPolicy
from server.content.store import ContentStore
from server.settings import ContentSource, Settings


def open_content_store(settings: Settings, company: Company) -> ContentStore:
    if settings.content_source is ContentSource.FIRESTORE:
        return FirestoreContentStore.connect(
            project=settings.google_cloud_project or company.firebase_project_id,
            timeout_seconds=settings.firestore_timeout_seconds,
            photo_urls=PhotoUrlPolicy(
                allow_http=settings.dev_mode, images_dir=settings.content_dir / IMAGES_FOLDER
            ),
        )
    return LocalContentStore(settings.content_dir, allow_http_images=settings.dev_mode)
