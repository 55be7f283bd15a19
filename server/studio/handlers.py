"""The studio's HTTP handlers: thin, over the sessions, the content writes and the photo store.

Every write needs a session (else 401) and the session's CSRF token (else
403), and changes nothing otherwise. Pages are rendered on the server
(Jinja2), so the forms work on any phone before, or without, any script.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from server.content.cache import ContentCache
from server.content.models import (
    POSITION_FIELD,
    CardItem,
    Collection,
    parse_document,
    site_order,
)
from server.content.photo_urls import PhotoUrlPolicy
from server.http.rate_limit import TokenBuckets
from server.i18n import Locale
from server.images.urls import PhotoKeys
from server.images.variants import WIDTHS
from server.site_map import LIST_PAGES, ItemPage
from server.studio.audit import log_change
from server.studio.backends import Changed, PhotoStore, StaffSessions, StudioContent
from server.studio.firebase_sign_in import FirebaseSessions, NoAccess
from server.studio.forms import (
    MAX_LENGTHS,
    FieldError,
    free_id,
    make_id,
    model_errors,
    read_text_fields,
    text_errors,
    text_fields,
)
from server.studio.google_sign_in import GoogleSignIn
from server.studio.messages import text
from server.studio.photos import (
    MAX_PIXELS,
    CheckedPhoto,
    PhotoProblem,
    check_photo,
    preview_data_url,
)
from server.studio.security import studio_headers
from server.studio.sessions import COOKIE_NAME, COOKIE_PATH, SessionStore, StaffSession

logger = logging.getLogger(__name__)

# Shown 96 px wide: the smallest width the image route makes covers a 2x screen.
THUMBNAIL_VARIANT = f"w{min(WIDTHS)}"

TEMPLATES = Path(__file__).resolve().parent / "templates"
STYLESHEET = Path(__file__).resolve().parent / "static" / "studio.css"
LANGUAGE_COOKIE = "studio_lang"
LOCAL_STAFF = "local staff"
# Room for the form's text fields around the photo.
FORM_OVERHEAD_BYTES = 64 * 1024
# A photo over the limit is still read, up to this many times the limit, so the
# form comes back with its typed text and a word on the photo; beyond, a refusal.
UPLOAD_CEILING = 4

Handler = Callable[[Request], Awaitable[Response]]


@dataclass(frozen=True)
class HeldPhoto:
    """A photo a form came back with, held until its Save (photos.hold)."""

    name: str
    preview: str  # a small copy as a data: URL


class Refusal(Exception):
    """A request the studio answers with a short page: status and message key."""

    def __init__(self, status: int, key: str, values: Mapping[str, object] | None = None) -> None:
        super().__init__(key)
        self.status = status
        self.key = key
        self.values = values or {}


class Studio:
    def __init__(
        self,
        *,
        sessions: SessionStore | FirebaseSessions,
        content: StudioContent,
        photos: PhotoStore,
        photo_urls: PhotoUrlPolicy,
        image_hosts: tuple[str, ...],
        photo_max_bytes: int,
        google: GoogleSignIn | None = None,
        photo_size_script: str | None = None,
    ) -> None:
        self.sessions: StaffSessions = sessions
        # Local: one button, no account (loopback only); Firebase: email and password.
        self._sign_in = sessions
        # Firebase mode's first way in: Google accounts, through the sign-in page's script.
        self._google = google
        # The form's photo limit checked in the browser (ui/studio/photoSize.ts), if built.
        self._photo_size_script = photo_size_script
        self.content = content
        self.photos = photos
        self.photo_max_bytes = photo_max_bytes
        self._photo_urls = photo_urls
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
        self._stylesheet = STYLESHEET.read_bytes()

    # Pages -------------------------------------------------------------------

    async def home(self, request: Request) -> Response:
        if await self._session(request) is not None:
            return RedirectResponse("/studio/projects", 303)
        return self._sign_in_page(request)

    async def stylesheet(self, _request: Request) -> Response:
        return Response(
            self._stylesheet,
            media_type="text/css",
            headers={"Cache-Control": "no-cache", **studio_headers(self._image_hosts)},
        )

    async def language(self, request: Request) -> Response:
        try:
            locale = Locale(request.path_params["lang"])
        except ValueError:
            raise HTTPException(404) from None
        back = request.query_params.get("next", "/studio")
        if not back.startswith("/studio") or "//" in back or "\\" in back:
            back = "/studio"
        response = RedirectResponse(back, 303)
        response.set_cookie(
            LANGUAGE_COOKIE, locale.value, max_age=365 * 86400, path=COOKIE_PATH, samesite="strict"
        )
        return response

    async def list_page(self, request: Request) -> Response:
        session = await self._require_session(request)
        collection = _collection(request)
        # In the site's order: the order staff arrange.
        documents = sorted(
            await self.content.documents(collection), key=lambda document: site_order(document[1])
        )
        banner = await self._live_banner(request, collection)
        # Names as visitors in the studio's language see them.
        locale = request_locale(request)
        photos = [url for _, fields in documents if isinstance(url := fields.get("photoUrl"), str)]
        # Thumbnails through the site's image route: a few KB each, not the camera's megabytes.
        photo_keys: PhotoKeys = request.state.photo_keys
        keys = await photo_keys.keys_for(photos)
        items = [
            {
                "id": doc_id,
                "name": _shown_name(doc_id, fields, locale),
                "photo": _thumbnail(fields.get("photoUrl"), keys),
            }
            for doc_id, fields in documents
        ]
        return self._page(
            request,
            "list.html",
            {"collection": collection, "items": items, "banner": banner},
            session=session,
            refresh=_next_look(request) if banner is not None and not banner["live"] else None,
        )

    async def new_form(self, request: Request) -> Response:
        session = await self._require_session(request)
        collection = _collection(request)
        return self._form(request, session, collection, None, {}, {})

    async def edit_form(self, request: Request) -> Response:
        session = await self._require_session(request)
        collection = _collection(request)
        document_id = request.path_params["id"]
        fields, version = await self._existing(collection, document_id)
        return self._form(request, session, collection, document_id, fields, {}, version=version)

    async def delete_form(self, request: Request) -> Response:
        session = await self._require_session(request)
        collection = _collection(request)
        document_id = request.path_params["id"]
        fields, version = await self._existing(collection, document_id)
        return self._delete_page(request, session, collection, document_id, fields, version)

    # Writes ------------------------------------------------------------------

    async def sign_in(self, request: Request) -> Response:
        _require_same_origin(request)
        if not self.sign_in_limits.allow(_client(request)):
            raise Refusal(429, "too_many")
        sign_in = self._sign_in
        if isinstance(sign_in, SessionStore):
            cookie, _session = sign_in.open(LOCAL_STAFF)
            who = LOCAL_STAFF
            # Plain http on loopback in development.
            secure = request.url.scheme == "https"
        else:
            length = request.headers.get("content-length", "")
            if not length.isdigit() or int(length) > FORM_OVERHEAD_BYTES:
                raise Refusal(413, "too_large", self._limits())
            form = await request.form(max_files=0, max_fields=5)
            id_token, email = form.get("id_token"), form.get("email")
            password = form.get("password")
            try:
                if isinstance(id_token, str) and id_token:
                    cookie = await sign_in.sign_in_with_id_token(id_token)
                elif isinstance(email, str) and isinstance(password, str) and email and password:
                    cookie = await sign_in.sign_in_with_password(email.strip(), password)
                else:
                    raise NoAccess("wrong_password")
            except NoAccess as refused:
                status = {"no_access": 403, "sign_in_unavailable": 503}.get(refused.key, 401)
                typed = email.strip() if isinstance(email, str) else None
                return self._sign_in_page(request, error=refused.key, status=status, email=typed)
            who = email.strip() if isinstance(email, str) and email else "Google account"
            secure = True
        logger.info("Studio sign-in: %s", who, extra={"who": who})
        response = RedirectResponse("/studio/projects", 303)
        response.set_cookie(
            COOKIE_NAME,
            cookie,
            max_age=int(self.sessions.lifetime_seconds),
            path=COOKIE_PATH,
            httponly=True,
            samesite="strict",
            secure=secure,
        )
        return response

    async def sign_out(self, request: Request) -> Response:
        _session, _form = await self._write_request(request)
        await self.sessions.close(request.cookies.get(COOKIE_NAME))
        response = RedirectResponse("/studio", 303)
        response.delete_cookie(COOKIE_NAME, path=COOKIE_PATH, httponly=True, samesite="strict")
        return response

    async def create(self, request: Request) -> Response:
        session, form = await self._write_request(request, upload=True)
        collection = _collection(request)
        values = read_text_fields(collection, form)
        errors = text_errors(collection, values)
        # A slide has no name: its photo's file name, or "slide" when that has no Latin letter.
        wanted = make_id(values.get("name") or _upload_name(form)) or (
            "slide" if collection is Collection.SLIDER else ""
        )
        if not wanted and "name" not in errors:
            errors["name" if collection is not Collection.SLIDER else "photo"] = FieldError("no_id")
        photo, held = await self._chosen_photo(collection, form, errors, required=True)
        if errors or photo is None:
            kept = await self._keep(collection, photo, held)
            return self._form(
                request, session, collection, None, values, errors, status=422, kept=kept
            )
        taken = {doc_id for doc_id, _ in await self.content.documents(collection)}
        document_id = free_id(wanted, taken)
        photo_url = await self.photos.store(collection, document_id, photo)
        fields = {**values, "photoUrl": photo_url}
        errors = model_errors(collection, fields, self._photo_urls)
        try:
            created = not errors and await self.content.create(collection, document_id, fields)
        except Exception:
            await self.photos.discard(collection, photo_url)  # stored for a write that failed
            raise
        if not created:
            await self.photos.discard(collection, photo_url)
            errors = errors or {"name": FieldError("not_accepted", {"detail": "id taken"})}
            kept = await self._keep(collection, photo, held)
            return self._form(
                request, session, collection, None, values, errors, status=422, kept=kept
            )
        await self.photos.release(collection, held)
        log_change(who=session.who, action="create", collection=collection, document_id=document_id)
        self._content_changed(request, collection)
        return RedirectResponse(_list_url(collection, saved=document_id), 303)

    async def update(self, request: Request) -> Response:
        session, form = await self._write_request(request, upload=True)
        collection = _collection(request)
        document_id = request.path_params["id"]
        current, version = await self._existing(collection, document_id)
        opened = _form_text(form, "version")
        values = read_text_fields(collection, form)
        errors = text_errors(collection, values)
        photo, held = await self._chosen_photo(collection, form, errors, required=False)
        shown = {**values, "photoUrl": current.get("photoUrl", "")}
        if opened != version:
            # Saved by someone else since this form opened: theirs is shown, nothing written.
            kept = await self._keep(collection, photo, held)
            return self._changed_form(
                request, session, collection, document_id, shown, current, version, kept
            )
        if errors:
            return self._form(
                request,
                session,
                collection,
                document_id,
                shown,
                errors,
                status=422,
                version=version,
                kept=await self._keep(collection, photo, held),
            )
        old_photo = current.get("photoUrl")
        fields = dict(values)
        if not fields and photo is None:
            # A slide saved without a new photo: nothing to write.
            return RedirectResponse(f"/studio/{collection.page_key}", 303)
        if photo is not None:
            fields["photoUrl"] = await self.photos.store(collection, document_id, photo)
        errors = model_errors(collection, {**current, **fields}, self._photo_urls)
        if errors:
            if "photoUrl" in fields:
                await self.photos.discard(collection, fields["photoUrl"])
            return self._form(
                request,
                session,
                collection,
                document_id,
                shown,
                errors,
                status=422,
                version=version,
                kept=await self._keep(collection, photo, held),
            )
        new_photo = fields.get("photoUrl")
        try:
            updated = await self.content.update(collection, document_id, fields, version=version)
        except Exception as error:
            if new_photo is not None:
                await self.photos.discard(collection, new_photo)  # stored for a write that failed
            if isinstance(error, Changed):  # saved by someone else a moment ago
                latest, latest_version = await self._existing(collection, document_id)
                kept = await self._keep(collection, photo, held)
                return self._changed_form(
                    request, session, collection, document_id, shown, latest, latest_version, kept
                )
            raise
        if not updated:
            if new_photo is not None:
                await self.photos.discard(collection, new_photo)
            raise HTTPException(404)
        await self.photos.release(collection, held)
        # The old photo goes only once the document points at the new one.
        if photo is not None and isinstance(old_photo, str) and old_photo != fields["photoUrl"]:
            await self._discard_unused(collection, old_photo)
        log_change(who=session.who, action="update", collection=collection, document_id=document_id)
        self._content_changed(request, collection)
        return RedirectResponse(_list_url(collection, saved=document_id), 303)

    async def delete(self, request: Request) -> Response:
        session, form = await self._write_request(request)
        collection = _collection(request)
        document_id = request.path_params["id"]
        try:
            removed = await self.content.delete(
                collection, document_id, version=_form_text(form, "version")
            )
        except Changed:
            # Edited by someone else since the question was asked: ask again, with their version.
            current, version = await self._existing(collection, document_id)
            return self._delete_page(
                request, session, collection, document_id, current, version, changed=True
            )
        if removed is None:
            raise HTTPException(404)
        photo_url = removed.get("photoUrl")
        if isinstance(photo_url, str):
            await self._discard_unused(collection, photo_url)
        log_change(who=session.who, action="delete", collection=collection, document_id=document_id)
        self._content_changed(request, collection)
        return RedirectResponse(_list_url(collection, deleted=document_id), 303)

    async def move(self, request: Request) -> Response:
        """One place up or down in the site's order; every entry then has a position."""
        session, form = await self._write_request(request)
        collection = _collection(request)
        document_id = request.path_params["id"]
        documents = sorted(
            await self.content.documents(collection), key=lambda document: site_order(document[1])
        )
        ids = [doc_id for doc_id, _ in documents]
        if document_id not in ids:
            raise HTTPException(404)
        here = ids.index(document_id)
        there = here - 1 if _form_text(form, "direction") == "up" else here + 1
        if 0 <= there < len(ids):
            ids[here], ids[there] = ids[there], ids[here]
        # Tens, so an edit in the Firebase console can slot an entry between two.
        wanted = {doc_id: 10 * (index + 1) for index, doc_id in enumerate(ids)}
        current = dict(documents)
        changed = {
            doc_id: position
            for doc_id, position in wanted.items()
            if current[doc_id].get(POSITION_FIELD) != position
        }
        if changed:
            await self.content.set_positions(collection, changed)
            log_change(
                who=session.who, action="move", collection=collection, document_id=document_id
            )
            self._content_changed(request, collection)
        return RedirectResponse(f"/studio/{collection.page_key}#item-{quote(document_id)}", 303)

    # Helpers -----------------------------------------------------------------

    async def _session(self, request: Request) -> StaffSession | None:
        return await self.sessions.find(request.cookies.get(COOKIE_NAME))

    async def _existing(
        self, collection: Collection, document_id: str
    ) -> tuple[dict[str, Any], str]:
        """The document's fields and version, or a 404."""
        fields = await self.content.document(collection, document_id)
        version = await self.content.version(collection, document_id)
        if fields is None or version is None:
            raise HTTPException(404)
        return fields, version

    def _changed_form(
        self,
        request: Request,
        session: StaffSession,
        collection: Collection,
        document_id: str,
        yours: Mapping[str, Any],
        theirs: dict[str, Any],
        their_version: str,
        kept: HeldPhoto | None,
    ) -> Response:
        """The form again, 409: the staff member's text kept, the other person's beside it."""
        their_changes = {
            name: theirs.get(name, "")
            for name in text_fields(collection)
            if theirs.get(name, "") != yours.get(name, "")
        }
        return self._form(
            request,
            session,
            collection,
            document_id,
            yours,
            {},
            status=409,
            # Saving again now replaces their version knowingly.
            version=their_version,
            their_changes=their_changes,
            kept=kept,
        )

    def _delete_page(
        self,
        request: Request,
        session: StaffSession,
        collection: Collection,
        document_id: str,
        fields: dict[str, Any],
        version: str,
        *,
        changed: bool = False,
    ) -> Response:
        return self._page(
            request,
            "delete.html",
            {
                "collection": collection,
                "id": document_id,
                "name": _shown_name(document_id, fields, request_locale(request)),
                "fields": fields,
                "version": version,
                "changed": changed,
            },
            session=session,
            status=409 if changed else 200,
        )

    async def _require_session(self, request: Request) -> StaffSession:
        session = await self._session(request)
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
        length = request.headers.get("content-length")
        limit = (UPLOAD_CEILING * self.photo_max_bytes if upload else 0) + FORM_OVERHEAD_BYTES
        if length is None or not length.isdigit() or int(length) > limit:
            raise Refusal(413, "too_large", self._limits())
        form = await request.form(max_files=1 if upload else 0, max_fields=20)
        token = form.get("csrf")
        if not session.accepts(token if isinstance(token, str) else None):
            await form.close()
            raise Refusal(403, "bad_token")
        return session, form

    async def _chosen_photo(
        self,
        collection: Collection,
        form: FormData,
        errors: dict[str, FieldError],
        *,
        required: bool,
    ) -> tuple[CheckedPhoto | None, str]:
        """The photo sent with the form, else the one held for it; and its held name, if held."""
        held = _form_text(form, "held_photo")
        upload = form.get("photo")
        if isinstance(upload, UploadFile) and upload.size:
            if held:
                await self.photos.release(collection, held)  # another photo chosen instead
            return await self._checked_photo(form, errors, required=required), ""
        photo = await self.photos.held(collection, held) if held else None
        if photo is not None:
            return photo, held
        return await self._checked_photo(form, errors, required=required), ""

    async def _keep(
        self, collection: Collection, photo: CheckedPhoto | None, held: str
    ) -> HeldPhoto | None:
        """Hold a form's good photo while the form comes back, so it need not be chosen again."""
        if photo is None:
            return None
        name = held or await self.photos.hold(collection, photo)
        return HeldPhoto(name, preview_data_url(photo))

    async def _checked_photo(
        self, form: FormData, errors: dict[str, FieldError], *, required: bool
    ) -> CheckedPhoto | None:
        upload = form.get("photo")
        if isinstance(upload, UploadFile) and (upload.size or 0) > self.photo_max_bytes:
            errors["photo"] = FieldError("photo_too_big", self._limits())  # not read at all
            return None
        data = await upload.read() if isinstance(upload, UploadFile) else b""
        if not data:
            if required:
                errors["photo"] = FieldError("photo_required")
            return None
        try:
            return check_photo(data, max_bytes=self.photo_max_bytes)
        except PhotoProblem as problem:
            errors["photo"] = FieldError(problem.key, self._limits())
            return None

    async def _discard_unused(self, collection: Collection, photo_url: str) -> None:
        if not await self.content.photo_in_use(photo_url):
            await self.photos.discard(collection, photo_url)

    def _content_changed(self, request: Request, collection: Collection) -> None:
        # The pages' cache reads the file again at once rather than after its period.
        cache: ContentCache = request.state.content
        cache.expire(collection)

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
        fields = await self.content.document(collection, saved)
        expected = parse_document(collection, saved, fields, self._photo_urls) if fields else None
        live = expected is not None and expected in snapshot.items
        return {
            "live": live,
            "key": "saved_live" if live else "saved_pending",
            "url": _public_url(collection, saved),
        }

    def _limits(self) -> dict[str, object]:
        return {"mb": f"{self.photo_max_bytes / 1_000_000:g}", "mp": MAX_PIXELS // 1_000_000}

    def _form(
        self,
        request: Request,
        session: StaffSession,
        collection: Collection,
        document_id: str | None,
        values: Mapping[str, Any],
        errors: Mapping[str, FieldError],
        *,
        status: int = 200,
        version: str = "",
        their_changes: Mapping[str, str] | None = None,
        kept: HeldPhoto | None = None,
    ) -> Response:
        if kept is not None:
            values = {**values, "photoUrl": kept.preview}
        preview = _preview(collection, document_id or "preview", values)
        return self._page(
            request,
            "form.html",
            {
                "collection": collection,
                "id": document_id,
                "values": values,
                "errors": errors,
                "fields": text_fields(collection),
                "long_fields": ("description", "description_ar"),
                "max_lengths": MAX_LENGTHS,
                "version": version,
                "their_changes": their_changes,
                "preview": preview,
                "kept": kept,
                "limits": self._limits(),
                "max_bytes": self.photo_max_bytes,
                "photo_size_script": self._photo_size_script,
            },
            session=session,
            status=status,
            scripts={"script-src": "'self'"} if self._photo_size_script else None,
        )

    def _page(
        self,
        request: Request,
        template: str,
        context: Mapping[str, Any],
        *,
        session: StaffSession | None = None,
        status: int = 200,
        refresh: str | None = None,
        scripts: Mapping[str, str] | None = None,
    ) -> Response:
        locale = request_locale(request)

        def t(key: str, **values: object) -> str:
            return text(key, locale, **values)

        def error_text(error: FieldError) -> str:
            return text(error.key, locale, **error.values)

        html = self._templates.get_template(template).render(
            {
                **context,
                "t": t,
                "error_text": error_text,
                "locale": locale,
                "dir": "rtl" if locale is Locale.AR else "ltr",
                "other_locale": Locale.EN if locale is Locale.AR else Locale.AR,
                "here": quote(request.url.path),
                "session": session,
                "collections": list(Collection),
                "refresh": refresh,
            }
        )
        return HTMLResponse(html, status, headers=studio_headers(self._image_hosts, scripts))

    def _sign_in_page(
        self,
        request: Request,
        *,
        error: str | None = None,
        status: int = 200,
        email: str | None = None,
    ) -> Response:
        local = isinstance(self._sign_in, SessionStore)
        google = self._google
        return self._page(
            request,
            "sign_in.html",
            # The address typed is kept: only the password is typed again.
            {"local": local, "error": error, "google": google, "email": email},
            status=status,
            scripts=google.csp_directives() if google else None,
        )

    def refusal_page(self, request: Request, refusal: Refusal) -> Response:
        return self._page(
            request,
            "refusal.html",
            {"key": refusal.key, "values": refusal.values},
            status=refusal.status,
        )


def request_locale(request: Request) -> Locale:
    try:
        return Locale(request.cookies.get(LANGUAGE_COOKIE, "en"))
    except ValueError:
        return Locale.EN


def _thumbnail(photo_url: object, keys: Mapping[str, str]) -> str | None:
    """The list's thumbnail: the image route's smallest width, else the photo itself."""
    if not isinstance(photo_url, str):
        return None
    key = keys.get(photo_url)
    return f"/img/{THUMBNAIL_VARIANT}/{key}" if key is not None else photo_url


def _shown_name(document_id: str, fields: Mapping[str, Any], locale: Locale) -> str:
    """The entry's name as staff in the studio's language call it: Arabic where there is one."""
    for key in ("name_ar", "name") if locale is Locale.AR else ("name",):
        if isinstance(fields.get(key), str) and fields[key]:
            return str(fields[key])
    return document_id


def _collection(request: Request) -> Collection:
    collection = Collection.from_page_key(request.path_params["collection"])
    if collection is None:
        raise HTTPException(404)
    return collection


# How many times a list waiting for a change to go live looks again, a second
# apart, before it stops and leaves the "putting it live" note as it is.
LIVE_LOOKS = 30


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


def _upload_name(form: FormData) -> str:
    upload = form.get("photo")
    name = upload.filename if isinstance(upload, UploadFile) and upload.filename else ""
    return name.rsplit(".", 1)[0]


def _list_url(collection: Collection, **change: str) -> str:
    ((what, document_id),) = change.items()
    return f"/studio/{collection.page_key}?{what}={quote(document_id)}"


def _public_url(collection: Collection, document_id: str) -> str:
    for page in LIST_PAGES:
        if page.cards is collection and page.locale is Locale.EN:
            return ItemPage(page, document_id).path
    return "/"


def _preview(
    collection: Collection, document_id: str, values: Mapping[str, Any]
) -> list[dict[str, Any]] | None:
    """The card as visitors see it in each language, when the values make one."""
    if collection is Collection.SLIDER:
        return None
    card = CardItem(
        id=document_id,
        name=str(values.get("name") or ""),
        description=str(values.get("description") or ""),
        photoUrl=str(values.get("photoUrl") or ""),
        name_ar=values.get("name_ar") or None,
        description_ar=values.get("description_ar") or None,
    )
    return [
        {
            "locale": locale,
            "dir": "rtl" if locale is Locale.AR else "ltr",
            "name": card.localized_name(locale),
            "description": card.localized_description(locale),
            "photo": card.photoUrl,
        }
        for locale in Locale
    ]
