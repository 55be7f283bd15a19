"""schema.org JSON-LD for search engines: the company, its branches, the lists, the cards."""

from __future__ import annotations

from typing import Any

from server.content.models import CardItem, Collection, ContentItem
from server.site.company import Branch, Company
from server.site.facts import SITE
from server.site.languages import Locale, messages
from server.site.pages import ItemPage, SitePage

JsonLd = dict[str, Any]

LOGO_PATH = "/icon-512.png"


def absolute(base_url: str, url: str) -> str:
    return url if url.startswith(("https://", "http://")) else base_url + url


def organization(company: Company, base_url: str, locale: Locale) -> JsonLd:
    """The company, with one LocalBusiness per branch, in the page's language."""
    data: JsonLd = {
        "@type": "Organization",
        "@id": f"{base_url}/#organization",
        "name": company.text("name", locale),
        "inLanguage": locale.code,
        "url": base_url + "/",
        "logo": base_url + LOGO_PATH,
        "foundingDate": "1969",
        "department": [_branch(company, branch, base_url, locale) for branch in company.branches],
    }
    if company.same_as:
        data["sameAs"] = list(company.same_as)
    return data


def _branch(company: Company, branch: Branch, base_url: str, locale: Locale) -> JsonLd:
    address: JsonLd = {"@type": "PostalAddress", "addressCountry": branch.country_code}
    street = branch.localized_address(locale)
    if street:
        address["streetAddress"] = street
    data: JsonLd = {
        "@type": "LocalBusiness",
        "name": f"{company.text('name', locale)} ({branch.country_name(locale)})",
        "url": base_url + "/#contact",
        "image": base_url + LOGO_PATH,
        "telephone": branch.phone,
        "address": address,
    }
    if branch.email:
        data["email"] = branch.email
    return data


def item_list(items: tuple[ContentItem, ...], base_url: str, page: SitePage) -> JsonLd:
    """A list page's cards, in the order and language shown, each with its address."""
    locale = page.locale
    cards = [item for item in items if isinstance(item, CardItem)]
    return {
        "@type": "ItemList",
        "name": page.title,
        "url": base_url + page.path,
        "numberOfItems": len(cards),
        "itemListElement": [
            {
                "@type": "ListItem",
                "position": position,
                "item": {
                    "@type": "CreativeWork",
                    "name": card.localized_name(locale),
                    "description": card.localized_description(locale),
                    "image": absolute(base_url, card.photoUrl),
                    "url": base_url + ItemPage(page, card.id).path,
                },
            }
            for position, card in enumerate(cards, start=1)
        ],
    }


def card_page(card: CardItem, page: ItemPage, image: str, base_url: str) -> JsonLd:
    """One card on its own page, and the way to it from its list; a stone is a Product."""
    list_page = page.list_page
    locale = list_page.locale
    url = base_url + page.path
    list_url = base_url + list_page.path
    name = card.localized_name(locale)
    data: JsonLd = {
        "@type": "WebPage",
        "@id": url,
        "url": url,
        "name": name,
        "inLanguage": locale.code,
        "isPartOf": {"@type": "CollectionPage", "name": list_page.title, "url": list_url},
        "mainEntity": {
            "@type": "CreativeWork",
            "name": name,
            "description": card.localized_description(locale),
            "image": image,
            "url": url,
            "publisher": {"@id": f"{base_url}/#organization"},
        },
        "breadcrumb": {
            "@type": "BreadcrumbList",
            "itemListElement": [
                {"@type": "ListItem", "position": 1, "name": list_page.title, "item": list_url},
                {"@type": "ListItem", "position": 2, "name": name, "item": url},
            ],
        },
    }
    if page.collection is Collection.STONES:
        data["mainEntity"] = stone(card, data["mainEntity"], locale)
    return data


def stone(stone: CardItem, work: JsonLd, locale: Locale) -> JsonLd:
    """A stone's page's main entity (card_page's `work`) as a Product: its family as the
    material, its colour, origin and finishes, and each figure with its unit and standard."""
    text = messages(locale)["stones"]
    details = stone.details
    figures = [
        {
            "@type": "PropertyValue",
            "name": text["figures"][figure["field"]],
            "value": details[figure["field"]],
            "unitText": figure["unit"],
            "measurementTechnique": figure["standard"],
        }
        for figure in SITE["stones"]["figures"]
        if figure["field"] in details
    ]
    if details.get("finishes"):
        names = text["listSeparator"].join(text["finish"][f] for f in details["finishes"])
        figures.insert(0, {"@type": "PropertyValue", "name": text["finishesTitle"], "value": names})
    product: JsonLd = {**work, "@type": "Product", "additionalProperty": figures}
    product["manufacturer"] = product.pop("publisher")
    if "family" in details:
        product["material"] = text["family"][details["family"]]
    if "colour" in details:
        product["color"] = text["colour"][details["colour"]]
    origin = details.get(locale.field("origin")) or details.get("origin")
    if origin:
        product["countryOfOrigin"] = origin
    return product
