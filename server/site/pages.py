"""The site's pages in each language (ui/site.json's route table): paths, titles, reads."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import quote, urlencode

from server.site.facts import SITE, Collection
from server.site.languages import DEFAULT_LOCALE, LOCALES, Locale, locale_of_path, messages


@dataclass(frozen=True, kw_only=True)
class SitePage:
    key: str  # in the catalogues and the React router: landing, projects...
    locale: Locale
    english_path: str  # the English path; `path` is the page's own, in its language
    # The collections the server fetches and inlines for this page; those of which it
    # inlines names only, and those its cards' pages add (server/rendering/page_content.py).
    collections: tuple[Collection, ...]
    names: tuple[Collection, ...] = ()
    card_names: tuple[Collection, ...] = ()
    cards: Collection | None = None  # a list page's cards, each at its own address below it

    @property
    def reads(self) -> tuple[Collection, ...]:
        return self.collections + self.names

    @property
    def list_page(self) -> SitePage:
        """The page whose content is shown: itself (an ItemPage's is the page its card is on)."""
        return self

    @property
    def path(self) -> str:
        return self.locale.path(self.english_path)

    @property
    def title(self) -> str:
        return str(messages(self.locale)["pages"][self.key]["title"])

    @property
    def description(self) -> str:
        return str(messages(self.locale)["pages"][self.key]["description"])

    def document_title(self, company_name: str) -> str:
        """The <title>: the landing page leads with the company, the others with the page."""
        template: str = SITE["titles"]["landing" if self.key == "landing" else "page"]
        return template.format(company=company_name, page=self.title)

    @property
    def headings(self) -> tuple[str, ...]:
        """The page's headings, for the plain page served when rendering fails."""
        text = messages(self.locale)
        if self.key == "landing":
            sections = ("hero", "services", "about", "slider", "booking", "contact")
            return tuple(text[section]["title"] for section in sections)
        return (text["notFound"]["title"],) if self.key == "notFound" else (self.title,)

    def in_locale(self, locale: Locale) -> SitePage:
        return _BY_KEY[(self.key, locale)]

    def filtered(self, query: Iterable[tuple[str, str]]) -> SitePage | FilteredPage:
        """The stones' list with the filters of `query` it knows (the first known value of
        each, as ui/pages/StonesPage.tsx reads them); itself when none, or not the stones'."""
        if self.cards is not Collection.STONES:
            return self
        pairs = list(query)
        chosen = [
            (name, next((value for key, value in pairs if key == name and value in values), ""))
            for name, values in STONE_FILTERS.items()
        ]
        normalized = urlencode([(name, value) for name, value in chosen if value])
        return FilteredPage(self, normalized) if normalized else self


@dataclass(frozen=True)
class FilteredPage:
    """A list page showing some of its cards (/stones?family=granite): not indexed,
    its canonical address the whole list's. The query is in a fixed order, so each
    choice of filters is one page (one entry of the rendered-page cache)."""

    list_page: SitePage
    query: str

    @property
    def path(self) -> str:
        return f"{self.list_page.path}?{self.query}"

    @property
    def reads(self) -> tuple[Collection, ...]:
        return self.list_page.reads

    def in_locale(self, locale: Locale) -> FilteredPage:
        return FilteredPage(self.list_page.in_locale(locale), self.query)


@dataclass(frozen=True)
class ItemPage:
    """One card at its own address (/projects/{id}): its list page with the card's modal open."""

    list_page: SitePage
    item_id: str  # the Firestore document id, as it is (decoded)

    @property
    def path(self) -> str:
        """The page's path, the id escaped as the browser's encodeURIComponent does,
        so the server's links and the ones the browser builds are the same."""
        return self.list_page.path + "/" + quote(self.item_id, safe="!'()*")

    @property
    def collection(self) -> Collection:
        assert self.list_page.cards is not None  # a list page's, by the routes made for them
        return self.list_page.cards

    @property
    def reads(self) -> tuple[Collection, ...]:
        return self.list_page.reads + self.list_page.card_names

    def in_locale(self, locale: Locale) -> ItemPage:
        return ItemPage(self.list_page.in_locale(locale), self.item_id)

    def document_title(self, company_name: str, card_name: str) -> str:
        template: str = SITE["titles"]["card"]
        return template.format(card=card_name, page=self.list_page.title, company=company_name)


Page = SitePage | ItemPage | FilteredPage  # any page the renderer makes
STONE_FILTERS = SITE["stones"]["filters"]  # family, colour, finish, and the values each takes

_NOT_FOUND = {"page": "notFound", "path": SITE["notFoundPath"], "collections": []}
_BY_KEY: dict[tuple[str, Locale], SitePage] = {
    (entry["page"], locale): SitePage(
        key=entry["page"],
        locale=locale,
        english_path=entry["path"],
        collections=tuple(map(Collection, entry["collections"])),
        names=tuple(map(Collection, entry.get("names", []))),
        card_names=tuple(map(Collection, entry.get("cardNames", []))),
        cards=Collection(entry["cards"]) if "cards" in entry else None,
    )
    for locale in LOCALES
    for entry in (*SITE["pages"], _NOT_FOUND)
}

LANDING = _BY_KEY[("landing", DEFAULT_LOCALE)]
PROJECTS = _BY_KEY[("projects", DEFAULT_LOCALE)]
COLLABRATIONS = _BY_KEY[("collabrations", DEFAULT_LOCALE)]
STONES = _BY_KEY[("stones", DEFAULT_LOCALE)]

# The pages with a route, in every language (404 pages are answers, not routes).
PAGES: tuple[SitePage, ...] = tuple(page for page in _BY_KEY.values() if page.key != "notFound")
# Their paths, English first: the routes a visitor lands on.
ROUTE_PATHS: tuple[str, ...] = tuple(page.path for page in PAGES)
ENGLISH_ROUTE_PATHS = tuple(page.path for page in PAGES if page.locale is DEFAULT_LOCALE)
# The pages whose cards each have an address below theirs, in every language.
LIST_PAGES: tuple[SitePage, ...] = tuple(page for page in PAGES if page.cards is not None)
# The enquiry form, in every language: the pages that take a POST.
ENQUIRY_PAGES: tuple[SitePage, ...] = tuple(page for page in PAGES if page.key == "enquiry")
ITEM_ROUTE = "/{item_id}"  # appended to a list page's path: the route of its cards' pages


def not_found_page(path: str) -> SitePage:
    """The 404 page in the language of the path asked for."""
    return _BY_KEY[("notFound", locale_of_path(path))]
