"""/enquiry in each language: the form (GET), an enquiry sent (POST: stored, then a redirect to
the thank-you page, /enquiry?sent=<id>, so reloading it sends nothing), and the form again
with what was typed when it cannot be taken. Thin: server/enquiries/intake.py decides."""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response

from server.enquiries.intake import Intake
from server.enquiries.mail import Outbox
from server.http.caching import NO_STORE
from server.http.page_response import page_response
from server.rendering.page_renderer import PageRenderer
from server.site.pages import FilteredPage, SitePage

logger = logging.getLogger(__name__)

MAX_BODY_BYTES = 64 * 1024
FORM_MEDIA_TYPE = "application/x-www-form-urlencoded"


async def enquiry_page(request: Request, page: SitePage) -> Response:
    intake: Intake = request.state.intake
    if request.method == "POST":
        return await _sent(request, page, intake)
    query = request.query_params
    form = await intake.receipt(page.locale, query["sent"]) if "sent" in query else None
    if form is None:
        referer = urlsplit(request.headers.get("referer", ""))
        came_from = referer.path if referer.netloc == request.url.netloc else ""
        accept_language = request.headers.get("accept-language", "")
        form = await intake.blank(
            page.locale, query, accept_language=accept_language, came_from=came_from
        )
    return await _form_page(request, page, form, 200)


async def _sent(request: Request, page: SitePage, intake: Intake) -> Response:
    media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media_type != FORM_MEDIA_TYPE:
        return PlainTextResponse("Unsupported Media Type", 415, {"Cache-Control": NO_STORE})
    body = bytearray()
    # Counted as it arrives, whatever Content-Length says.
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            logger.warning("Enquiry refused: a body over %d bytes", MAX_BODY_BYTES)
            return PlainTextResponse("Content Too Large", 413, {"Cache-Control": NO_STORE})
    try:
        posted = dict(
            parse_qsl(body.decode(errors="replace"), keep_blank_values=True, max_num_fields=40)
        )
    except ValueError:
        return PlainTextResponse("Bad Request", 400, {"Cache-Control": NO_STORE})
    address = request.client.host if request.client else ""
    outcome = await intake.submit(page.locale, posted, address=address)
    if outcome.enquiry_id is None:
        return await _form_page(request, page, outcome.form or {}, outcome.status)
    outbox: Outbox = request.state.outbox
    # The mail goes after the visitor has the answer; the same form sent again sends none.
    mail = BackgroundTask(outbox.send, outcome.enquiry_id) if outcome.new else None
    thanks = f"{page.path}?sent={outcome.enquiry_id}"
    return RedirectResponse(thanks, 303, {"Cache-Control": NO_STORE}, background=mail)


async def _form_page(
    request: Request, page: SitePage, form: dict[str, Any], status: int
) -> Response:
    renderer: PageRenderer = request.state.renderer
    # With a query (?stone=, ?sent=), the page is /enquiry's for search engines.
    shown = FilteredPage(page, request.url.query) if request.url.query else page
    rendered = await renderer.render_form(shown, form)
    retry = {"Retry-After": "600"} if status == 429 else None
    return page_response(request, rendered, status_code=status, shared=False, headers=retry)
