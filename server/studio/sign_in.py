"""Signing in and out: the sign-in page (a button on the local studio; email and password, and
Google's button where company.toml configures it), the session cookie set and cleared."""

from __future__ import annotations

import logging

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from server.studio.fields import form_text
from server.studio.forms import TABS
from server.studio.lifespan import Studio
from server.studio.sessions import COOKIE_NAME, COOKIE_PATH, Credentials, NoAccess
from server.studio.templating import back_to, url

logger = logging.getLogger(__name__)


async def home(studio: Studio, request: Request) -> Response:
    if await studio.guards.sessions.find(request.cookies.get(COOKIE_NAME)) is not None:
        return RedirectResponse(_signed_in_page(request), 303)
    return sign_in_page(studio, request)


def sign_in_page(
    studio: Studio, request: Request, status: int = 200, **context: object
) -> Response:
    scripts = studio.google.csp_directives() if studio.google else None
    return studio.templates.render(
        request, "sign_in.html", status=status, scripts=scripts, google=studio.google, **context
    )


async def sign_in(studio: Studio, request: Request) -> Response:
    form = await studio.guards.sign_in(request)
    credentials = Credentials(
        id_token=form_text(form, "id_token"),
        email=form_text(form, "email").strip(),
        password=form_text(form, "password"),
    )
    sessions = studio.guards.sessions
    try:
        cookie, who = await sessions.sign_in(credentials)
    except NoAccess as refused:
        key = str(refused)
        status = {"no_access": 403, "sign_in_unavailable": 503}.get(key, 401)
        # The address typed is kept: only the password is typed again.
        return sign_in_page(studio, request, status, error=key, email=credentials.email)
    logger.info("Studio sign-in: %s", who, extra={"who": who})
    response = RedirectResponse(_signed_in_page(request), 303)
    response.set_cookie(
        COOKIE_NAME,
        cookie,
        max_age=int(sessions.lifetime_seconds),
        path=COOKIE_PATH,
        httponly=True,
        samesite="strict",
        # Accounts sign in over https; the local studio is plain http on loopback.
        secure=sessions.asks_for_credentials or request.url.scheme == "https",
    )
    return response


async def sign_out(studio: Studio, request: Request) -> Response:
    await studio.guards.write(request)
    await studio.guards.sessions.close(request.cookies.get(COOKIE_NAME))
    response = RedirectResponse(url(request, "studio_home"), 303)
    response.delete_cookie(COOKIE_NAME, path=COOKIE_PATH, httponly=True, samesite="strict")
    return response


def _signed_in_page(request: Request) -> str:
    """The page asked for before signing in (an enquiry's mail links one), else the first tab."""
    return back_to(request, url(request, "studio_list", collection=TABS[0]))
