"""A collection's pages (its form declared in forms.py): its list in the site's order, saying
whether a change is live yet; the form to add or edit an entry; the question before a delete."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from server.content.cache import ContentCache
from server.content.models import Collection
from server.images.urls import PhotoKeys
from server.images.variants import WIDTHS
from server.site.languages import DEFAULT_LOCALE
from server.site.pages import LIST_PAGES, ItemPage
from server.studio.fields import Choice, Conflict, Invalid, form_text
from server.studio.forms import FORM_NAMED, CollectionForm
from server.studio.lifespan import Studio
from server.studio.service import StudioService
from server.studio.sessions import StaffSession
from server.studio.templating import say, shown_name, staff_locale, to_list

# Shown 96 px wide: the smallest width the image route makes covers a 2x screen.
THUMBNAIL_VARIANT = f"w{min(WIDTHS)}"
# How many times a list waiting for a change to go live looks again, a second
# apart, before it stops and leaves the "putting it live" note as it is.
LIVE_LOOKS = 30


async def list_page(studio: Studio, request: Request) -> Response:
    session = await studio.guards.session(request)
    collection = _form(request).collection
    documents = await studio.service.in_site_order(collection)
    banner = await _live_banner(studio.service, request, collection)
    photos = [url for _, fields in documents if isinstance(url := fields.get("photoUrl"), str)]
    # Thumbnails through the site's image route: a few KB each, not the camera's megabytes.
    photo_keys: PhotoKeys = request.state.photo_keys
    keys = await photo_keys.keys_for(photos)
    return studio.templates.render(
        request,
        "list.html",
        documents=documents,
        thumbnails={url: f"/img/{THUMBNAIL_VARIANT}/{key}" for url, key in keys.items()},
        banner=banner,
        session=session,
        refresh=_next_look(request) if banner is not None and not banner["live"] else None,
    )


async def new_form(studio: Studio, request: Request) -> Response:
    return await _form_page(studio, request, await studio.guards.session(request), {})


async def edit_form(studio: Studio, request: Request) -> Response:
    session = await studio.guards.session(request)
    fields, version = await studio.service.existing(_form(request).collection, _id(request))
    return await _form_page(studio, request, session, fields, version=version)


async def delete_form(studio: Studio, request: Request) -> Response:
    session = await studio.guards.session(request)
    fields, version = await studio.service.existing(_form(request).collection, _id(request))
    return studio.templates.render(
        request, "delete.html", fields=fields, version=version, session=session
    )


async def create(studio: Studio, request: Request) -> Response:
    form = _form(request)
    session, sent = await studio.guards.write(request, uploads=len(form.photo_inputs))
    values, photos = await form.read(sent, studio.service.photo_max_bytes)
    try:
        document_id = await studio.service.create(session.who, form, values, photos)
    except Invalid as invalid:
        return await _form_page(studio, request, session, values, invalid)
    return to_list(request, form.key, f"?saved={quote(document_id)}")


async def update(studio: Studio, request: Request) -> Response:
    form, document_id = _form(request), _id(request)
    session, sent = await studio.guards.write(request, uploads=len(form.photo_inputs))
    values, photos = await form.read(sent, studio.service.photo_max_bytes)
    opened = form_text(sent, "version")
    try:
        written = await studio.service.update(
            session.who, form, document_id, values, photos, opened_version=opened
        )
    except Invalid as refused:
        # The form again with the staff member's text, and the photos as stored; after a
        # Conflict, the other person's beside it, and saving again replaces theirs knowingly.
        return await _form_page(studio, request, session, {**refused.stored, **values}, refused)
    return to_list(request, form.key, f"?saved={quote(document_id)}" if written else "")


async def delete(studio: Studio, request: Request) -> Response:
    session, sent = await studio.guards.write(request)
    collection, document_id = _form(request).collection, _id(request)
    try:
        await studio.service.delete(
            session.who, collection, document_id, form_text(sent, "version")
        )
    except Conflict as conflict:
        # Edited by someone else since the question was asked: ask again, with their version.
        asked: dict[str, Any] = {"fields": conflict.theirs, "version": conflict.version}
        return studio.templates.render(
            request, "delete.html", status=409, changed=True, session=session, **asked
        )
    return to_list(request, collection.page_key, f"?deleted={quote(document_id)}")


async def move(studio: Studio, request: Request) -> Response:
    session, sent = await studio.guards.write(request)
    collection, document_id = _form(request).collection, _id(request)
    up = form_text(sent, "direction") == "up"
    await studio.service.move(session.who, collection, document_id, up=up)
    return to_list(request, collection.page_key, f"#item-{quote(document_id)}")


async def _form_page(
    studio: Studio,
    request: Request,
    session: StaffSession,
    values: Mapping[str, Any],
    refused: Invalid | None = None,
    version: str = "",
) -> Response:
    """The form of the request's collection, for a new entry or the one it names; after a
    refused save, its mistakes or the other person's version, and the photos held for it."""
    status = 200 if refused is None else 409 if isinstance(refused, Conflict) else 422
    form = _form(request)
    return studio.templates.render(
        request,
        "form.html",
        status=status,
        scripts={"script-src": "'self'"} if studio.photo_size_script else None,
        photo_size_script=studio.photo_size_script,
        form=form,
        options=await _options(studio, request, form),
        values=values,
        errors=refused.errors if refused else {},
        kept=refused.kept if refused else {},
        refused=refused,
        version=refused.version if refused else version,
        session=session,
    )


async def _options(
    studio: Studio, request: Request, form: CollectionForm
) -> dict[str, dict[str, str]]:
    """Each choice's options in the staff member's language: the site's words, or entries' names."""
    locale, options = staff_locale(request), {}
    for field in form.fields:
        if isinstance(field, Choice) and field.of is not None:
            entries = await studio.service.in_site_order(field.of)
            options[field.key] = {key: shown_name(key, fields, locale) for key, fields in entries}
        elif isinstance(field, Choice):
            names = {option: say(locale, f"{field.labels}.{option}") for option in field.options}
            options[field.key] = names
    return options


async def _live_banner(
    service: StudioService, request: Request, collection: Collection
) -> dict[str, Any] | None:
    """Whether the change just saved is what visitors get now (the pages' own cache)."""
    saved = request.query_params.get("saved", "")
    deleted = request.query_params.get("deleted", "")
    if not saved and not deleted:
        return None
    cache: ContentCache = request.state.content
    snapshot = await cache.get(collection)
    if deleted:
        live = all(item.id != deleted for item in snapshot.items)
        return {"live": live, "key": "deleted_live" if live else "deleted_pending"}
    expected = await service.parsed(collection, saved)
    live = expected is not None and expected in snapshot.items
    key = "saved_live" if live else "saved_pending"
    return {"live": live, "key": key, "url": _public_url(collection, saved)}


def _next_look(request: Request) -> str | None:
    """The address of the list's next look for the change, or None once it has looked enough."""
    looks = request.query_params.get("looks", "0")
    done = int(looks) if looks.isdigit() else LIVE_LOOKS
    if done >= LIVE_LOOKS:
        return None
    return f"{request.url.path}?{request.url.include_query_params(looks=done + 1).query}"


def _public_url(collection: Collection, document_id: str) -> str:
    pages = [p for p in LIST_PAGES if p.cards is collection and p.locale is DEFAULT_LOCALE]
    return ItemPage(pages[0], document_id).path if pages else "/"  # the slider: the landing page


def _form(request: Request) -> CollectionForm:
    form = FORM_NAMED.get(request.path_params["collection"])
    if form is None:
        raise HTTPException(404)
    return form


def _id(request: Request) -> str:
    return str(request.path_params["id"])
