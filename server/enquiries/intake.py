"""The enquiry form's data (ui/types.ts: EnquiryForm), and what a posted form becomes: refused,
sent back with its problems, or stored. No HTTP here: server/handlers/enquiry.py answers."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from server.content.cache import ContentCache
from server.content.models import CardItem, Collection
from server.enquiries.fields import COUNTRY_CODES, Enquiry, checked, countries
from server.enquiries.firestore import EnquiryStore
from server.enquiries.guard import RATE_LIMIT, RATE_WINDOW_SECONDS, TOKEN_FIELD, Guard, Refused
from server.enquiries.store import Added, StoreUnavailable
from server.settings import Settings
from server.site.company import Company
from server.site.facts import SITE
from server.site.languages import Locale

logger = logging.getLogger("server.enquiries")

# The form's hidden fields besides the token: what it is about (from a project's or
# collabration's page, /enquiry?project=<id>: "projects/<id>"), and the page it came from.
ABOUT, CAME_FROM = "about", "page"
ABOUT_QUERIES = {"project": "projects", "collabration": "collabrations"}
RECEIPT_SECONDS = 86_400.0  # how long the thank-you page, /enquiry?sent=<id>, shows what was sent


@dataclass(frozen=True)
class Outcome:
    status: int
    form: dict[str, Any] | None = None  # to show again (values, problems, token); None once stored
    enquiry_id: str | None = None
    new: bool = False  # stored by this post (not the same form sent again): its mail is to be sent


@dataclass
class Intake:
    store: EnquiryStore
    company: Company
    content: ContentCache
    settings: Settings
    _guard: Guard | None = field(default=None, init=False)

    async def blank(
        self, locale: Locale, query: Mapping[str, str], *, accept_language: str, came_from: str
    ) -> dict[str, Any]:
        """A new form: the stone or project from the query, the country guessed."""
        about = next((f"{c}/{query[k]}" for k, c in ABOUT_QUERIES.items() if k in query), "")
        country = _guessed_country(locale, accept_language)
        values = {"country": country, "stone": query.get("stone", ""), ABOUT: about}
        try:
            token = (await self.guard()).token(time.time())
        except StoreUnavailable as error:
            logger.error("Enquiry form without a token: %s", error)
            return await self.form(locale, values | {CAME_FROM: came_from}, problem="store")
        return await self.form(locale, values | {CAME_FROM: came_from}, token=token)

    async def receipt(self, locale: Locale, enquiry_id: str) -> dict[str, Any] | None:
        """The thank-you page's form: what was sent; None when there is no such enquiry (or
        it is older than a day, or the store does not answer)."""
        try:
            enquiry = await self.store.get(enquiry_id)
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
            status, problem = 422, None
            if errors.get("message") == "links":
                logger.warning("Enquiry refused from %s: more links than allowed", address)
            elif not errors:
                enquiry = await self._enquiry(enquiry_id, now, locale, values)
                key = guard.address_key(address)
                added = await self.store.add(
                    enquiry, address_key=key, limit=RATE_LIMIT, window_seconds=RATE_WINDOW_SECONDS
                )
                if added is not Added.LIMITED:
                    return Outcome(303, enquiry_id=enquiry_id, new=added is Added.ADDED)
                logger.warning(
                    "Enquiry refused from %s: its %d in 10 minutes sent", address, RATE_LIMIT
                )
                status, problem = 429, "tooMany"
        except Refused as refusal:
            # What a bot sends is neither stored nor mailed; a person sends it again.
            logger.warning("Enquiry refused from %s: %s", address, refusal)
            status, problem, token = 400, "again", guard.token(now)
        except StoreUnavailable as error:
            logger.error("Enquiry not stored: %s", error)
            status, problem = 503, "store"
        form = await self.form(locale, values, errors=errors, problem=problem, token=token)
        return Outcome(status, form)

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
        stones, stone, about = await self._known(values)
        country = values["country"]
        return {
            "locale": locale.code,
            "countries": [[c, n] for c, n in countries(locale.code) if not sent or c == country],
            "stones": [[s.id, s.localized_name(locale)] for s in stones if not sent or s is stone],
            "about": about and about.localized_name(locale),
            "values": values | {TOKEN_FIELD: token},
            "errors": dict(errors or {}),
            "problem": problem,
            "branch": self.company.branch_for(country).for_page(locale),
            "keepDays": round(self.settings.enquiry_keep_days),
            "sent": sent,
        }

    async def guard(self) -> Guard:
        """The guard, its key read once: ENQUIRY_SECRET, else the store's (StoreUnavailable)."""
        if self._guard is None:
            secret = self.settings.enquiry_secret
            key = secret.encode() if secret else await self.store.secret()
            self._guard = Guard(key, self.settings.enquiry_min_seconds)
        return self._guard

    async def _enquiry(
        self, enquiry_id: str, now: float, locale: Locale, values: dict[str, str]
    ) -> Enquiry:
        _stones, stone, about = await self._known(values)
        named = stone or about
        return Enquiry(
            id=enquiry_id,
            created=now,
            branch=self.company.branch_for(values["country"]).country_code,
            language=locale.code,
            page=values[CAME_FROM],
            # The mail's subject names it, in English.
            topic=named.name if named else "",
            # The page stays in `values`: a form that comes back (the store down, too many
            # sent) keeps it.
            fields={name: value for name, value in values.items() if name != CAME_FROM},
        )

    async def _known(
        self, values: dict[str, str]
    ) -> tuple[list[CardItem], CardItem | None, CardItem | None]:
        """The stones to choose from, and the stone and the project or collabration named, if
        the content has them; what it does not have is dropped from `values`."""
        stones = await self._cards("stones")
        stone = next((s for s in stones if s.id == values.get("stone")), None)
        kind, _, item_id = values.get(ABOUT, "").partition("/")
        items = await self._cards(kind) if kind in ABOUT_QUERIES.values() else []
        about = next((item for item in items if item.id == item_id), None)
        came_from = values.get(CAME_FROM, "")
        values |= {
            "stone": stone.id if stone else "",
            ABOUT: f"{kind}/{about.id}" if about else "",
            CAME_FROM: came_from if came_from.startswith("/") and len(came_from) < 300 else "",
        }
        return stones, stone, about

    async def _cards(self, collection: str) -> list[CardItem]:
        snapshot = await self.content.get(Collection(collection))
        return [item for item in snapshot.items if isinstance(item, CardItem)]


def _guessed_country(locale: Locale, accept_language: str) -> str:
    """The browser's region for the page's language (fr-BE: Belgium), else the language's own."""
    for tag in accept_language.split(","):
        language, _, region = tag.partition(";")[0].strip().partition("-")
        if language.lower() == locale.code and region.upper() in COUNTRY_CODES:
            return region.upper()
    return str(SITE["languages"][locale.code].get("country", ""))
