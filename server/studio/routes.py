"""The studio's routes when it is on (else none: /studio is a 404): the local studio (embedded
content in development mode, `./dev serve`: loopback only, no account), or the Firebase studio
(`STUDIO=on` with `CONTENT_SOURCE=firestore`). Its clients are opened in the app's lifespan.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from ipaddress import ip_address

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from server.company import Company
from server.content.cache import ContentCache
from server.content.local import IMAGES_FOLDER
from server.content.photo_urls import PhotoUrlPolicy
from server.rendering.manifest import AssetManifest
from server.settings import ContentSource, Settings, SettingsError
from server.studio.content import FirestoreStudioContent, LocalStudioContent, StudioContent
from server.studio.pages import Refusal, StudioPages
from server.studio.photos import LocalPhotoFolder, PhotoStore, StoragePhotos
from server.studio.service import Missing, StudioService
from server.studio.sessions import (
    FirebaseSessions,
    GoogleSignIn,
    SessionStore,
    StaffSessions,
    auth_emulator_host,
)

PREFIX = "/studio"
Endpoint = Callable[[StudioPages, Request], Awaitable[Response]]


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
    settings: Settings, company: Company, cache: ContentCache
) -> AsyncIterator[StudioPages | None]:
    """The studio with its clients open, for the app's lifespan; None when it is off."""
    if not local_studio(settings) and not firebase_studio(settings):
        yield None
        return
    scripts = AssetManifest.load(settings.bundles_dir).studio_scripts
    sessions: StaffSessions
    content: StudioContent
    photos: PhotoStore
    google = None
    session_seconds = settings.studio_session_hours * 3600
    if local_studio(settings):
        sessions = SessionStore(lifetime_seconds=session_seconds)
        content = LocalStudioContent(settings.content_dir)
        photos = LocalPhotoFolder(settings.content_dir)
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
    service = StudioService(
        content=content,
        photos=photos,
        photo_urls=PhotoUrlPolicy(
            allow_http=settings.dev_mode, images_dir=settings.content_dir / IMAGES_FOLDER
        ),
        photo_max_bytes=int(settings.studio_photo_max_mb * 1_000_000),
        changed=cache.expire,
    )
    try:
        yield StudioPages(
            sessions=sessions,
            service=service,
            image_hosts=settings.image_hosts,
            google=google,
            photo_size_script=scripts.get("photoSize"),
        )
    finally:
        await content.close()
        await photos.close()


def studio_routes(settings: Settings, company: Company) -> list[BaseRoute]:
    """The named routes (templates link them with url()); checked settings, no client yet."""
    if firebase_studio(settings):
        storage_bucket(settings, company)  # a missing bucket fails at start-up
    elif not local_studio(settings):
        return []
    loopback_only = local_studio(settings)

    def guarded(handler: Endpoint) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            # The local sign-in needs no account: it exists on loopback only.
            if loopback_only and not is_loopback(request):
                raise HTTPException(404)
            studio: StudioPages = request.state.studio
            try:
                return await handler(studio, request)
            except Refusal as refusal:
                return studio.refusal_page(request, refusal)
            except Missing:
                raise HTTPException(404) from None

        return endpoint

    def route(path: str, handler: Endpoint, name: str | None = None, method: str = "GET") -> Route:
        return Route(PREFIX + path, guarded(handler), methods=[method], name=name)

    return [
        route("", StudioPages.home, "studio_home"),
        route("/studio.css", StudioPages.stylesheet, "studio_css"),
        route("/language/{lang}", StudioPages.language, "studio_language"),
        route("/sign-in", StudioPages.sign_in, "studio_sign_in", "POST"),
        route("/sign-out", StudioPages.sign_out, "studio_sign_out", "POST"),
        route("/{collection}", StudioPages.list_page, "studio_list"),
        route("/{collection}/new", StudioPages.new_form, "studio_new"),
        route("/{collection}/new", StudioPages.create, method="POST"),
        route("/{collection}/edit/{id}", StudioPages.edit_form, "studio_edit"),
        route("/{collection}/edit/{id}", StudioPages.update, method="POST"),
        route("/{collection}/delete/{id}", StudioPages.delete_form, "studio_delete"),
        route("/{collection}/delete/{id}", StudioPages.delete, method="POST"),
        route("/{collection}/move/{id}", StudioPages.move, "studio_move", "POST"),
    ]


LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
RELAY_HEADERS = ("forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip")


def is_loopback(request: Request) -> bool:
    """Both ends on this computer: the client, and the Host it asked for (so no web page can reach
    a developer's studio through a DNS name it points at 127.0.0.1: DNS rebinding). Anything
    relayed (a proxy on this computer) is not local."""
    if any(name in request.headers for name in RELAY_HEADERS):
        return False
    try:
        local_client = ip_address(request.client.host if request.client else "").is_loopback
    except ValueError:
        return False
    # The Host header as sent, parsed exactly (a URL parser would accept "x@127.0.0.1").
    host = request.headers.get("host", "").lower()
    name = host if host.endswith("]") else host.rsplit(":", 1)[0]
    return local_client and name.strip("[]") in LOOPBACK_HOSTS
