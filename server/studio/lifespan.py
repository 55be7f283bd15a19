"""The studio when it is on, the local one (development mode on the embedded content: loopback
only, no account) or the Firebase one; its parts, their clients open for the app's lifespan."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from server.content.cache import ContentCache
from server.content.local import IMAGES_FOLDER
from server.content.photo_policy import PhotoUrlPolicy
from server.enquiries.firestore import EnquiryStore
from server.rendering.manifest import AssetManifest
from server.settings import ContentSource, Settings, SettingsError
from server.site.company import Company
from server.studio.documents import FirestoreStudioContent, LocalStudioContent, StudioContent
from server.studio.guards import Guards
from server.studio.photo_store import LocalPhotoFolder, PhotoStore, StoragePhotos
from server.studio.photos import photo_limits
from server.studio.service import StudioService
from server.studio.sessions import (
    FirebaseSessions,
    GoogleSignIn,
    SessionStore,
    StaffSessions,
    auth_emulator_host,
)
from server.studio.templating import StudioTemplates


@dataclass(frozen=True)
class Studio:
    """What the studio's pages share (request.state.studio), each a function of it and a request."""

    guards: Guards
    service: StudioService
    templates: StudioTemplates
    google: GoogleSignIn | None
    photo_size_script: str | None  # the form's check of a photo's size, as it is chosen
    enquiries: EnquiryStore  # the Enquiries tab's (inbox.py)


def local_studio(settings: Settings) -> bool:
    """The embedded content in development mode (`./dev serve`)."""
    return settings.content_source is ContentSource.LOCAL and settings.dev_mode


def firebase_studio(settings: Settings) -> bool:
    return settings.content_source is ContentSource.FIRESTORE and settings.studio


def storage_bucket(settings: Settings, company: Company) -> str:
    bucket = settings.studio_storage_bucket or company.firebase_storage_bucket
    if not bucket:
        raise SettingsError("STUDIO=on needs STUDIO_STORAGE_BUCKET or [firebase] storage_bucket")
    return bucket


@asynccontextmanager
async def open_studio(
    settings: Settings, company: Company, cache: ContentCache, enquiries: EnquiryStore
) -> AsyncIterator[Studio | None]:
    """The studio with its clients open, for the app's lifespan; None when it is off."""
    if not local_studio(settings) and not firebase_studio(settings):
        yield None
        return
    scripts = AssetManifest.load(settings.bundles_dir).studio_scripts
    google = None
    session_seconds = settings.studio_session_hours * 3600
    if local_studio(settings):
        sessions: StaffSessions = SessionStore(lifetime_seconds=session_seconds)
        content: StudioContent = LocalStudioContent(settings.content_dir)
        photos: PhotoStore = LocalPhotoFolder(settings.content_dir)
    else:
        project = company.firestore_project(settings.google_cloud_project)
        sessions = FirebaseSessions(
            project_id=project,
            api_key=company.firebase_api_key,
            staff_emails=settings.studio_staff_emails,
            lifetime_seconds=session_seconds,
        )
        content = FirestoreStudioContent(project)
        photos = StoragePhotos(project, storage_bucket(settings, company))
        # The Google button, when company.toml's [firebase] has api_key and auth_domain.
        if company.firebase_api_key and company.firebase_auth_domain:
            if "googleSignIn" not in scripts:
                raise SettingsError("bundles/manifest.json names no studio script: run build.py")
            google = GoogleSignIn(
                api_key=company.firebase_api_key,
                auth_domain=company.firebase_auth_domain,
                project_id=project,
                script_url=scripts["googleSignIn"],
                emulator_host=auth_emulator_host(),
            )
    photo_max_bytes = int(settings.studio_photo_max_mb * 1_000_000)
    service = StudioService(
        content=content,
        photos=photos,
        photo_urls=PhotoUrlPolicy(
            allow_http=settings.dev_mode, images_dir=settings.content_dir / IMAGES_FOLDER
        ),
        photo_max_bytes=photo_max_bytes,
        changed=cache.expire,
    )
    templates = StudioTemplates(
        image_hosts=settings.image_hosts,
        limits=photo_limits(photo_max_bytes),
        max_bytes=photo_max_bytes,
        local=not sessions.asks_for_credentials,
        branches=company.branches,
    )
    guards = Guards(sessions, photo_max_bytes=photo_max_bytes)
    try:
        yield Studio(guards, service, templates, google, scripts.get("photoSize"), enquiries)
    finally:
        await content.close()
        await photos.close()
