"""A page's meta, made in one place: title, description, canonical address, alternates in
every language, the picture of a shared link (Open Graph, Twitter) and its JSON-LD."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from server.content.cache import Snapshot
from server.content.models import CardItem
from server.images.variants import SOCIAL
from server.seo import structured_data
from server.seo.structured_data import JsonLd
from server.site.company import Company
from server.site.languages import DEFAULT_LOCALE, LOCALES, messages
from server.site.pages import FilteredPage, ItemPage, Page

SOCIAL_IMAGE_PATH = "/images/og-default.jpg"  # the picture of a shared page (Open Graph, Twitter)
# An item's name and description in its page's title and description: search
# results and link previews show less, and a document's text can be long.
MAX_TITLE_NAME = 100
MAX_DESCRIPTION = 300


@dataclass(frozen=True, kw_only=True)
class PageMeta:
    title: str
    description: str
    site_name: str
    lang: str
    dir: str
    og_locale: str
    alternates: tuple[tuple[str, str], ...]  # (hreflang, URL) in each language, for an indexed page
    canonical_url: str | None
    indexed: bool  # false: robots are asked not to index it (the 404 page, a filtered list)
    image_url: str
    structured_data: JsonLd | None  # schema.org JSON-LD, for an indexed page


def page_meta(
    page: Page,
    snapshots: Sequence[Snapshot],
    company: Company,
    base_url: str,
    photo_keys: Mapping[str, str],
    item: CardItem | None,
) -> PageMeta:
    """The meta of `page`, made from its collections' `snapshots`; an item's page has its own."""
    list_page = page.list_page
    locale = list_page.locale
    company_name = company.text("name", locale)
    nodes = [structured_data.organization(company, base_url, locale)]
    if item is None or not isinstance(page, ItemPage):
        title = list_page.document_title(company_name)
        description = list_page.description
        image = base_url + SOCIAL_IMAGE_PATH
        nodes += [
            structured_data.item_list(snapshot.items, base_url, list_page)
            for collection, snapshot in zip(page.reads, snapshots, strict=False)
            if collection is list_page.cards
        ]
    else:
        title = page.document_title(
            company_name, shortened(item.localized_name(locale), MAX_TITLE_NAME)
        )
        description = shortened(item.localized_description(locale), MAX_DESCRIPTION)
        photo_key = photo_keys.get(item.photoUrl)
        # Through the image route when it takes the photo: a 1200 px JPEG any
        # link preview reads, not the original, which may be megabytes.
        image = (
            f"{base_url}/img/{SOCIAL}/{photo_key}"
            if photo_key is not None
            else structured_data.absolute(base_url, item.photoUrl)
        )
        nodes.append(structured_data.card_page(item, page, image, base_url))
    # A filtered list is the whole list's page for search engines.
    canonical = base_url + list_page.path if isinstance(page, FilteredPage) else None
    indexed = list_page.key != "notFound" and canonical is None
    # The same page in every language, English as the default (hreflang).
    alternates = [(other.code, page.in_locale(other)) for other in LOCALES]
    alternates.append(("x-default", page.in_locale(DEFAULT_LOCALE)))
    catalogue = messages(locale)["meta"]
    return PageMeta(
        title=title,
        description=description,
        site_name=company_name,
        lang=catalogue["lang"],
        dir=catalogue["dir"],
        og_locale=catalogue["ogLocale"],
        canonical_url=base_url + page.path if indexed else canonical,
        indexed=indexed,
        alternates=tuple((code, base_url + other.path) for code, other in alternates if indexed),
        image_url=image,
        structured_data={"@context": "https://schema.org", "@graph": nodes} if indexed else None,
    )


def shortened(text: str, limit: int) -> str:
    """`text` on one line, cut at a word before `limit` characters when longer."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:.") + "…"
