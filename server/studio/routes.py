"""The studio's routes, when it is on; none at all (so /studio is a 404) when it is off.

Two ways to have it: the local studio (the embedded content in development
mode, `./dev serve`: loopback only, no account), or the Firebase studio
(`STUDIO=on` with `CONTENT_SOURCE=firestore`: Firebase Authentication,
Firestore, Cloud Storage for Firebase).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from server.company import Company
from server.content.local import IMAGES_FOLDER
from server.content.photo_urls import PhotoUrlPolicy
from server.rendering.manifest import AssetManifest
from server.settings import ContentSource, Settings, SettingsError
from server.studio.firebase_sign_in import FirebaseSessions
from server.studio.firestore_content import FirestoreStudioContent
from server.studio.google_sign_in import GoogleSignIn, auth_emulator_host
from server.studio.handlers import Handler, Refusal, Studio
from server.studio.local_content import LocalStudioContent
from server.studio.photos import LocalPhotoFolder
from server.studio.security import is_loopback
from server.studio.sessions import SessionStore
from server.studio.storage_photos import StoragePhotos

PREFIX = "/studio"


def local_studio(settings: Settings) -> bool:
    """The embedded content in development mode (`./dev serve`)."""
    return settings.content_source is ContentSource.LOCAL and settings.dev_mode


def firebase_studio(settings: Settings) -> bool:
    return settings.content_source is ContentSource.FIRESTORE and settings.studio


def open_studio(settings: Settings, company: Company) -> Studio | None:
    session_seconds = settings.studio_session_hours * 3600
    photo_max_bytes = int(settings.studio_photo_max_mb * 1_000_000)
    photo_urls = PhotoUrlPolicy(
        allow_http=settings.dev_mode, images_dir=settings.content_dir / IMAGES_FOLDER
    )
    if local_studio(settings):
        return Studio(
            sessions=SessionStore(lifetime_seconds=session_seconds),
            content=LocalStudioContent(settings.content_dir),
            photos=LocalPhotoFolder(settings.content_dir),
            photo_urls=photo_urls,
            image_hosts=settings.image_hosts,
            photo_max_bytes=photo_max_bytes,
            photo_size_script=studio_scripts(settings).get("photoSize"),
        )
    if firebase_studio(settings):
        project = company.firestore_project(settings.google_cloud_project)
        bucket = settings.studio_storage_bucket or company.firebase_storage_bucket
        if not bucket:
            raise SettingsError(
                "STUDIO=on needs STUDIO_STORAGE_BUCKET or [firebase] storage_bucket"
            )
        return Studio(
            sessions=FirebaseSessions(
                project_id=project,
                api_key=company.firebase_api_key,
                staff_emails=settings.studio_staff_emails,
                lifetime_seconds=session_seconds,
            ),
            content=FirestoreStudioContent.connect(project),
            photos=StoragePhotos.connect(project, bucket),
            photo_urls=photo_urls,
            image_hosts=settings.image_hosts,
            photo_max_bytes=photo_max_bytes,
            google=google_sign_in(settings, company, project),
            photo_size_script=studio_scripts(settings).get("photoSize"),
        )
    return None


def studio_scripts(settings: Settings) -> dict[str, str]:
    """The studio's own scripts by name, as build.py recorded them."""
    return AssetManifest.load(settings.bundles_dir).studio_scripts


def google_sign_in(settings: Settings, company: Company, project: str) -> GoogleSignIn | None:
    """The Google button, when company.toml's [firebase] has api_key and auth_domain."""
    if not company.firebase_api_key or not company.firebase_auth_domain:
        return None
    scripts = studio_scripts(settings)
    if "googleSignIn" not in scripts:
        raise SettingsError("bundles/manifest.json names no studio script: run build.py again")
    return GoogleSignIn(
        api_key=company.firebase_api_key,
        auth_domain=company.firebase_auth_domain,
        project_id=project,
        script_url=scripts["googleSignIn"],
        emulator_host=auth_emulator_host(),
    )


def studio_routes(settings: Settings, company: Company) -> list[BaseRoute]:
    studio = open_studio(settings, company)
    if studio is None:
        return []
    loopback_only = local_studio(settings)

    def guarded(handler: Handler) -> Callable[[Request], object]:
        @wraps(handler)
        async def endpoint(request: Request) -> Response:
            # The local sign-in needs no account: it exists on loopback only.
            if loopback_only and not is_loopback(request):
                raise HTTPException(404)
            try:
                return await handler(request)
            except Refusal as refusal:
                return studio.refusal_page(request, refusal)

        return endpoint

    def route(path: str, handler: Handler, method: str = "GET") -> Route:
        return Route(PREFIX + path, guarded(handler), methods=[method])

    return [
        route("", studio.home),
        route("/studio.css", studio.stylesheet),
        route("/language/{lang}", studio.language),
        route("/sign-in", studio.sign_in, "POST"),
        route("/sign-out", studio.sign_out, "POST"),
        route("/{collection}", studio.list_page),
        route("/{collection}/new", studio.new_form),
        route("/{collection}/new", studio.create, "POST"),
        route("/{collection}/edit/{id}", studio.edit_form),
        route("/{collection}/edit/{id}", studio.update, "POST"),
        route("/{collection}/delete/{id}", studio.delete_form),
        route("/{collection}/delete/{id}", studio.delete, "POST"),
        route("/{collection}/move/{id}", studio.move, "POST"),
    ]
