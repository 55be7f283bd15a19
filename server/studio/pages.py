"""The studio's HTTP side: its pages (Jinja2, on the server, so every form works without any
script), sign-in and sign-out, and every write's checks: a session (else 401), its CSRF token."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from server.content.cache import ContentCache
from server.content.models import Collection
from server.http.rate_limit import TokenBuckets
from server.i18n import DEFAULT_LOCALE, LOCALES, Locale, locale_named, messages
from server.images.urls import PhotoKeys
from server.images.variants import WIDTHS
from server.site_facts import PALETTE_FILE
from server.site_map import LIST_PAGES, ItemPage
from server.studio.service import (
    Conflict,
    Invalid,
    PhotoInput,
    StudioService,
    field_locale,
    max_length,
    read_text_fields,
    text_fields,
)
from server.studio.sessions import (
    COOKIE_NAME,
    COOKIE_PATH,
    Credentials,
    GoogleSignIn,
    NoAccess,
    StaffSession,
    StaffSessions,
)

logger = logging.getLogger(__name__)

# Shown 96 px wide: the smallest width the image route makes covers a 2x screen.
THUMBNAIL_VARIANT = f"w{min(WIDTHS)}"

TEMPLATES = Path(__file__).resolve().parent / "templates"
STYLESHEET = Path(__file__).resolve().parent / "static" / "studio.css"
LANGUAGE_COOKIE = "studio_lang"
# Room for the form's text fields around the photo.
FORM_OVERHEAD_BYTES = 64 * 1024
# A photo over the limit is still read, up to this many times the limit, so the
# form comes back with its typed text and a word on the photo; beyond, a refusal.
UPLOAD_CEILING = 4
# How many times a list waiting for a change to go live looks again, a second
# apart, before it stops and leaves the "putting it live" note as it is.
LIVE_LOOKS = 30
# The collections staff edit here; stones are not yet (they come with the studio's restructuring).
EDITED = [collection for collection in Collection if collection is not Collection.STONES]


@dataclass
class Refusal(Exception):
    """A request refused before anything changed: its status and the message's key."""

    status: int
    key: str
    values: Mapping[str, object] = field(default_factory=dict)


class StudioPages:
    def __init__(
        self,
        *,
        sessions: StaffSessions,
        service: StudioService,
        image_hosts: tuple[str, ...],
        google: GoogleSignIn | None = None,
        photo_size_script: str | None = None,
    ) -> None:
        self.sessions = sessions
        self.service = service
        self._google = google
        self._photo_size_script = photo_size_script
        self._image_hosts = image_hosts
        # Ten tries at once, then one a minute: enough for a mistyped password.
        self.sign_in_limits = TokenBuckets(burst=10, per_second=1 / 60)
        # A batch of twenty photos at once, then one every ten seconds.
        self.upload_limits = TokenBuckets(burst=20, per_second=1 / 10)
        self._templates = Environment(
            loader=FileSystemLoader(TEMPLATES),
            autoescape=select_autoescape(default=True),
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self._templates.globals.update(
            collections=EDITED,
            locales=LOCALES,
            language_name=_language_name,
            field_locale=field_locale,
            max_length=max_length,
            shown_name=_shown_name,
            limits=service.limits,
            max_bytes=service.photo_max_bytes,
            photo_size_script=photo_size_script,
            google=google,
            local=not sessions.asks_for_credentials,
        )
        self._stylesheet = PALETTE_FILE.read_bytes() + STYLESHEET.read_bytes()

    async def home(self, request: Request) -> Response:
        if await self.sessions.find(request.cookies.get(COOKIE_NAME)) is not None:
            return _redirect(request, "studio_list", collection=Collection.PROJECTS.page_key)
        return self._sign_in_page(request)

    async def stylesheet(self, _request: Request) -> Response:
        return Response(
            self._stylesheet,
            media_type="text/css",
            headers={"Cache-Control": "no-cache", **studio_headers(self._image_hosts)},
        )

    async def language(self, request: Request) -> Response:
        locale = locale_named(request.path_params["lang"])
        if locale is None:
            raise HTTPException(404)
        home = _url(request, "studio_home")
        back = request.query_params.get("next", home)
        if not back.startswith(home) or "//" in back or "\\" in back:
            back = home
        response = RedirectResponse(back, 303)
        response.set_cookie(
            LANGUAGE_COOKIE, locale.code, max_age=365 * 86400, path=COOKIE_PATH, samesite="strict"
        )
        return response

    async def list_page(self, request: Request) -> Response:
        session = await self._require_session(request)
        collection = _collection(request)
        documents = await self.service.in_site_order(collection)
        banner = await self._live_banner(request, collection)
        photos = [url for _, fields in documents if isinstance(url := fields.get("photoUrl"), str)]
        # Thumbnails through the site's image route: a few KB each, not the camera's megabytes.
        photo_keys: PhotoKeys = request.state.photo_keys
        keys = await photo_keys.keys_for(photos)
        return self._page(
            request,
            "list.html",
            documents=documents,
            thumbnails={url: f"/img/{THUMBNAIL_VARIANT}/{key}" for url, key in keys.items()},
            banner=banner,
            session=session,
            refresh=_next_look(request) if banner is not None and not banner["live"] else None,
        )

    async def new_form(self, request: Request) -> Response:
        return self._form(request, await self._require_session(request), {})

    async def edit_form(self, request: Request) -> Response:
        session = await self._require_session(request)
        fields, version = await self.service.existing(_collection(request), _id(request))
        return self._form(request, session, fields, version=version)

    async def delete_form(self, request: Request) -> Response:
        session = await self._require_session(request)
        fields, version = await self.service.existing(_collection(request), _id(request))
        return self._page(request, "delete.html", fields=fields, version=version, session=session)

    async def sign_in(self, request: Request) -> Response:
        _require_same_origin(request)
        if not self.sign_in_limits.allow(_client(request)):
            raise Refusal(429, "too_many")
        credentials = Credentials()
        if self.sessions.asks_for_credentials:
            form = await self._read_form(request, FORM_OVERHEAD_BYTES, max_fields=5)
            credentials = Credentials(
                id_token=_form_text(form, "id_token"),
                email=_form_text(form, "email").strip(),
                password=_form_text(form, "password"),
            )
        try:
            cookie, who = await self.sessions.sign_in(credentials)
        except NoAccess as refused:
            key = str(refused)
            status = {"no_access": 403, "sign_in_unavailable": 503}.get(key, 401)
            # The address typed is kept: only the password is typed again.
            return self._sign_in_page(request, status, error=key, email=credentials.email)
        logger.info("Studio sign-in: %s", who, extra={"who": who})
        response = _redirect(request, "studio_list", collection=Collection.PROJECTS.page_key)
        response.set_cookie(
            COOKIE_NAME,
            cookie,
            max_age=int(self.sessions.lifetime_seconds),
            path=COOKIE_PATH,
            httponly=True,
            samesite="strict",
            # Accounts sign in over https; the local studio is plain http on loopback.
            secure=self.sessions.asks_for_credentials or request.url.scheme == "https",
        )
        return response

    async def sign_out(self, request: Request) -> Response:
        await self._write_request(request)
        await self.sessions.close(request.cookies.get(COOKIE_NAME))
        response = _redirect(request, "studio_home")
        response.delete_cookie(COOKIE_NAME, path=COOKIE_PATH, httponly=True, samesite="strict")
        return response

    async def create(self, request: Request) -> Response:
        session, form = await self._write_request(request, upload=True)
        collection = _collection(request)
        values = read_text_fields(collection, form)
        try:
            document_id = await self.service.create(
                session.who, collection, values, await self._photo_input(form)
            )
        except Invalid as invalid:
            return self._form(request, session, values, invalid)
        return _to_list(request, f"?saved={quote(document_id)}")

    async def update(self, request: Request) -> Response:
        session, form = await self._write_request(request, upload=True)
        collection, document_id = _collection(request), _id(request)
        values = read_text_fields(collection, form)
        try:
            written = await self.service.update(
                session.who,
                collection,
                document_id,
                values,
                await self._photo_input(form),
                opened_version=_form_text(form, "version"),
            )
        except (Invalid, Conflict) as refused:
            # The form again with the staff member's text; after a Conflict, the other person's
            # beside it, and saving again replaces their version knowingly.
            return self._form(request, session, {**values, "photoUrl": refused.photo_url}, refused)
        return _to_list(request, f"?saved={quote(document_id)}" if written else "")

    async def delete(self, request: Request) -> Response:
        session, form = await self._write_request(request)
        collection, document_id = _collection(request), _id(request)
        try:
            await self.service.delete(
                session.who, collection, document_id, _form_text(form, "version")
            )
        except Conflict as conflict:
            # Edited by someone else since the question was asked: ask again, with their version.
            asked: dict[str, Any] = {"fields": conflict.theirs, "version": conflict.version}
            return self._page(
                request, "delete.html", status=409, changed=True, session=session, **asked
            )
        return _to_list(request, f"?deleted={quote(document_id)}")

    async def move(self, request: Request) -> Response:
        session, form = await self._write_request(request)
        collection, document_id = _collection(request), _id(request)
        up = _form_text(form, "direction") == "up"
        await self.service.move(session.who, collection, document_id, up=up)
        return _to_list(request, f"#item-{quote(document_id)}")

    def refusal_page(self, request: Request, refusal: Refusal) -> Response:
        return self._page(
            request, "refusal.html", status=refusal.status, key=refusal.key, values=refusal.values
        )

    async def _require_session(self, request: Request) -> StaffSession:
        session = await self.sessions.find(request.cookies.get(COOKIE_NAME))
        if session is None:
            raise Refusal(401, "signed_out")
        return session

    async def _write_request(
        self, request: Request, *, upload: bool = False
    ) -> tuple[StaffSession, FormData]:
        """The session and the form of a write, or a Refusal before anything changes."""
        _require_same_origin(request)
        session = await self._require_session(request)  # before reading any body
        if upload and not self.upload_limits.allow(_client(request)):
            raise Refusal(429, "too_many")
        photo = UPLOAD_CEILING * self.service.photo_max_bytes if upload else 0
        form = await self._read_form(
            request, FORM_OVERHEAD_BYTES + photo, max_files=1 if upload else 0
        )
        token = form.get("csrf")
        if not session.accepts(token if isinstance(token, str) else None):
            await form.close()
            raise Refusal(403, "bad_token")
        return session, form

    async def _read_form(
        self, request: Request, limit: int, *, max_files: int = 0, max_fields: int = 20
    ) -> FormData:
        length = request.headers.get("content-length", "")
        if not length.isdigit() or int(length) > limit:
            raise Refusal(413, "too_large", self.service.limits)
        return await request.form(max_files=max_files, max_fields=max_fields)

    async def _photo_input(self, form: FormData) -> PhotoInput:
        """The form's photo: read only when within the limit."""
        held = _form_text(form, "held_photo")
        upload = form.get("photo")
        if not isinstance(upload, UploadFile) or not upload.size:
            return PhotoInput(held=held)
        stem = (upload.filename or "").rsplit(".", 1)[0]
        if upload.size > self.service.photo_max_bytes:
            return PhotoInput(file_stem=stem, too_big=True, held=held)
        return PhotoInput(data=await upload.read(), file_stem=stem, held=held)

    async def _live_banner(self, request: Request, collection: Collection) -> dict[str, Any] | None:
        """Whether the change just saved is what visitors get now (the pages' own cache)."""
        saved, deleted = request.query_params.get("saved"), request.query_params.get("deleted")
        if not saved and not deleted:
            return None
        cache: ContentCache = request.state.content
        snapshot = await cache.get(collection)
        if deleted:
            live = all(item.id != deleted for item in snapshot.items)
            return {"live": live, "key": "deleted_live" if live else "deleted_pending"}
        assert saved is not None
        expected = await self.service.parsed(collection, saved)
        live = expected is not None and expected in snapshot.items
        key = "saved_live" if live else "saved_pending"
        return {"live": live, "key": key, "url": _public_url(collection, saved)}

    def _form(
        self,
        request: Request,
        session: StaffSession,
        values: Mapping[str, Any],
        refused: Invalid | Conflict | None = None,
        version: str = "",
    ) -> Response:
        """The form of the request's collection, for a new entry or the one it names; after a
        refused save, its mistakes or the other person's version, and the photo held for it."""
        status = 200 if refused is None else 422 if isinstance(refused, Invalid) else 409
        if refused is not None and refused.kept is not None:
            values = {**values, "photoUrl": refused.kept.preview}
        return self._page(
            request,
            "form.html",
            status=status,
            scripts={"script-src": "'self'"} if self._photo_size_script else None,
            values=values,
            fields=text_fields(_collection(request)),
            refused=refused,
            version=refused.version if refused else version,
            session=session,
        )

    def _sign_in_page(self, request: Request, status: int = 200, **context: object) -> Response:
        scripts = self._google.csp_directives() if self._google else None
        return self._page(request, "sign_in.html", status=status, scripts=scripts, **context)

    def _page(
        self,
        request: Request,
        template: str,
        *,
        status: int = 200,
        scripts: Mapping[str, str] | None = None,
        **context: object,
    ) -> Response:
        locale = locale_named(request.cookies.get(LANGUAGE_COOKIE, "")) or DEFAULT_LOCALE
        words: Mapping[str, str] = messages(locale)["studio"]

        def t(key: str, **values: object) -> str:
            return words[key].format(**values)

        html = self._templates.get_template(template).render(
            context,
            t=t,
            url=partial(_url, request),
            locale=locale,
            request=request,
            collection=Collection.from_page_key(request.path_params.get("collection", "")),
            id=request.path_params.get("id"),
        )
        return HTMLResponse(html, status, headers=studio_headers(self._image_hosts, scripts))


def studio_headers(
    image_hosts: tuple[str, ...], scripts: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Its CSP (`scripts`: a page's script directives), no indexing, no caching (the security
    headers middleware keeps a header a response has)."""
    images = " ".join(f"https://{host}" for host in image_hosts)
    directives = {
        # No script elsewhere: the studio is plain forms, working without any.
        "default-src": "'none'",
        **(scripts or {}),
        "style-src": "'self'",
        "img-src": f"'self' data: {images}".strip(),
        "form-action": "'self'",
        "frame-ancestors": "'none'",
        "base-uri": "'none'",
    }
    csp = "; ".join(f"{name} {value}" for name, value in directives.items())
    headers = {
        "Content-Security-Policy": csp,
        "X-Robots-Tag": "noindex, nofollow",
        "Cache-Control": "no-store",
        "Referrer-Policy": "same-origin",
    }
    if scripts and "frame-src" in scripts:
        # The Google sign-in popup reports back to this page through window.opener.
        headers["Cross-Origin-Opener-Policy"] = "same-origin-allow-popups"
    return headers


def _language_name(locale: Locale) -> str:
    return str(messages(locale)["meta"]["languageName"])


def _url(request: Request, name: str, **params: str) -> str:
    """The path of a named studio route (routes.py), each value quoted as a path segment."""
    quoted = {key: quote(value, safe="") for key, value in params.items()}
    return str(request.app.url_path_for(name, **quoted))


def _redirect(request: Request, name: str, **params: str) -> RedirectResponse:
    return RedirectResponse(_url(request, name, **params), 303)


def _to_list(request: Request, then: str = "") -> RedirectResponse:
    """To the request's list; `then`: ?saved=<id> or ?deleted=<id> (is it live yet?), #item-<id>."""
    listing = _url(request, "studio_list", collection=request.path_params["collection"])
    return RedirectResponse(listing + then, 303)


def _shown_name(document_id: str, fields: Mapping[str, Any], locale: Locale) -> str:
    """The entry's name as staff in the studio's language call it, else the English one."""
    name = fields.get(locale.field("name")) or fields.get("name")
    return name if isinstance(name, str) and name else document_id


def _id(request: Request) -> str:
    return str(request.path_params["id"])


def _collection(request: Request) -> Collection:
    collection = Collection.from_page_key(request.path_params["collection"])
    if collection not in EDITED:
        raise HTTPException(404)
    return collection


def _next_look(request: Request) -> str | None:
    """The address of the list's next look for the change, or None once it has looked enough."""
    looks = request.query_params.get("looks", "0")
    done = int(looks) if looks.isdigit() else LIVE_LOOKS
    if done >= LIVE_LOOKS:
        return None
    return f"{request.url.path}?{request.url.include_query_params(looks=done + 1).query}"


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _require_same_origin(request: Request) -> None:
    """Writes come from the studio's own pages: a cross-site form is refused outright."""
    if request.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        raise Refusal(403, "bad_token")
    # The host alone: behind a TLS edge the app may see its own scheme as http.
    origin = request.headers.get("origin")
    if origin is not None and urlsplit(origin).netloc != request.url.netloc:
        raise Refusal(403, "bad_token")


def _form_text(form: FormData, name: str) -> str:
    value = form.get(name)
    return value if isinstance(value, str) else ""


def _public_url(collection: Collection, document_id: str) -> str:
    pages = [p for p in LIST_PAGES if p.cards is collection and p.locale is DEFAULT_LOCALE]
    return ItemPage(pages[0], document_id).path if pages else "/"  # the slider: the landing page
