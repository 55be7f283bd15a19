"""The client assets a page links, as build.py recorded them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path


class BundlesMissingError(RuntimeError):
    """bundles/ has not been built (run build.py)."""


@dataclass(frozen=True, kw_only=True)
class AssetManifest:
    script: str
    stylesheets: tuple[str, ...]
    modulepreload: tuple[str, ...]

    @classmethod
    def load(cls, bundles_dir: Path) -> AssetManifest:
        path = bundles_dir / "manifest.json"
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise BundlesMissingError(
                f"{path} is missing: build the front end first (uv run python build.py)"
            ) from None
        return cls(
            script=raw["script"],
            stylesheets=tuple(raw["stylesheets"]),
            modulepreload=tuple(raw["modulepreload"]),
        )
