"""Which Firestore project push and pull use: the site's own rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.content_cli.sync import target_project
from server.settings import Settings, SettingsError


def test_google_cloud_project_wins_over_company_toml() -> None:
    assert target_project(Settings(google_cloud_project="demo-other")) == "demo-other"


def test_without_it_the_project_is_company_toml_s(tmp_path: Path) -> None:
    company = tmp_path / "company.toml"
    shipped = (Settings().company_file).read_text(encoding="utf-8")
    company.write_text(shipped.replace('"fine-stone-example"', '"demo-from-toml"'), "utf-8")
    assert target_project(Settings(company_file=company)) == "demo-from-toml"


def test_no_project_at_all_is_a_configuration_error(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="no GOOGLE_CLOUD_PROJECT"):
        target_project(Settings(company_file=tmp_path / "missing.toml"))
