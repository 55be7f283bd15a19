"""The site's pages: their paths, what they say to search engines, what they read."""

from __future__ import annotations

from dataclasses import dataclass

from server.content.models import Collection


@dataclass(frozen=True, kw_only=True)
class SitePage:
    path: str
    title: str
    description: str
    # The collections the server fetches and inlines for this page.
    collections: tuple[Collection, ...]
    # The page's headings, for the plain page served when rendering fails.
    headings: tuple[str, ...]
    # The React page component's module: its chunk is preloaded with the page.
    ui_module: str


LANDING = SitePage(
    path="/",
    title="Marble, Jerusalem stone and granite from Jordan",
    description=(
        "Factory and quarry in Zarqa, Jordan: sawing and cutting of blocks to finished "
        "products in marble, Jerusalem stone and granite, shipped to the Gulf, Europe and the US."
    ),
    collections=(Collection.SLIDER,),
    ui_module="ui/pages/LandingPage.tsx",
    headings=(
        "WELCOME TO THE WORLD OF FINE STONE",
        "Our Services",
        "About Us",
        "Our Work in Stone",
        "Book an appointment",
        "Contact Us",
    ),
)
PROJECTS = SitePage(
    path="/projects",
    title="Projects",
    description="Our projects in marble, Jerusalem stone and granite: façades, floors, stairs.",
    collections=(Collection.PROJECTS,),
    ui_module="ui/pages/ProjectsPage.tsx",
    headings=("Projects",),
)
COLLABRATIONS = SitePage(
    path="/Collabrations",
    title="Collabrations",
    description="The architects, contractors and distributors we work with around the world.",
    collections=(Collection.COLLABRATIONS,),
    ui_module="ui/pages/CollabrationsPage.tsx",
    headings=("Collabrations",),
)
NOT_FOUND = SitePage(
    path="/404",
    title="Page not found",
    description="This page does not exist.",
    collections=(),
    ui_module="ui/pages/NotFoundPage.tsx",
    headings=("This page is not here",),
)

PAGES: tuple[SitePage, ...] = (LANDING, PROJECTS, COLLABRATIONS)
