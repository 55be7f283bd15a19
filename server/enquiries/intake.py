"""The enquiry form's data (ui/types.ts: EnquiryForm), and what a posted form becomes: refused,
sent back with its problems, or stored. No HTTP here: server/handlers/enquiry.py answers."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from server.company import Company
from server.content.cache import ContentCache
from server.content.models import CardItem, Collection
from server.enquiries.fields import COUNTRY_CODES, Enquiry, checked, countries
from server.enquiries.guard import RATE_LIMIT, RATE_WINDOW_SECONDS, TOKEN_FIELD, Guard, Refused
from server.enquiries.store import Added, EnquiryStore, StoreUnavailable
from server.i18n import Locale
from server.site_facts import SITE

logger = logging.getLogger("server.enquiries")

# The form's hidden fields besides the token: what it is about (a project's or collabration's
# page: "projects/<id>") and the path of the page the visitor came from.
ABOUT, CAME_FROM = "about", "page"
# From a project's or collabration's page: /enquiry?project=<id>, ?collabration=<id>.
ABOUT_QUERIES = {"project": Collection.PROJECTS, "collabration": Collection.COLLABRATIONS}
# How long the thank-you page at /enquiry?sent=<id> shows what was sent.
RECEIPT_SECONDS = 86_400.0


@dataclass(frozen=True)
class Outcome:
    status: int
    # The form to show again (with its values, problems and a token); None once stored.
    form: dict[str, Any] | None = None
    enquiry_id: str | None = None
    # Stored by this post (not the same form sent again): its mail is to be sent.
    new: bool = False


class Intake:
    def __init__(
        self,
        *,
        store: EnquiryStore,
        company: Company,
        content: ContentCache,
        secret: str | None,
        min_seconds: float,
        keep_days: float,
    ) -> None:
        self._store = store
        self._company = company
        self._content = content
        self._secret = secret
        self._min_seconds = min_seconds
        self._keep_days = keep_days
        self._guard: Guard | None = None

    async def blank(
        self, locale: Locale, query: Mapping[str, str], *, accept_language: str, came_from: str
    ) -> dict[str, Any]:
        """A new form: the stone or project from the query, the country guessed."""
        about = next((f"{c.value}/{query[k]}" for k, c in ABOUT_QUERIES.items() if k in query), "")
        values = {
            "country": _guessed_country(locale, accept_language),
            "stone": query.get("stone", ""),
            ABOUT: about,
            CAME_FROM: came_from,
        }
        try:
            token = (await self.guard()).token(time.time())
        except StoreUnavailable as error:
            logger.error("Enquiry form without a token: %s", error)
            return await self.form(locale, values, problem="store")
        return await self.form(locale, values, token=token)

    async def receipt(self, locale: Locale, enquiry_id: str) -> dict[str, Any] | None:
        """The thank-you page's form: what was sent; None when there is no such enquiry
        (or it is older than a day, or the store does not answer)."""
        try:
            enquiry = await self._store.get(enquiry_id)
        except StoreUnavailable:
            return None
        if enquiry is None or time.time() - enquiry.created > RECEIPT_SECONDS:
            return None
        return await self.form(locale, enquiry.fields, sent=True)

    async def submit(self, locale: Locale, posted: Mapping[str, str], *, address: str) -> Outcome:
        now = time.time()
        values, errors = checked(posted)
        values |= {ABOUT: posted.get(ABOUT, ""), CAME_FROM: posted.get(CAME_FROM, "")}
        token = posted.get(TOKEN_FIELD, "")
        try:
            guard = await self.guard()
            enquiry_id = guard.enquiry_id(posted, now)
        except Refused as refusal:
            # What a bot sends is neither stored nor mailed; a person sends it again.
            logger.warning("Enquiry refused from %s: %s", address, refusal)
            return Outcome(
                400, await self.form(locale, values, problem="again", token=guard.token(now))
            )
        except StoreUnavailable as error:
            logger.error("Enquiry not stored: %s", error)
            return Outcome(503, await self.form(locale, values, problem="store", token=token))
        known = await self._known(values, locale)
        if errors:
            if errors.get("message") == "links":
                logger.warning("Enquiry refused from %s: more links than allowed", address)
            return Outcome(422, await self.form(locale, values, errors=errors, token=token))
        enquiry = Enquiry(
            id=enquiry_id,
            created=now,
            branch=self._company.branch_for(values["country"]).country_code,
            language=locale.code,
            page=values.pop(CAME_FROM),
            topic=known.stone.name if known.stone else known.about.name if known.about else "",
            fields=values,
        )
        try:
            added = await self._store.add(
                enquiry,
                address_key=guard.address_key(address),
                limit=RATE_LIMIT,
                window_seconds=RATE_WINDOW_SECONDS,
            )
        except StoreUnavailable as error:
            logger.error("Enquiry not stored: %s", error)
            return Outcome(503, await self.form(locale, values, problem="store", token=token))
        if added is Added.LIMITED:
            logger.warning(
                "Enquiry refused from %s: its %d in 10 minutes are sent", address, RATE_LIMIT
            )
            return Outcome(429, await self.form(locale, values, problem="tooMany", token=token))
        return Outcome(303, enquiry_id=enquiry_id, new=added is Added.ADDED)

    async def form(
        self,
        locale: Locale,
        values: Mapping[str, str],
        *,
        errors: Mapping[str, str] | None = None,
        problem: str | None = None,
        token: str = "",
        sent: bool = False,
    ) -> dict[str, Any]:
        """The form's page data; a sent one lists only the country and stone chosen."""
        values = dict(values)
        known = await self._known(values, locale)
        country, stone = values.get("country", ""), values.get("stone", "")
        return {
            "locale": locale.code,
            "countries": [[c, n] for c, n in countries(locale.code) if not sent or c == country],
            "stones": [
                [s.id, s.localized_name(locale)] for s in known.stones if not sent or s.id == stone
            ],
            "about": known.about and known.about.localized_name(locale),
            "values": {**values, TOKEN_FIELD: token},
            "errors": dict(errors or {}),
            "problem": problem,
            "branch": self._company.branch_for(country).for_page(locale),
            "keepDays": round(self._keep_days),
            "sent": sent,
        }

    async def guard(self) -> Guard:
        """The guard, its key read once: ENQUIRY_SECRET, else the store's (StoreUnavailable)."""
        if self._guard is None:
            secret = self._secret.encode() if self._secret else await self._store.secret()
            self._guard = Guard(secret, self._min_seconds)
        return self._guard

    async def _known(self, values: dict[str, str], locale: Locale) -> _Known:
        """The stones to choose from, and the stone and project named, if the content has
        them; a name it does not have is dropped from `values`."""
        stones = await self._cards(Collection.STONES)
        stone = next((s for s in stones if s.id == values.get("stone")), None)
        kind, _, item_id = values.get(ABOUT, "").partition("/")
        collection = (
            Collection.from_page_key(kind) if kind in ("projects", "collabrations") else None
        )
        items = await self._cards(collection) if collection else []
        about = next((item for item in items if item.id == item_id), None)
        values["stone"] = stone.id if stone else ""
        values[ABOUT] = f"{kind}/{about.id}" if about else ""
        came_from = values.get(CAME_FROM, "")
        values[CAME_FROM] = came_from if came_from.startswith("/") and len(came_from) < 300 else ""
        return _Known(stones, stone, about)

    async def _cards(self, collection: Collection) -> list[CardItem]:
        snapshot = await self._content.get(collection)
        return [item for item in snapshot.items if isinstance(item, CardItem)]


@dataclass(frozen=True)
class _Known:
    stones: list[CardItem]
    stone: CardItem | None
    about: CardItem | None


def _guessed_country(locale: Locale, accept_language: str) -> str:
    """The browser's region for the page's language (fr-BE: Belgium), else the language's own."""
    for tag in accept_language.split(","):
        language, _, region = tag.partition(";")[0].strip().partition("-")
        if language.lower() == locale.code and region.upper() in COUNTRY_CODES:
            return region.upper()
    return SITE["languages"][locale.code].get("country", "")
