"""The site's pages in each language: paths, what they tell search engines, what they read."""

from __future__ import annotations

from dataclasses import dataclass

from server.content.models import Collection
from server.i18n import Locale, messages


@dataclass(frozen=True, kw_only=True)
class SitePage:
    # The page in the catalogues and the React router: landing, projects, ...
    key: str
    locale: Locale
    # The English path; `path` is the page's own, in its language.
    english_path: str
    # The collections the server fetches and inlines for this page.
    collections: tuple[Collection, ...]
    # The React page component's module: its chunk is preloaded with the page.
    ui_module: str

    @property
    def path(self) -> str:
        return self.locale.path(self.english_path)

    @property
    def title(self) -> str:
        return str(messages(self.locale)["pages"][self.key]["title"])

    @property
    def description(self) -> str:
        return str(messages(self.locale)["pages"][self.key]["description"])

    @property
    def headings(self) -> tuple[str, ...]:
        """The page's headings, for the plain page served when rendering fails."""
        text = messages(self.locale)
        if self.key == "landing":
            return (
                text["hero"]["title"],
                text["services"]["title"],
                text["about"]["title"],
                text["slider"]["title"],
                text["booking"]["title"],
                text["contact"]["title"],
            )
        if self.key == "notFound":
            return (text["notFound"]["title"],)
        return (text["lists"][f"{self.key}Title"],)

    def in_locale(self, locale: Locale) -> SitePage:
        """The same page in another language."""
        return _BY_KEY[(self.key, locale)]


_PAGES = (
    ("landing", "/", (Collection.SLIDER,), "ui/pages/LandingPage.tsx"),
    ("projects", "/projects", (Collection.PROJECTS,), "ui/pages/ProjectsPage.tsx"),
    (
        "collabrations",
        "/Collabrations",
        (Collection.COLLABRATIONS,),
        "ui/pages/CollabrationsPage.tsx",
    ),
    ("notFound", "/404", (), "ui/pages/NotFoundPage.tsx"),
)

_BY_KEY: dict[tuple[str, Locale], SitePage] = {
    (key, locale): SitePage(
        key=key,
        locale=locale,
        english_path=path,
        collections=collections,
        ui_module=module,
    )
    for locale in Locale
    for key, path, collections, module in _PAGES
}

LANDING = _BY_KEY[("landing", Locale.EN)]
PROJECTS = _BY_KEY[("projects", Locale.EN)]
COLLABRATIONS = _BY_KEY[("collabrations", Locale.EN)]
NOT_FOUND = _BY_KEY[("notFound", Locale.EN)]

# The pages with a route, in every language (404 pages are answers, not routes).
PAGES: tuple[SitePage, ...] = tuple(page for page in _BY_KEY.values() if page.key != "notFound")


def not_found_page(path: str) -> SitePage:
    """The 404 page in the language of the path asked for."""
    return NOT_FOUND.in_locale(Locale.of_path(path))
