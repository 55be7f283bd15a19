"""schema.org JSON-LD for search engines: the company, its branches, the lists."""

from __future__ import annotations

from typing import Any

from server.company import Branch, Company
from server.content.models import CardItem, ContentItem

JsonLd = dict[str, Any]

LOGO_PATH = "/icon-512.png"


def absolute(base_url: str, url: str) -> str:
    return url if url.startswith(("https://", "http://")) else base_url + url


def organization(company: Company, base_url: str) -> JsonLd:
    """The company, with one LocalBusiness per branch carrying its contact details."""
    data: JsonLd = {
        "@type": "Organization",
        "@id": f"{base_url}/#organization",
        "name": company.name,
        "url": base_url + "/",
        "logo": base_url + LOGO_PATH,
        "foundingDate": "1969",
        "department": [_branch(company, branch, base_url) for branch in company.branches],
    }
    if company.same_as:
        data["sameAs"] = list(company.same_as)
    return data


def _branch(company: Company, branch: Branch, base_url: str) -> JsonLd:
    address: JsonLd = {"@type": "PostalAddress", "addressCountry": branch.country_code}
    if branch.address:
        address["streetAddress"] = branch.address
    data: JsonLd = {
        "@type": "LocalBusiness",
        "name": f"{company.name} ({branch.country})",
        "url": base_url + "/#contact",
        "image": base_url + LOGO_PATH,
        "telephone": branch.phone,
        "address": address,
    }
    if branch.email:
        data["email"] = branch.email
    return data


def item_list(name: str, items: tuple[ContentItem, ...], base_url: str, page_path: str) -> JsonLd:
    """A list page's cards, in the order shown."""
    cards = [item for item in items if isinstance(item, CardItem)]
    return {
        "@type": "ItemList",
        "name": name,
        "url": base_url + page_path,
        "numberOfItems": len(cards),
        "itemListElement": [
            {
                "@type": "ListItem",
                "position": position,
                "item": {
                    "@type": "CreativeWork",
                    "name": card.name,
                    "description": card.description,
                    "image": absolute(base_url, card.photoUrl),
                },
            }
            for position, card in enumerate(cards, start=1)
        ],
    }


def graph(*nodes: JsonLd) -> JsonLd:
    return {"@context": "https://schema.org", "@graph": list(nodes)}
