"""Every project and collabration at its own address (/projects/{id}): what the
server sends, what search engines and link previews read, the sitemap, 404s,
odd ids and the cache of rendered pages."""

from __future__ import annotations

import html
import json
import logging
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from starlette.testclient import TestClient

from server.app import create_app
from server.settings import REPO_ROOT, Settings
from tests.content_files import sample_cards, write_content
from tests.images.photos import decoded

BASE = "https://www.stone.example"
COMPANY = "Example Fine Stone Co."
COMPANY_AR = "شركة الحجر الفاخر (اسم تجريبي)"
TRANSLATED = ("ar", "fr", "it")
SITEMAP = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}


def documents(file: str) -> list[dict[str, str]]:
    loaded: list[dict[str, str]] = json.loads(
        (REPO_ROOT / "content" / f"{file}.json").read_text(encoding="utf-8")
    )
    return loaded


# (list path, content file, list title) for every card of the sample content.
SAMPLE_ITEMS = [
    (path, document)
    for path, file in (("/projects", "projects"), ("/Collabrations", "collabrations"))
    for document in documents(file)
]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(render_pool_size=1, public_base_url=BASE))) as client:
        yield client


def meta(page: str, attribute: str, name: str) -> str:
    found = re.search(rf'<meta {attribute}="{re.escape(name)}" content="([^"]*)"', page)
    assert found is not None, f"no {name}"
    return html.unescape(found.group(1))


def title(page: str) -> str:
    found = re.search(r"<title>(.*?)</title>", page)
    assert found is not None
    return html.unescape(found.group(1))


def open_dialog(page: str) -> str:
    """The dialog element as the server sent it, asserting it is open."""
    found = re.search(r"<dialog\b([^>]*)>(.*?)</dialog>", page, re.S)
    assert found is not None, "no dialog"
    assert re.search(r"\bopen\b", found.group(1)), "the dialog is not open"
    return found.group(2)


def json_ld(page: str) -> list[dict[str, Any]]:
    found = re.search(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)
    assert found is not None
    graph: list[dict[str, Any]] = json.loads(found.group(1))["@graph"]
    return graph


@pytest.mark.parametrize(
    ("list_path", "document"), SAMPLE_ITEMS, ids=[d["id"] for _, d in SAMPLE_ITEMS]
)
def test_every_sample_item_has_its_page_with_the_modal_open(
    client: TestClient, list_path: str, document: dict[str, str]
) -> None:
    path = f"{list_path}/{document['id']}"
    response = client.get(path)
    assert response.status_code == 200
    page = response.text
    name = document["name"]
    list_title = "Projects" if list_path == "/projects" else "Collabrations"
    assert title(page) == f"{name} | {list_title} | {COMPANY}"
    assert meta(page, "name", "description") == document["description"]
    dialog = open_dialog(page)
    assert f">{html.escape(name, quote=False)}</h2>" in dialog
    assert html.escape(document["description"], quote=False) in dialog
    # The rest of the grid behind it, this card selected.
    cards = re.findall(r'<a href="([^"]+)" class="(card[^"]*)"', page)
    assert len(cards) == len(documents(list_path.strip("/").lower()))
    assert [href for href, css in cards if css == "card selected"] == [path]


def test_an_item_page_names_its_address_its_translation_and_its_picture(
    client: TestClient,
) -> None:
    page = client.get("/projects/dead-sea-resort-lobby").text
    url = f"{BASE}/projects/dead-sea-resort-lobby"
    assert f'<link rel="canonical" href="{url}">' in page
    assert f'<link rel="alternate" hreflang="en" href="{url}">' in page
    assert (
        f'<link rel="alternate" hreflang="ar" href="{BASE}/ar/projects/dead-sea-resort-lobby">'
        in page
    )
    assert f'<link rel="alternate" hreflang="x-default" href="{url}">' in page
    assert meta(page, "property", "og:url") == url
    assert meta(page, "property", "og:title") == title(page)
    assert meta(page, "property", "og:description").startswith("1,150 m² of polished Calacatta")
    image = meta(page, "property", "og:image")
    assert re.fullmatch(
        rf"{BASE}/img/og1200/[\w-]{{12}}/local/projects/dead-sea-resort-lobby\.jpg", image
    )
    assert meta(page, "name", "twitter:image") == image
    assert meta(page, "name", "twitter:card") == "summary_large_image"
    # The picture is there, 1200 x 630 JPEG, for a reader that asks for AVIF too.
    picture = client.get(image.removeprefix(BASE), headers={"Accept": "image/avif,*/*"})
    assert picture.headers["content-type"] == "image/jpeg"
    assert decoded(picture.content).size == (1200, 630)


def test_an_item_page_describes_the_item_in_json_ld(client: TestClient) -> None:
    page = client.get("/Collabrations/studio-meridiana-architetti").text
    graph = json_ld(page)
    assert [node["@type"] for node in graph] == ["Organization", "WebPage"]
    web_page = graph[1]
    url = f"{BASE}/Collabrations/studio-meridiana-architetti"
    assert web_page["url"] == url
    assert web_page["isPartOf"]["url"] == f"{BASE}/Collabrations"
    work = web_page["mainEntity"]
    assert work["@type"] == "CreativeWork"
    assert work["name"] == "Studio Meridiana Architetti"
    assert work["image"] == meta(page, "property", "og:image")
    assert work["publisher"] == {"@id": f"{BASE}/#organization"}
    crumbs = [crumb["item"] for crumb in web_page["breadcrumb"]["itemListElement"]]
    assert crumbs == [f"{BASE}/Collabrations", url]


def test_the_list_page_links_each_card_to_its_page_in_json_ld(client: TestClient) -> None:
    graph = json_ld(client.get("/ar/projects").text)
    [item_list] = [node for node in graph if node["@type"] == "ItemList"]
    urls = [element["item"]["url"] for element in item_list["itemListElement"]]
    assert urls == [f"{BASE}/ar/projects/{d['id']}" for d in documents("projects")]


def test_arabic_item_pages_speak_arabic(client: TestClient) -> None:
    document = documents("projects")[0]
    page = client.get(f"/ar/projects/{document['id']}").text
    assert page.startswith('<!doctype html>\n<html lang="ar" dir="rtl">')
    assert title(page) == f"{document['name_ar']} | المشاريع | {COMPANY_AR}"
    assert meta(page, "name", "description") == document["description_ar"]
    assert f'<link rel="canonical" href="{BASE}/ar/projects/{document["id"]}">' in page
    assert f">{document['name_ar']}</h2>" in open_dialog(page)
    assert json_ld(page)[1]["inLanguage"] == "ar"


def test_the_sitemap_lists_every_item_in_every_language(client: TestClient) -> None:
    root = ET.fromstring(client.get("/sitemap.xml").text)  # noqa: S314 - our own document
    entries = {
        url.findtext("s:loc", default="", namespaces=SITEMAP): url
        for url in root.findall("s:url", SITEMAP)
    }
    for list_path, document in SAMPLE_ITEMS:
        english = f"{BASE}{list_path}/{document['id']}"
        translated = {code: f"{BASE}/{code}{list_path}/{document['id']}" for code in TRANSLATED}
        assert english in entries
        assert set(translated.values()) <= set(entries)
        links = {
            link.get("hreflang"): link.get("href")
            for link in entries[english].findall("x:link", SITEMAP)
        }
        assert links == {"en": english, **translated}
    languages = 1 + len(TRANSLATED)
    stones = len(documents("stones"))
    assert len(entries) == languages * (5 + len(SAMPLE_ITEMS) + stones)


@pytest.mark.parametrize(
    ("path", "heading"),
    [
        ("/projects/no-such-project", "This page is not here"),
        ("/Collabrations/abdoun-villa-facade", "This page is not here"),  # a project's id
        ("/ar/projects/no-such-project", None),
        ("/projects/%E2%9C%93%20nothing", "This page is not here"),
    ],
)
def test_an_unknown_id_gets_the_404_page(
    client: TestClient, path: str, heading: str | None
) -> None:
    response = client.get(path, follow_redirects=False)
    assert response.status_code == 404
    page = response.text
    assert '<meta name="robots" content="noindex">' in page
    assert "<dialog" not in page or not re.search(r"<dialog\b[^>]*\bopen\b", page)
    if heading is not None:
        assert heading in page
    else:
        assert page.startswith('<!doctype html>\n<html lang="ar" dir="rtl">')


def test_an_id_in_another_case_is_redirected_once_to_the_exact_one(client: TestClient) -> None:
    response = client.get("/projects/Abdoun-Villa-Facade", follow_redirects=False)
    assert response.status_code == 301
    assert response.headers["location"] == "/projects/abdoun-villa-facade"
    # The page's own part of the path is made canonical; the id's case is kept.
    response = client.get("/PROJECTS/Abdoun-Villa-Facade", follow_redirects=False)
    assert response.headers["location"] == "/projects/Abdoun-Villa-Facade"
    response = client.get("/AR/collabrations/Tilal-And-Noor-Interiors")
    assert response.status_code == 200
    assert [str(r.url) for r in response.history] == [
        "http://testserver/AR/collabrations/Tilal-And-Noor-Interiors",
        "http://testserver/ar/Collabrations/Tilal-And-Noor-Interiors",
    ]
    assert str(response.url) == "http://testserver/ar/Collabrations/tilal-and-noor-interiors"


# Ids Firestore allows that a URL must escape; and two that differ only in case.
ODD_IDS = ["café & co", "50%-off", "what?#now", "قصر-عمان", "a+b=c", "Case", "case", "it's (new)"]


@pytest.fixture(scope="module")
def odd_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    cards = sample_cards("project", len(ODD_IDS))
    projects = [{**card, "id": item_id} for card, item_id in zip(cards, ODD_IDS, strict=True)]
    content = write_content(tmp_path_factory.mktemp("odd-ids"), projects=projects)
    settings = Settings(content_dir=content, render_pool_size=1, public_base_url=BASE)
    with TestClient(create_app(settings)) as client:
        yield client


@pytest.mark.parametrize("index", range(len(ODD_IDS)), ids=ODD_IDS)
def test_ids_that_need_escaping_round_trip(odd_client: TestClient, index: int) -> None:
    item_id = ODD_IDS[index]
    # As the browser's encodeURIComponent escapes it (ui/routes/routes.ts).
    path = "/projects/" + quote(item_id, safe="!'()*")
    response = odd_client.get(path, follow_redirects=False)
    assert response.status_code == 200
    page = response.text
    assert title(page).startswith(f"Project {index + 1} | ")
    assert f">Project {index + 1}</h2>" in open_dialog(page)
    canonical = re.search(r'<link rel="canonical" href="([^"]*)">', page)
    assert canonical is not None
    assert html.unescape(canonical.group(1)) == BASE + path
    root = ET.fromstring(odd_client.get("/sitemap.xml").text)  # noqa: S314 - our own document
    locations = [
        url.findtext("s:loc", namespaces=SITEMAP) for url in root.findall("s:url", SITEMAP)
    ]
    assert f"{BASE}{path}" in locations


def test_a_long_text_is_shortened_in_the_title_and_description(tmp_path: Path) -> None:
    long_name = "Marble " * 40
    long_description = "Honed Jerusalem stone, laid by hand.\n" * 3000  # over 100 KB
    projects = [
        {
            "id": "long",
            "name": long_name,
            "description": long_description,
            "photoUrl": "/images/sample.jpg",
        }
    ]
    content = write_content(tmp_path / "content", projects=projects)
    with TestClient(create_app(Settings(content_dir=content, render_pool_size=1))) as client:
        page = client.get("/projects/long").text
    name = title(page).split(" | ")[0]
    assert len(name) <= 100
    assert name.endswith("Marble…")
    description = meta(page, "name", "description")
    assert len(description) <= 300
    assert description.startswith("Honed Jerusalem stone, laid by hand. Honed")
    assert description.endswith("…")
    # The modal shows all of it.
    assert open_dialog(page).count("laid by hand.") == 3000


def test_the_same_page_twice_is_rendered_once(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="server.access"):
        first = client.get("/projects/milan-kitchen-worktop")
        second = client.get("/projects/milan-kitchen-worktop")
    assert first.headers["etag"] == second.headers["etag"]
    states = [r.getMessage() for r in caplog.records if "milan-kitchen-worktop" in r.getMessage()]
    assert "html cache hit" in states[-1]


def test_a_changed_item_is_rendered_again(tmp_path: Path) -> None:
    content = write_content(tmp_path / "content")
    settings = Settings(
        content_dir=content, render_pool_size=1, public_base_url=BASE, content_cache_seconds=0
    )
    with TestClient(create_app(settings)) as client:
        assert title(client.get("/projects/project-1").text).startswith("Project 1 |")
        projects = json.loads((content / "projects.json").read_text(encoding="utf-8"))
        projects[0]["name"] = "Renamed project"
        (content / "projects.json").write_text(json.dumps(projects), encoding="utf-8")
        assert title(client.get("/projects/project-1").text).startswith("Renamed project |")
        # Removed from the content: gone from the site.
        (content / "projects.json").write_text(json.dumps(projects[1:]), encoding="utf-8")
        assert client.get("/projects/project-1").status_code == 404
