"""What search engines and link previews read: titles, canonical URLs, cards, JSON-LD."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from server.app import create_app
from server.settings import REPO_ROOT, Settings

BASE = "https://www.stone.example"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    settings = Settings(render_pool_size=1, public_base_url=BASE)
    with TestClient(create_app(settings)) as client:
        yield client


def meta(html: str, attribute: str, name: str) -> str:
    found = re.search(rf'<meta {attribute}="{re.escape(name)}" content="([^"]*)"', html)
    assert found is not None, f"no {name}"
    return found.group(1)


def json_ld(html: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


@pytest.mark.parametrize(
    ("path", "title", "description_word"),
    [
        ("/", "Example Fine Stone Co.: Marble, Jerusalem stone and granite from Jordan", "quarry"),
        ("/projects", "Projects | Example Fine Stone Co.", "projects"),
        ("/Collabrations", "Collabrations | Example Fine Stone Co.", "architects"),
    ],
)
def test_each_page_has_its_title_description_canonical_and_social_card(
    client: TestClient, path: str, title: str, description_word: str
) -> None:
    html = client.get(path).text
    assert html.startswith('<!doctype html>\n<html lang="en" dir="ltr">')
    assert f"<title>{title}</title>" in html
    assert description_word in meta(html, "name", "description").lower()
    assert f'<link rel="canonical" href="{BASE}{path}">' in html
    assert meta(html, "property", "og:url") == BASE + path
    assert meta(html, "property", "og:title") == title
    assert meta(html, "property", "og:image") == f"{BASE}/images/og-default.jpg"
    assert meta(html, "name", "twitter:card") == "summary_large_image"


def test_the_social_image_exists(client: TestClient) -> None:
    assert client.get("/images/og-default.jpg").status_code == 200


def test_the_company_and_its_three_branches_are_structured_data(client: TestClient) -> None:
    graph = json_ld(client.get("/").text)
    assert graph["@context"] == "https://schema.org"
    [organization] = graph["@graph"]
    assert organization["@type"] == "Organization"
    assert organization["name"] == "Example Fine Stone Co."
    assert organization["url"] == BASE + "/"
    assert organization["logo"] == BASE + "/icon-512.png"
    branches = {
        branch["address"]["addressCountry"]: branch for branch in organization["department"]
    }
    assert set(branches) == {"JO", "FR", "IT"}
    assert all(branch["@type"] == "LocalBusiness" for branch in branches.values())
    assert branches["JO"]["email"] == "info@example.com"
    assert branches["JO"]["telephone"] == "+962 5 555 0100"
    assert "Zarqa" in branches["JO"]["address"]["streetAddress"]
    assert branches["FR"]["telephone"] == "+33 1 55 55 01 00"
    assert "Paris" in branches["FR"]["address"]["streetAddress"]
    assert branches["IT"]["telephone"] == "+39 02 5555 0100"


@pytest.mark.parametrize(
    ("path", "file"), [("/projects", "projects"), ("/Collabrations", "collabrations")]
)
def test_list_pages_describe_their_cards_as_an_item_list(
    client: TestClient, path: str, file: str
) -> None:
    graph = json_ld(client.get(path).text)["@graph"]
    [item_list] = [node for node in graph if node["@type"] == "ItemList"]
    documents = json.loads((REPO_ROOT / "content" / f"{file}.json").read_text(encoding="utf-8"))
    assert item_list["numberOfItems"] == len(documents)
    names = [element["item"]["name"] for element in item_list["itemListElement"]]
    assert names == [document["name"] for document in documents]
    first = item_list["itemListElement"][0]
    assert first["position"] == 1
    assert first["item"]["image"] == BASE + documents[0]["photoUrl"]


def test_the_404_page_asks_not_to_be_indexed(client: TestClient) -> None:
    html = client.get("/nowhere").text
    assert '<meta name="robots" content="noindex">' in html
    assert 'rel="canonical"' not in html
    assert "application/ld+json" not in html


def test_robots_txt_points_at_the_sitemap(client: TestClient) -> None:
    response = client.get("/robots.txt")
    assert response.headers["content-type"].startswith("text/plain")
    assert "User-agent: *\nAllow: /" in response.text
    assert f"Sitemap: {BASE}/sitemap.xml" in response.text


def test_the_sitemap_lists_every_page_in_every_language(client: TestClient) -> None:
    response = client.get("/sitemap.xml")
    assert response.headers["content-type"] == "application/xml"
    namespace = {
        "s": "http://www.sitemaps.org/schemas/sitemap/0.9",
        "x": "http://www.w3.org/1999/xhtml",
    }
    root = ET.fromstring(response.text)  # noqa: S314 - our own document
    entries = {
        url.findtext("s:loc", default="", namespaces=namespace): url
        for url in root.findall("s:url", namespace)
    }
    paths = ("/projects", "/Collabrations", "/stones", "/enquiry")
    english = [f"{BASE}/", *(f"{BASE}{path}" for path in paths)]
    others = [f"{BASE}/{code}{path}" for code in ("ar", "fr", "it") for path in ("", *paths)]
    # And every project, collabration and stone (tests/test_item_pages.py, test_stones.py).
    pages = [
        entry for entry in entries if not re.search(r"/(projects|Collabrations|stones)/", entry)
    ]
    assert sorted(pages) == sorted(english + others)
    links = {
        link.get("hreflang"): link.get("href")
        for link in entries[f"{BASE}/projects"].findall("x:link", namespace)
    }
    assert links == {
        "en": f"{BASE}/projects",
        "ar": f"{BASE}/ar/projects",
        "fr": f"{BASE}/fr/projects",
        "it": f"{BASE}/it/projects",
    }


@pytest.mark.parametrize("path", ["/projects", "/ar/projects"])
def test_every_page_names_its_translations_for_search_engines(
    client: TestClient, path: str
) -> None:
    html = client.get(path).text
    assert f'<link rel="alternate" hreflang="en" href="{BASE}/projects">' in html
    assert f'<link rel="alternate" hreflang="ar" href="{BASE}/ar/projects">' in html
    assert f'<link rel="alternate" hreflang="x-default" href="{BASE}/projects">' in html


def test_arabic_pages_say_so_and_speak_arabic_to_search_engines(client: TestClient) -> None:
    html = client.get("/ar/projects").text
    assert html.startswith('<!doctype html>\n<html lang="ar" dir="rtl">')
    assert "<title>المشاريع | شركة الحجر الفاخر (اسم تجريبي)</title>" in html
    assert f'<link rel="canonical" href="{BASE}/ar/projects">' in html
    assert meta(html, "property", "og:locale") == "ar_JO"
    graph = json_ld(html)["@graph"]
    organization = graph[0]
    assert organization["name"] == "شركة الحجر الفاخر (اسم تجريبي)"
    assert organization["inLanguage"] == "ar"
    countries = [branch["name"] for branch in organization["department"]]
    assert countries[0].endswith("(الأردن)")
    [item_list] = [node for node in graph if node["@type"] == "ItemList"]
    assert item_list["name"] == "المشاريع"


def test_icons_and_the_web_app_manifest_are_served(client: TestClient) -> None:
    html = client.get("/").text
    for href in ("/favicon.ico", "/apple-touch-icon.png", "/manifest.webmanifest"):
        assert f'href="{href}"' in html
        assert client.get(href).status_code == 200
    assert client.get("/favicon.ico").content.startswith(b"\x00\x00\x01\x00")
    # Every page names the same tab icon, the 404 page too.
    for path in ("/projects", "/ar/Collabrations", "/no-such-page"):
        assert '<link rel="icon" href="/favicon.ico"' in client.get(path).text
    manifest = client.get("/manifest.webmanifest").json()
    assert manifest["name"] == "Example Fine Stone Co."
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).headers["content-type"] == "image/png"


def test_every_internal_link_is_a_real_href(client: TestClient) -> None:
    for path in ("/", "/projects", "/Collabrations"):
        html = client.get(path).text
        anchors = re.findall(r"<a\b[^>]*>", html)
        assert anchors
        assert all(re.search(r'href="[^"]+"', anchor) for anchor in anchors)
