"""The documentation stays true: the README is a front door, every setting is in
docs/configuration.md with its real default, and every link leads somewhere."""

from __future__ import annotations

import dataclasses
import re
from enum import StrEnum
from pathlib import Path

import pytest

from server.settings import REPO_ROOT, Settings

README = REPO_ROOT / "README.md"
DOCS = REPO_ROOT / "docs"
CONFIGURATION = DOCS / "configuration.md"

# Read by uvicorn, the Procfile or Google's client library, not by server/settings.py.
READ_BY_OTHERS = {
    "FIRESTORE_EMULATOR_HOST",
    "FIREBASE_AUTH_EMULATOR_HOST",
    "STORAGE_EMULATOR_HOST",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "FORWARDED_ALLOW_IPS",
    "PORT",
    "WEB_CONCURRENCY",
}
# Defaults computed at start-up, or empty, which the table explains in words.
COMPUTED_DEFAULTS = {
    "GOOGLE_CLOUD_PROJECT",
    "RENDER_POOL_SIZE",
    "STUDIO_STAFF_EMAILS",
    "STUDIO_STORAGE_BUCKET",
    "ENQUIRY_SECRET",
    "ENQUIRY_FROM",
    "SMTP_URL",
}

_ROW = re.compile(r"^\| `([A-Z][A-Z0-9_]+)` \| ([^|]*) \|", re.MULTILINE)
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def documented_defaults() -> dict[str, str]:
    """Variable -> its Default cell, from the table in docs/configuration.md."""
    return dict(_ROW.findall(CONFIGURATION.read_text(encoding="utf-8")))


def environment_names_read_by_settings() -> set[str]:
    return {field.name.upper() for field in dataclasses.fields(Settings)}


def a_value_unlike(default: object) -> str:
    """A valid value for a variable whose setting's default is `default`, but not that default."""
    if isinstance(default, bool):
        return "off" if default else "on"
    if isinstance(default, StrEnum):
        return next(member.value for member in type(default) if member != default)
    if isinstance(default, int | float):
        return str(default + 3)
    if isinstance(default, Path):
        return "/tmp/elsewhere"  # noqa: S108 - a name, never written to
    if isinstance(default, tuple):
        return "a.example b.example"
    return "https://stone.example"  # str and str | None: a URL satisfies the pickiest of them


def as_documented(value: object) -> str:
    """A default as the table writes it: the first `code` of the Default cell."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, tuple):
        return " ".join(value)
    if isinstance(value, Path):
        return str(value.relative_to(REPO_ROOT)) if value.is_relative_to(REPO_ROOT) else value.name
    return str(value)


@pytest.mark.parametrize("field", dataclasses.fields(Settings), ids=lambda f: f.name.upper())
def test_every_setting_is_read_from_the_environment_variable_of_its_name(
    field: dataclasses.Field[object],
) -> None:
    default = getattr(Settings(), field.name)
    settings = Settings.from_environment({field.name.upper(): a_value_unlike(default)})
    assert getattr(settings, field.name) != default


def test_the_configuration_page_lists_every_variable_and_no_other() -> None:
    documented = set(documented_defaults())
    assert documented == environment_names_read_by_settings() | READ_BY_OTHERS


@pytest.mark.parametrize(
    "field", [f for f in dataclasses.fields(Settings) if f.name.upper() not in COMPUTED_DEFAULTS]
)
def test_the_documented_default_is_the_settings_default(field: dataclasses.Field[object]) -> None:
    cell = documented_defaults()[field.name.upper()]
    first_code = re.search(r"`([^`]*)`", cell)
    assert first_code is not None, f"{field.name.upper()}: no `value` in {cell!r}"
    assert first_code.group(1) == as_documented(getattr(Settings(), field.name))


def test_the_readme_is_a_front_door() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    first_screen = "\n".join(text.splitlines()[:60])
    assert "./dev serve" in first_screen
    assert "./dev test" in first_screen
    assert "## Layout" in first_screen
    ci = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "exec ./dev test" in ci


def test_the_readme_links_every_docs_page() -> None:
    linked = {target for target in _LINK.findall(README.read_text(encoding="utf-8"))}
    pages = {f"docs/{page.name}" for page in DOCS.glob("*.md")}
    assert {"docs/configuration.md", "docs/deploying.md", "docs/architecture.md"} <= pages
    assert pages <= linked


def github_anchor(heading: str) -> str:
    """The id GitHub gives a heading: lower case, punctuation dropped, spaces to dashes."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    outside_code = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    return {github_anchor(h) for h in re.findall(r"^#+ (.+)$", outside_code, re.MULTILINE)}


@pytest.mark.parametrize("page", [README, *sorted(DOCS.glob("*.md"))], ids=lambda page: page.name)
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(page: Path) -> None:
    broken = []
    for target in _LINK.findall(page.read_text(encoding="utf-8")):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        path, _, anchor = target.partition("#")
        destination = (page.parent / path).resolve() if path else page
        if not destination.exists() or (anchor and anchor not in anchors(destination)):
            broken.append(target)
    assert broken == []


def layout_rows() -> list[tuple[str, str]]:
    """The README's layout table: (the Path cell, the What-it-is cell) per row."""
    text = README.read_text(encoding="utf-8")
    table = text.split("## Layout", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| (`[^|]*) \| ([^|]*) \|$", table, re.MULTILINE)


def test_every_path_the_readme_layout_names_exists() -> None:
    named = [path for cell, _ in layout_rows() for path in re.findall(r"`([^`]+)`", cell)]
    assert len(named) > 20
    assert [path for path in named if not (REPO_ROOT / path).exists()] == []


def test_the_readme_layout_names_every_folder_of_server_and_ui() -> None:
    rows = layout_rows()
    named = {path for cell, _ in rows for path in re.findall(r"`([^`]+)`", cell)}
    ui_cell = next(what for cell, what in rows if cell == "`ui/`")
    ui_named = {f"ui/{folder}" for folder in re.findall(r"`([\w-]+)/`", ui_cell)}
    folders = {
        f"{path.relative_to(REPO_ROOT)}/"
        for root in ("server", "ui")
        for path in (REPO_ROOT / root).iterdir()
        if path.is_dir() and path.name != "__pycache__"
    }
    server_missing = {f for f in folders if f.startswith("server/") and f not in named}
    ui_missing = {f for f in folders if f.startswith("ui/") and f.rstrip("/") not in ui_named}
    assert (server_missing, ui_missing) == (set(), set())
