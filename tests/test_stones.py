"""The stone catalogue over HTTP: /stones and its filters, a page per stone in every
language, what search engines read of them, and stones whose documents are wrong."""

from __future__ import annotations

import html
import json
import logging
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from server.app import create_app
from server.settings import REPO_ROOT, Settings
from server.site.languages import LOCALES, messages
from tests.content_files import sample_cards, write_content
from tests.support import parse

BASE = "https://www.stone.example"
STONES: list[dict[str, Any]] = json.loads((REPO_ROOT / "content" / "stones.json").read_text())
TRANSLATED = ("ar", "fr", "it")
NAMES = tuple(f"name_{code}" for code in TRANSLATED)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(render_pool_size=1, public_base_url=BASE))) as client:
        yield client


def listed(page: str) -> list[str]:
    """The ids of the stones a list page shows, in order (its cards' links)."""
    return re.findall(r'<a class="card" href="/(?:\w\w/)?stones/([^"]+)"', page)


def json_ld(page: str) -> list[dict[str, Any]]:
    found = re.search(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)
    assert found is not None
    graph: list[dict[str, Any]] = json.loads(found.group(1))["@graph"]
    return graph


def in_site_order(stones: list[dict[str, Any]]) -> list[str]:
    return [stone["id"] for stone in sorted(stones, key=lambda stone: stone["position"])]


@pytest.mark.parametrize("prefix", ["", "/ar", "/fr", "/it"])
def test_every_stone_has_its_page_in_every_language(client: TestClient, prefix: str) -> None:
    code = prefix.strip("/") or "en"
    listing = client.get(f"{prefix}/stones")
    assert listing.status_code == 200
    assert listed(listing.text) == in_site_order(STONES)
    for stone in STONES:
        response = client.get(f"{prefix}/stones/{stone['id']}")
        assert response.status_code == 200, stone["id"]
        name = stone.get(f"name_{code}", stone["name"])
        assert f">{html.escape(name, quote=False)}</h1>" in response.text, stone["id"]


@pytest.mark.parametrize("prefix", ["", "/fr"])
def test_an_unknown_stone_is_a_404_in_its_language(client: TestClient, prefix: str) -> None:
    response = client.get(f"{prefix}/stones/no-such-stone")
    assert response.status_code == 404
    locale = LOCALES[1 + TRANSLATED.index("fr")] if prefix else LOCALES[0]
    assert f'<html lang="{locale.code}"' in response.text
    assert messages(locale)["notFound"]["title"] in html.unescape(response.text)


def test_the_granite_filter_lists_exactly_the_granites(client: TestClient) -> None:
    page = client.get("/stones?family=granite").text
    granites = [stone for stone in STONES if stone["family"] == "granite"]
    assert granites
    assert listed(page) == in_site_order(granites)
    assert f"Showing {len(granites)} of {len(STONES)} stones" in page


@pytest.mark.parametrize(
    ("family", "finish"),
    [("limestone", "bush-hammered"), ("granite", "honed"), ("marble", "brushed")],
)
def test_family_and_finish_list_exactly_the_stones_with_both(
    client: TestClient, family: str, finish: str
) -> None:
    both = [s for s in STONES if s["family"] == family and finish in s["finishes"]]
    assert both
    assert len(both) < len([s for s in STONES if s["family"] == family])
    page = client.get(f"/stones?family={family}&finish={finish}")
    assert listed(page.text) == in_site_order(both)
    # The same choice asked in another order is the same page.
    again = client.get(f"/stones?finish={finish}&family={family}")
    assert again.headers["etag"] == page.headers["etag"]


def test_a_filtered_list_is_not_indexed_and_names_the_whole_list_canonical(
    client: TestClient,
) -> None:
    whole = client.get("/fr/stones").text
    assert '<meta name="robots" content="noindex">' not in whole
    assert f'<link rel="canonical" href="{BASE}/fr/stones">' in whole
    filtered = client.get("/fr/stones?colour=beige").text
    assert '<meta name="robots" content="noindex">' in filtered
    assert f'<link rel="canonical" href="{BASE}/fr/stones">' in filtered
    assert 'hreflang="' not in filtered
    assert "application/ld+json" not in filtered


def test_no_match_says_so_with_a_way_back(client: TestClient) -> None:
    page = client.get("/stones?family=granite&colour=white").text
    assert listed(page) == []
    assert "No stone matches these filters." in page
    assert re.search(r'<a href="/stones"[^>]*>Show all stones</a>', page)


def test_unknown_filter_values_are_the_whole_list_from_one_cache_entry(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    client.get("/stones")
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="server.access"):
        answers = [
            client.get("/stones", params={"family": f"onyx-{n}", "colour": "<b>", "x": str(n)})
            for n in range(20)
        ]
    assert {answer.status_code for answer in answers} == {200}
    assert all(listed(answer.text) == in_site_order(STONES) for answer in answers)
    # Each was the whole list's page, from the rendered-page cache: no new page per value.
    assert caplog.text.count("html cache hit") == len(answers)
    assert "html cache miss" not in caplog.text


def test_a_stones_page_has_its_figures_with_units_and_standards(client: TestClient) -> None:
    page = html.unescape(client.get("/stones/jerusalem-gold").text)
    for label, value in (
        ("Apparent density", "2,480 kg/m³"),
        ("Water absorption", "2.6 %"),
        ("Compressive strength", "88 MPa"),
        ("Flexural strength", "10.4 MPa"),
        ("Abrasion resistance", "21 mm"),
    ):
        assert re.search(rf"<th scope=\"row\">{label}</th><td><bdi>{value}</bdi>", page), label
    assert "<td><bdi>EN 1936</bdi></td>" in page
    french = html.unescape(client.get("/fr/stones/jerusalem-gold").text)
    assert "2\u202f480 kg/m³" in french
    assert "Masse volumique apparente" in french


def test_a_figure_left_empty_leaves_its_row_out(client: TestClient) -> None:
    stone = next(stone for stone in STONES if "abrasion" not in stone)
    page = client.get(f"/stones/{stone['id']}").text
    assert "Abrasion resistance" not in page
    assert "Apparent density" in page


def test_a_stone_and_the_projects_that_used_it_link_each_other(client: TestClient) -> None:
    stone_page = client.get("/fr/stones/jerusalem-gold").text
    assert 'href="/fr/projects/abdoun-villa-facade"' in stone_page
    assert 'href="/fr/Collabrations/tilal-and-noor-interiors"' in stone_page
    project_page = client.get("/fr/projects/abdoun-villa-facade").text
    assert 'href="/fr/stones/jerusalem-gold"' in project_page
    # Each page inlines the collection it links as names only, so it stays small.
    stone_data: dict[str, Any] = parse(stone_page).page_data
    assert set(stone_data["content"]) == {"stones"}
    named = stone_data["names"]["projects"]
    assert {"id", "name", "name_fr", "stones"} <= set(named[0]) <= {"id", "stones", "name", *NAMES}
    project_data: dict[str, Any] = parse(project_page).page_data
    assert set(project_data["content"]) == {"projects"}
    assert "description" not in project_data["names"]["stones"][0]


def test_ask_about_this_stone_leads_to_the_enquiry_page_in_its_language(
    client: TestClient,
) -> None:
    page = client.get("/fr/stones/aqaba-red").text
    assert 'href="/fr/enquiry?stone=aqaba-red"' in page
    enquiry = client.get("/fr/enquiry?stone=aqaba-red")
    assert enquiry.status_code == 200
    # The form, and below it the branches to write to or call.
    assert "+33 1 55 55 01 00" in enquiry.text


@pytest.mark.parametrize("prefix", ["", "/ar", "/fr", "/it"])
def test_the_header_and_the_hero_lead_to_the_stones(client: TestClient, prefix: str) -> None:
    landing = client.get(prefix or "/").text
    code = prefix.strip("/") or "en"
    text = messages(next(locale for locale in LOCALES if locale.code == code))
    stones = f"{prefix}/stones"
    nav = landing[landing.index('<nav class="site-nav"') :]
    label = text["header"]["stones"]
    assert re.search(rf'href="{stones}"[^>]*>{label}</a>', nav[: nav.index("</nav>")])
    hero = landing[landing.index('class="hero__actions"') :]
    buttons = re.findall(r'<a class="button[^"]*" href="([^"]+)"', hero[: hero.index("</div>")])
    assert buttons == [f"{prefix}/projects", f"{prefix}/Collabrations", stones]


def test_a_stone_is_a_product_for_search_engines(client: TestClient) -> None:
    page = client.get("/it/stones/aqaba-red").text
    assert f'<link rel="canonical" href="{BASE}/it/stones/aqaba-red">' in page
    assert f'<link rel="alternate" hreflang="ar" href="{BASE}/ar/stones/aqaba-red">' in page
    assert '<meta property="og:title" content="Rosso di Aqaba | Pietre |' in page
    assert re.search(rf'<meta property="og:image" content="{BASE}/img/og1200/[^"]+">', page)
    [web_page] = [node for node in json_ld(page) if node["@type"] == "WebPage"]
    product = web_page["mainEntity"]
    assert product["@type"] == "Product"
    assert product["name"] == "Rosso di Aqaba"
    assert product["material"] == "Granito"
    assert product["color"] == "Rosso"
    properties = {p["name"]: p for p in product["additionalProperty"]}
    assert properties["Massa volumica apparente"] == {
        "@type": "PropertyValue",
        "name": "Massa volumica apparente",
        "value": 2640,
        "unitText": "kg/m³",
        "measurementTechnique": "EN 1936",
    }
    assert properties["Finiture"]["value"] == "Lucidato, Fiammato, Levigato, Bocciardato"


def test_the_sitemap_lists_every_stone_in_every_language(client: TestClient) -> None:
    namespace = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    root = ET.fromstring(client.get("/sitemap.xml").text)  # noqa: S314 - our own document
    entries = {
        url.findtext("s:loc", namespaces=namespace) for url in root.findall("s:url", namespace)
    }
    for stone in STONES:
        assert f"{BASE}/stones/{stone['id']}" in entries
        assert {f"{BASE}/{code}/stones/{stone['id']}" for code in TRANSLATED} <= entries


def test_a_stone_with_wrong_values_is_shown_without_them(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    stone = {
        "id": "galala",
        "name": "Galala",
        "description": "A beige marble.",
        "photoUrl": "/images/sample.jpg",
        "family": "onyx",
        "colour": "beige",
        "finishes": ["honed", "waxed"],
        "finishPhotos": {"honed": "javascript:alert(1)"},
        "formats": "slabs",
        "density": "heavy",
        "absorption": 0.4,
    }
    projects = [{**sample_cards("p", 1)[0], "stones": ["galala", 7, "no-such-stone"]}]
    content = write_content(tmp_path, projects=projects, stones=[stone])
    settings = Settings(content_dir=content, render_pool_size=1)
    with TestClient(create_app(settings)) as client, caplog.at_level(logging.WARNING):
        listing = client.get("/stones")
        page = client.get("/stones/galala")
        project = client.get("/projects/p-1")
    assert (listing.status_code, page.status_code, project.status_code) == (200, 200, 200)
    assert listed(listing.text) == ["galala"]
    text = html.unescape(page.text)
    assert ">Honed</dd>" in text
    assert "waxed" not in text
    assert "javascript:" not in text
    assert "Apparent density" not in text
    assert "Water absorption" in text
    assert 'href="/stones/galala"' in project.text
    assert "no-such-stone" not in project.text.split('id="page-data"')[0]
    assert "Showing, without what is wrong, Stones/galala: field 'family'" in caplog.text
