"""The Enquiries tab: what visitors sent (server/enquiries/ keeps it), newest first, by branch and
status; an enquiry read once opened, answered by links, marked handled, deleted after asking.
The list's filters go along (`kept`), so an action brings staff back to the list they chose."""

from __future__ import annotations

from urllib.parse import quote, urlencode

import phonenumbers
from starlette.requests import Request
from starlette.responses import Response

from server.enquiries.fields import Enquiry, State
from server.site.languages import DEFAULT_LOCALE, Locale, locale_named
from server.studio.lifespan import Studio
from server.studio.service import Missing, audited
from server.studio.templating import say, to_list

TAB = "enquiries"
FILTERS = ("branch", "state")


async def list_page(studio: Studio, request: Request) -> Response:
    session = await studio.guards.session(request)
    query = request.query_params
    branch = query.get("branch") or None
    state = next((state for state in State if state == query.get("state")), None)
    found = await studio.enquiries.newest_first(branch=branch, state=state)
    done = next((change for change in ("handled", "deleted") if change in query), None)
    return studio.templates.render(
        request,
        "inbox.html",
        tab=TAB,
        session=session,
        documents=[(enquiry.id, enquiry) for enquiry in found],
        branch=branch,
        state=state,
        states=list(State),
        banner={"live": True, "key": f"enquiry_{done}"} if done else None,
        kept=_kept(request),
    )


async def enquiry_page(studio: Studio, request: Request) -> Response:
    session = await studio.guards.session(request)
    enquiry = await _enquiry(studio, request)
    if not enquiry.read:
        await studio.enquiries.update(enquiry.id, read=True)
    visitor = locale_named(enquiry.language) or DEFAULT_LOCALE
    return studio.templates.render(
        request,
        "enquiry.html",
        tab=TAB,
        session=session,
        enquiry=enquiry,
        visitor=visitor,
        answers=answers(enquiry, visitor),
        kept=_kept(request),
    )


async def mark_handled(studio: Studio, request: Request) -> Response:
    session, _form = await studio.guards.write(request)
    enquiry_id = request.path_params["id"]
    if not await studio.enquiries.update(enquiry_id, state=State.HANDLED):
        raise Missing(enquiry_id)
    audited(session.who, "handled", "Enquiries", enquiry_id)
    return to_list(request, TAB, _kept(request, ("handled", enquiry_id)))


async def delete_form(studio: Studio, request: Request) -> Response:
    session = await studio.guards.session(request)
    enquiry = await _enquiry(studio, request)
    return studio.templates.render(
        request,
        "delete.html",
        tab=TAB,
        session=session,
        fields=enquiry.fields,
        question="enquiry_delete_question",
        kept=_kept(request),
    )


async def delete(studio: Studio, request: Request) -> Response:
    session, _form = await studio.guards.write(request)
    enquiry_id = request.path_params["id"]
    if not await studio.enquiries.delete(enquiry_id):
        raise Missing(enquiry_id)
    audited(session.who, "delete", "Enquiries", enquiry_id)
    return to_list(request, TAB, _kept(request, ("deleted", enquiry_id)))


def answers(enquiry: Enquiry, visitor: Locale) -> list[tuple[str, str]]:
    """Each way to answer, by its message key, and its link: the staff member's mail program with
    a subject in the visitor's language naming the stone or project, a call, WhatsApp."""
    fields, links = enquiry.fields, []
    if fields["email"]:
        topic = enquiry.topic
        subject = say(visitor, "reply_about", topic=topic) if topic else say(visitor, "reply")
        mailto = f"mailto:{quote(fields['email'], safe='@')}?subject={quote(subject)}"
        links.append(("answer_email", mailto))
    if number := international(fields["phone"], fields["country"]):
        whatsapp = f"https://wa.me/{number.removeprefix('+')}"
        links += [("answer_phone", f"tel:{number}"), ("contact.whatsApp", whatsapp)]
    return links


def international(phone: str, country: str) -> str | None:
    """The number as +<digits> (a national one read as the visitor's country's), or None."""
    try:
        number = phonenumbers.parse(phone, country or None)
    except phonenumbers.NumberParseException:
        return None
    if not phonenumbers.is_possible_number(number):
        return None
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def _kept(request: Request, *then: tuple[str, str]) -> str:
    """The list's filters, and `then`, as a query to add to a link; "" without any."""
    query = [(name, value) for name in FILTERS if (value := request.query_params.get(name, ""))]
    return f"?{urlencode([*query, *then])}" if query or then else ""


async def _enquiry(studio: Studio, request: Request) -> Enquiry:
    enquiry = await studio.enquiries.get(request.path_params["id"])
    if enquiry is None:
        raise Missing(request.path_params["id"])
    return enquiry
