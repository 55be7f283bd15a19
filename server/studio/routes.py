"""The studio's named routes when it is on (else none: /studio is a 404). Each page is a function
of the studio's parts and the request; a Refusal becomes the studio's page saying why."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from server.enquiries.store import StoreUnavailable
from server.settings import Settings
from server.site.company import Company
from server.site.languages import locale_named
from server.studio import editor, inbox, sign_in
from server.studio.guards import Refusal, is_loopback
from server.studio.lifespan import Studio, firebase_studio, local_studio, storage_bucket
from server.studio.service import Missing
from server.studio.sessions import COOKIE_PATH
from server.studio.templating import LANGUAGE_COOKIE, back_to, studio_headers, url

logger = logging.getLogger(__name__)

PREFIX = "/studio"


def studio_routes(settings: Settings, company: Company) -> list[BaseRoute]:
    """The named routes; checked settings, no client yet."""
    if firebase_studio(settings):
        storage_bucket(settings, company)  # a missing bucket fails at start-up
    elif not local_studio(settings):
        return []
    loopback_only = local_studio(settings)

    def guarded(page: Page) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            # The local sign-in needs no account: it exists on loopback only.
            if loopback_only and not is_loopback(request):
                raise HTTPException(404)
            studio: Studio = request.state.studio
            try:
                return await page(studio, request)
            except Refusal as refused:
                refusal = refused
            except StoreUnavailable as error:
                logger.error("The studio could not read the enquiries: %s", error)
                refusal = Refusal(503, "enquiries_unavailable")
            except Missing:
                raise HTTPException(404) from None
            return studio.templates.render(
                request, "refusal.html", status=refusal.status, refusal=refusal
            )

        return endpoint

    def route(path: str, page: Page, name: str | None = None, method: str = "GET") -> Route:
        return Route(PREFIX + path, guarded(page), methods=[method], name=name)

    return [
        route("", sign_in.home, "studio_home"),
        route("/studio.css", stylesheet, "studio_css"),
        route("/language/{lang}", language, "studio_language"),
        route("/sign-in", sign_in.sign_in, "studio_sign_in", "POST"),
        route("/sign-out", sign_in.sign_out, "studio_sign_out", "POST"),
        # Each tab at /studio/<key>: the inbox's, then a collection's (forms.py).
        route("/enquiries", inbox.list_page),
        route("/enquiries/{id}", inbox.enquiry_page, "studio_enquiry"),
        route("/enquiries/{id}", inbox.mark_handled, method="POST"),
        route("/enquiries/delete/{id}", inbox.delete_form),
        route("/enquiries/delete/{id}", inbox.delete, method="POST"),
        route("/{collection}", editor.list_page, "studio_list"),
        route("/{collection}/new", editor.new_form, "studio_new"),
        route("/{collection}/new", editor.create, method="POST"),
        route("/{collection}/edit/{id}", editor.edit_form, "studio_edit"),
        route("/{collection}/edit/{id}", editor.update, method="POST"),
        route("/{collection}/delete/{id}", editor.delete_form, "studio_delete"),
        route("/{collection}/delete/{id}", editor.delete, method="POST"),
        route("/{collection}/move/{id}", editor.move, "studio_move", "POST"),
    ]


Page = Callable[[Studio, Request], Awaitable[Response]]


async def stylesheet(studio: Studio, _request: Request) -> Response:
    headers = studio_headers(studio.templates.image_hosts)
    return Response(studio.templates.stylesheet, media_type="text/css", headers=headers)


async def language(_studio: Studio, request: Request) -> Response:
    """The studio in another language, back on the page it was asked from."""
    locale = locale_named(request.path_params["lang"])
    if locale is None:
        raise HTTPException(404)
    response = RedirectResponse(back_to(request, url(request, "studio_home")), 303)
    response.set_cookie(
        LANGUAGE_COOKIE, locale.code, max_age=365 * 86400, path=COOKIE_PATH, samesite="strict"
    )
    return response
