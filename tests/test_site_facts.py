"""ui/site.json is the one place of the routes, titles, languages and fetch errors;
ui/styles/palette.css of the colours.

The server reads it in Python and the UI has it bundled by esbuild: these tests
check the two agree, and that no other source file writes a route's path.
"""

from __future__ import annotations

import ast
import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageColor
from starlette.testclient import TestClient

from server.app import create_app
from server.content.models import Collection
from server.settings import REPO_ROOT, Settings
from server.site.facts import SITE, SITE_FILE, THEME
from server.site.languages import LOCALES, Locale, messages
from server.site.pages import LANDING, PAGES, ROUTE_PATHS, SitePage
from tests.content_files import write_content

# The route paths other than the root: projects, Collabrations.
_NAMES = "|".join(
    re.escape(entry["path"].lstrip("/")) for entry in SITE["pages"] if entry["path"] != "/"
)
# A route's path as a whole string literal in code: "/projects", '/Collabrations/x'.
PATH_LITERAL = re.compile(r"""(["'`])/(?:""" + _NAMES + r""")(?:/[^"'`\s]*)?\1""")
# The start of a Python string that is a route's path: "/projects", f"/projects/{id}".
PATH_START = re.compile(r"/(?:" + _NAMES + r")(?:/|$)")
SOURCE_SUFFIXES = {".py", ".ts", ".tsx", ".html", ".lua", ".json"}
# What the benchmark writes, not source.
BENCH_RESULTS = REPO_ROOT / "bench" / "results"
SOURCE_ROOTS = ("server", "ui", "bench", "scripts", "harness", "build.py")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    content = write_content(tmp_path_factory.mktemp("content"))
    with TestClient(create_app(Settings(content_dir=content, render_pool_size=1))) as client:
        yield client


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.path)
def test_the_server_and_the_rendered_ui_agree_on_every_route(
    client: TestClient, page: SitePage
) -> None:
    # The server routes the path; the React tree V8 renders for it must show
    # that page, not its own "not found", which it would if its table differed.
    response = client.get(page.path)
    assert response.status_code == 200
    body = html.unescape(response.text)
    assert page.headings[0] in body
    assert messages(page.locale)["notFound"]["title"] not in body


@pytest.mark.parametrize("locale", LOCALES, ids=lambda locale: locale.code)
def test_the_ui_links_each_page_where_the_server_routes_it(
    client: TestClient, locale: Locale
) -> None:
    # The header's links are made by the UI's locale rules (ui/i18n/locale.ts),
    # the routes by the server's (server/site/languages.py), both from site.json's prefixes.
    response = client.get(LANDING.in_locale(locale).path)
    body = response.text[response.text.index("<body") :]
    links = set(re.findall(r'href="(/[^"]*)"', body))
    assert {page.path for page in PAGES if page.locale is locale} <= links
    sections = {
        locale.path(f"{LANDING.english_path}#{section}") for section in ("about", "contact")
    }
    assert sections <= links


@pytest.mark.parametrize("locale", LOCALES, ids=lambda locale: locale.code)
def test_a_path_outside_the_table_is_not_found_by_both(client: TestClient, locale: Locale) -> None:
    response = client.get(locale.path("/no-such-page"))
    assert response.status_code == 404
    assert messages(locale)["notFound"]["title"] in html.unescape(response.text)


def test_the_route_paths_are_written_in_site_json_alone() -> None:
    files = [
        path
        for root in SOURCE_ROOTS
        for path in ([REPO_ROOT / root] if root.endswith(".py") else (REPO_ROOT / root).rglob("*"))
        if path.suffix in SOURCE_SUFFIXES
        and path != SITE_FILE
        and BENCH_RESULTS not in path.parents
    ]
    assert len(files) > 50
    written = [
        f"{path.relative_to(REPO_ROOT)}: {text}" for path in files for text in _paths_in(path)
    ]
    assert written == []
    assert ROUTE_PATHS[:3] == ("/", "/projects", "/Collabrations")


def _paths_in(path: Path) -> list[str]:
    """The route paths a source file writes in its code (comments and docstrings aside)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
        return [match.group(0) for match in PATH_LITERAL.finditer(code)]
    tree = ast.parse(text)
    docstrings = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        # Whole, or quoted inside a snippet of another language (a wrk Lua script).
        and (PATH_START.match(node.value) or PATH_LITERAL.search(node.value))
    ]


def test_every_page_and_collection_of_site_json_is_known_to_every_language() -> None:
    assert set(SITE["collections"]) == {collection.value for collection in Collection}
    assert set(SITE["languages"]) == {locale.code for locale in LOCALES}
    for locale in LOCALES:
        catalogue = messages(locale)["pages"]
        assert {entry["page"] for entry in SITE["pages"]} | {"notFound"} == set(catalogue)
    types = (REPO_ROOT / "ui" / "types.ts").read_text(encoding="utf-8")
    items = re.search(r"export interface CollectionItems \{([^}]+)\}", types)
    assert items is not None
    assert set(re.findall(r"(\w+):", items.group(1))) == set(SITE["collections"])


def test_the_page_the_manifest_and_the_studio_take_the_palettes_colours(
    client: TestClient,
) -> None:
    assert THEME == {"colour": "#1b1916", "background": "#f8f5f0"}  # ui/styles/palette.css
    assert f'<meta name="theme-color" content="{THEME["colour"]}">' in client.get("/").text
    manifest = client.get("/manifest.webmanifest").json()
    assert manifest["theme_color"] == THEME["colour"]
    assert manifest["background_color"] == THEME["background"]
    # The site's stylesheet carries the palette, and no colour of its own for those names.
    site_css = (REPO_ROOT / "ui" / "styles" / "site.css").read_text(encoding="utf-8")
    studio_css = (REPO_ROOT / "server" / "studio" / "static" / "studio.css").read_text()
    assert '@import "./palette.css";' in site_css
    assert not re.search(r"--(stone|gold)[\w-]*:", site_css + studio_css)
    # The committed icons are drawn on the theme colour (scripts/generate_icons.py).
    icon = (REPO_ROOT / "server" / "static" / "icon.svg").read_text(encoding="utf-8")
    assert f'<rect width="32" height="32" rx="6" fill="{THEME["colour"]}"/>' in icon
    with Image.open(REPO_ROOT / "server" / "static" / "icon-192.png") as png:
        assert png.convert("RGB").getpixel((96, 2)) == ImageColor.getrgb(THEME["colour"])
