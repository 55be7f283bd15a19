"""ui/site.json, the facts the server and the browser share (esbuild bundles it into
the UI), and the theme colours of ui/styles/palette.css."""

from __future__ import annotations

import json
import re
from typing import NotRequired, TypedDict

from server.settings import REPO_ROOT

SITE_FILE = REPO_ROOT / "ui" / "site.json"
PALETTE_FILE = REPO_ROOT / "ui" / "styles" / "palette.css"


class Language(TypedDict):
    # Prepended to an English path: "" for English at the root, "/ar" for Arabic.
    prefix: str
    # Which of the site's fonts its pages use (build.py): latin or arabic.
    script: str
    # The visitor's country the enquiry form guesses from the page's language, if any.
    country: NotRequired[str]


class PageEntry(TypedDict):
    page: str
    path: str
    collections: list[str]
    cards: NotRequired[str]
    # Collections of which the page shows names and links only (a project's stones), and
    # its cards' pages (a stone's page: the projects that used it).
    names: NotRequired[list[str]]
    cardNames: NotRequired[list[str]]


class Titles(TypedDict):
    landing: str
    page: str
    card: str


class CollectionEntry(TypedDict):
    firestore: str
    fetchError: str


class PhotoSizes(TypedDict):
    # The image route's widths (at the photo's own ratio) and square crops.
    widths: list[int]
    squares: list[int]


class Figure(TypedDict):
    # A stone's figure: its field, unit, test standard and the values it may take.
    field: str
    unit: str
    standard: str
    min: float
    max: float


class StoneFacts(TypedDict):
    # The values of a stone's family, colour and finishes, by the name of the
    # list's filter (family, colour, finish), in the filters' order.
    filters: dict[str, list[str]]
    figures: list[Figure]


class EnquiryFacts(TypedDict):
    # The most characters each field of the enquiry form takes, by field.
    limits: dict[str, int]
    required: list[str]
    maxLinks: int


class Theme(TypedDict):
    colour: str
    background: str


class SiteFacts(TypedDict):
    languages: dict[str, Language]
    pages: list[PageEntry]
    notFoundPath: str
    titles: Titles
    collections: dict[str, CollectionEntry]
    photoSizes: PhotoSizes
    stones: StoneFacts
    enquiry: EnquiryFacts


SITE: SiteFacts = json.loads(SITE_FILE.read_text(encoding="utf-8"))

_PALETTE = dict(re.findall(r"(--[\w-]+):\s*(#[0-9a-fA-F]{3,6})", PALETTE_FILE.read_text()))
# The toolbar and the icon take the header's colour; the manifest the page's.
THEME = Theme(colour=_PALETTE["--stone-950"], background=_PALETTE["--stone-50"])
