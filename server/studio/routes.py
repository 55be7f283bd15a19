"""The studio's routes, when it is on; none at all (so /studio is a 404) when it is off."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from server.settings import ContentSource, Settings
from server.studio.handlers import Handler, Refusal, Studio
from server.studio.security import is_loopback

PREFIX = "/studio"


def enabled(settings: Settings) -> bool:
    """The local studio: the embedded content in development mode (`./dev serve`)."""
    return settings.content_source is ContentSource.LOCAL and settings.dev_mode


def studio_routes(settings: Settings) -> list[BaseRoute]:
    if not enabled(settings):
        return []
    studio = Studio(
        content_dir=settings.content_dir,
        image_hosts=settings.image_hosts,
        session_seconds=settings.studio_session_hours * 3600,
        photo_max_bytes=int(settings.studio_photo_max_mb * 1_000_000),
        allow_http_images=settings.dev_mode,
    )

    def guarded(handler: Handler) -> Callable[[Request], object]:
        @wraps(handler)
        async def endpoint(request: Request) -> Response:
            # The local sign-in needs no account: it exists on loopback only.
            if not is_loopback(request):
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
    ]
