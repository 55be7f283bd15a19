"""Every language of ui/site.json: its pages, what search engines read of them,
its catalogue, and a fifth language added from data alone."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from harness.live_server import LiveServer
from server.app import create_app
from server.settings import REPO_ROOT, Settings
from server.site.facts import SITE_FILE
from server.site.languages import CATALOGUE_DIR, LOCALES, Locale, locale_named, messages
from tests.content_files import write_content

BASE = "https://www.stone.example"
SITEMAP = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
PLACEHOLDER = re.compile(r"\{\w+\}")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(render_pool_size=1, public_base_url=BASE))) as client:
        yield client


def sample(file: str) -> list[dict[str, str]]:
    loaded: list[dict[str, str]] = json.loads(
        (REPO_ROOT / "content" / f"{file}.json").read_text(encoding="utf-8")
    )
    return loaded


def alternates(page: str) -> dict[str, str]:
    return dict(re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', page))


@pytest.mark.parametrize(
    ("path", "lang"),
    [
        ("/fr", "fr"),
        ("/it", "it"),
        ("/fr/projects", "fr"),
        ("/it/Collabrations", "it"),
        ("/fr/projects/dead-sea-resort-lobby", "fr"),
        ("/it/Collabrations/tilal-and-noor-interiors", "it"),
    ],
)
def test_french_and_italian_pages_speak_their_language(
    client: TestClient, path: str, lang: str
) -> None:
    response = client.get(path)
    assert response.status_code == 200
    page = response.text
    assert page.startswith(f'<!doctype html>\n<html lang="{lang}" dir="ltr">')
    assert f'<link rel="canonical" href="{BASE}{path}">' in page
    english = path.removeprefix(f"/{lang}") or "/"
    prefixed = "" if english == "/" else english  # /fr, not /fr/
    assert alternates(page) == {
        "en": f"{BASE}{english}",
        **{code: f"{BASE}/{code}{prefixed}" for code in ("ar", "fr", "it")},
        "x-default": f"{BASE}{english}",
    }
    og_locale = messages(locale_named(lang) or LOCALES[0])["meta"]["ogLocale"]
    assert f'<meta property="og:locale" content="{og_locale}">' in page
    structured = re.search(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)
    assert structured is not None
    assert json.loads(structured.group(1))["@graph"][0]["inLanguage"] == lang


def test_the_hero_speaks_of_marble_in_each_language(client: TestClient) -> None:
    assert "marbre" in html.unescape(client.get("/fr").text)
    assert "marmo" in html.unescape(client.get("/it").text)


def language_links(page: str) -> list[tuple[str, str]]:
    """The language switcher's links: (href, lang) each."""
    tags = re.findall(r'<a ([^>]*class="site-languages__link"[^>]*)>', page)
    attributes = [dict(re.findall(r'(\w+)="([^"]*)"', tag)) for tag in tags]
    return [(found["href"], found["lang"]) for found in attributes]


def test_every_page_links_the_same_page_in_every_other_language(client: TestClient) -> None:
    assert language_links(client.get("/").text) == [("/ar", "ar"), ("/fr", "fr"), ("/it", "it")]
    # The visitor stays where they are: the same card, in another language.
    # The header's links, and the open card's own (its modal makes the header inert).
    card = client.get("/it/projects/dead-sea-resort-lobby").text
    assert language_links(card) == 2 * [
        ("/projects/dead-sea-resort-lobby", "en"),
        ("/ar/projects/dead-sea-resort-lobby", "ar"),
        ("/fr/projects/dead-sea-resort-lobby", "fr"),
    ]


def test_a_card_shows_its_french_text_and_falls_back_to_english_in_italian(
    tmp_path: Path,
) -> None:
    project = {
        "id": "cava",
        "name": "Quarry steps",
        "description": "Steps of Jerusalem stone.",
        "photoUrl": "/images/sample.jpg",
        "name_fr": "Escalier de carrière",
        "description_fr": "Un escalier en pierre de Jérusalem.",
        "name_it": "",
    }
    write_content(tmp_path, projects=[project])
    with TestClient(create_app(Settings(render_pool_size=1, content_dir=tmp_path))) as client:
        french = html.unescape(client.get("/fr/projects").text)
        italian = html.unescape(client.get("/it/projects").text)
    assert "Escalier de carrière" in french
    assert "Un escalier en pierre de Jérusalem." in french
    assert "Quarry steps" in italian
    assert "Steps of Jerusalem stone." in italian


def test_the_sitemap_lists_every_page_in_every_language(client: TestClient) -> None:
    root = ET.fromstring(client.get("/sitemap.xml").text)  # noqa: S314 - our own document
    entries = {
        url.findtext("s:loc", default="", namespaces=SITEMAP): url
        for url in root.findall("s:url", SITEMAP)
    }
    for path in ("/fr", "/it", "/fr/projects", "/it/Collabrations"):
        assert f"{BASE}{path}" in entries
    item = sample("projects")[0]["id"]
    links = {
        link.get("hreflang"): link.get("href")
        for link in entries[f"{BASE}/fr/projects/{item}"].findall("x:link", SITEMAP)
    }
    assert set(links) == {"en", "ar", "fr", "it"}


def test_a_missing_page_is_answered_in_its_language(client: TestClient) -> None:
    response = client.get("/it/nessuna-pagina")
    assert response.status_code == 404
    assert response.text.startswith('<!doctype html>\n<html lang="it" dir="ltr">')
    assert messages(locale_named("it") or LOCALES[0])["notFound"]["title"] in html.unescape(
        response.text
    )


def _shape(catalogue: object, where: str = "") -> dict[str, set[str]]:
    """Every string's path in a catalogue, with the {placeholders} it uses."""
    if isinstance(catalogue, dict):
        found: dict[str, set[str]] = {}
        for key, value in catalogue.items():
            found.update(_shape(value, f"{where}.{key}"))
        return found
    return {where: set(PLACEHOLDER.findall(str(catalogue)))}


@pytest.mark.parametrize("locale", LOCALES[1:], ids=lambda locale: locale.code)
def test_every_catalogue_has_the_english_ones_words_and_placeholders(locale: Locale) -> None:
    english = _shape(messages(LOCALES[0]))
    shape = _shape(messages(locale))
    assert set(shape) == set(english)
    assert {key: value for key, value in shape.items() if value != english[key]} == {}
    assert messages(locale)["meta"]["lang"] == locale.code


def test_a_fifth_language_is_one_catalogue_and_one_entry(tmp_path: Path) -> None:
    """A copy of the site with Spanish added as data: its pages answer, in Spanish."""
    copy = tmp_path / "site"
    for name in ("server", "ui", "content", "build.py", "company.toml", "pyproject.toml"):
        source = REPO_ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, copy / name)
    (copy / "node_modules").symlink_to(REPO_ROOT / "node_modules")
    (copy / "package.json").symlink_to(REPO_ROOT / "package.json")
    spanish = json.loads((CATALOGUE_DIR / "en.json").read_text(encoding="utf-8"))
    spanish["meta"].update(lang="es", ogLocale="es_ES", languageName="Español", shortName="ES")
    spanish["hero"]["title"] = "BIENVENIDOS AL MUNDO DE LA PIEDRA FINA"
    (copy / "ui" / "i18n" / "es.json").write_text(json.dumps(spanish, ensure_ascii=False))
    table = json.loads(SITE_FILE.read_text(encoding="utf-8"))
    table["languages"]["es"] = {"prefix": "/es", "script": "latin"}
    (copy / "ui" / "site.json").write_text(json.dumps(table))

    subprocess.run([sys.executable, "build.py"], cwd=copy, check=True, capture_output=True)
    with LiveServer(cwd=copy, log_path=tmp_path / "uvicorn.log") as site:
        landing, projects, english, sitemap = (
            httpx.get(site.url + path) for path in ("/es", "/es/projects", "/", "/sitemap.xml")
        )
    assert landing.status_code == 200
    assert landing.text.startswith('<!doctype html>\n<html lang="es" dir="ltr">')
    assert "BIENVENIDOS AL MUNDO DE LA PIEDRA FINA" in landing.text
    assert projects.status_code == 200
    assert 'hreflang="es"' in projects.text
    assert ("/es", "es") in language_links(english.text)
    assert "/es/projects" in sitemap.text
