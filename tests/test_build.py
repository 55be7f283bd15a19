"""build.py refuses to run, loudly and before deleting anything, without the npm packages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import build
from server.settings import REPO_ROOT


def test_missing_npm_packages_names_every_package_json_dependency_absent(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text(
        json.dumps({"dependencies": {"react": "^19"}, "devDependencies": {"esbuild": "^0.25"}})
    )
    assert build.missing_npm_packages(tmp_path) == ["esbuild", "react"]
    (tmp_path / "node_modules" / "react").mkdir(parents=True)
    (tmp_path / "node_modules" / "react" / "package.json").write_text("{}")
    assert build.missing_npm_packages(tmp_path) == ["esbuild"]


def test_the_checked_out_project_has_them_all() -> None:
    assert build.missing_npm_packages(REPO_ROOT) == []


def test_without_them_the_build_fails_with_a_reason_and_keeps_the_old_bundles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    manifest = REPO_ROOT / "bundles" / "manifest.json"
    before = manifest.read_bytes()
    monkeypatch.setattr(build, "missing_npm_packages", lambda root=REPO_ROOT: ["react"])
    with pytest.raises(SystemExit, match=r"node_modules lacks react: run `npm ci --include=dev`"):
        build.build()
    assert manifest.read_bytes() == before
