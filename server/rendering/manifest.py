"""The client assets a page links, as build.py recorded them."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path


class BundlesMissingError(RuntimeError):
    """bundles/ has not been built (run build.py)."""


@dataclass(frozen=True, kw_only=True)
class AssetManifest:
    script: str
    stylesheets: tuple[str, ...]
    modulepreload: tuple[str, ...]
    # Per language (en, ar): fonts worth preloading.
    fonts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Per page module (ui/pages/X.tsx): its chunk and the chunks that imports.
    pages: dict[str, tuple[str, ...]] = field(default_factory=dict)

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
            fonts={lang: tuple(urls) for lang, urls in raw.get("fonts", {}).items()},
            pages={module: tuple(urls) for module, urls in raw.get("pages", {}).items()},
        )

    def all_urls(self) -> tuple[str, ...]:
        """Every client file the manifest names, once."""
        return tuple(
            dict.fromkeys(
                (
                    self.script,
                    *self.stylesheets,
                    *self.modulepreload,
                    *(url for urls in self.fonts.values() for url in urls),
                    *(url for urls in self.pages.values() for url in urls),
                )
            )
        )

    def module_preloads(self, page_module: str | None) -> tuple[str, ...]:
        """Every chunk a page runs at once, so none waits for another to be parsed."""
        extra = self.pages.get(page_module, ()) if page_module else ()
        return tuple(dict.fromkeys((*self.modulepreload, *extra)))
