"""The client assets a page links, as build.py recorded them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

ASSETS_URL = "/assets/"  # bundles/client's URL prefix: the route, and esbuild's public path


def asset_file(client_dir: Path, url: str) -> Path:
    """The file in `client_dir` (bundles/client) that an asset URL names."""
    return client_dir / url.removeprefix(ASSETS_URL)


@dataclass(frozen=True, kw_only=True)
class AssetManifest:
    # The entry module and the chunks it imports: the site's code, which the
    # inline boot script starts after the first paint.
    script: str
    stylesheets: tuple[str, ...]
    modulepreload: tuple[str, ...]
    # Per language code: fonts worth preloading; fonts fetched after the first
    # paint, for the next page.
    fonts: dict[str, tuple[str, ...]]
    next_page_fonts: dict[str, tuple[str, ...]]
    # The stylesheets' text and ui/boot/boot.ts as built, inline in every page
    # so that no request holds the first paint; checked on load to hold no end tag.
    inline_css: str
    inline_boot: str
    studio_scripts: dict[str, str]  # the studio's scripts by name (ui/studio/): no public page's

    @property
    def site_code(self) -> str:
        """The entry, then the chunks it imports, as the boot script reads them."""
        return " ".join(dict.fromkeys((self.script, *self.modulepreload)))

    @classmethod
    def load(cls, bundles_dir: Path) -> AssetManifest:
        path = bundles_dir / "manifest.json"

        def text(url: str) -> str:
            return asset_file(bundles_dir / "client", url).read_text("utf-8")

        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            stylesheets = tuple(raw["stylesheets"])
            inline_css = "".join(text(url).strip() + "\n" for url in stylesheets).strip()
            inline_boot = text(raw["boot"]).strip()
        except FileNotFoundError as error:
            raise RuntimeError(
                f"{error.filename} is missing: build the front end (uv run python build.py)"
            ) from None
        for kind, inline in (("a stylesheet", inline_css), ("the boot script", inline_boot)):
            if "</" in inline:
                raise RuntimeError(f"{path}: {kind} contains '</', not inlinable")
        return cls(
            script=raw["script"],
            stylesheets=stylesheets,
            inline_css=inline_css,
            inline_boot=inline_boot,
            modulepreload=tuple(raw["modulepreload"]),
            fonts={lang: tuple(urls) for lang, urls in raw.get("fonts", {}).items()},
            next_page_fonts={
                lang: tuple(urls) for lang, urls in raw.get("nextPageFonts", {}).items()
            },
            studio_scripts=dict(raw.get("studio", {})),
        )

    def all_urls(self) -> set[str]:
        fonts = [
            url for urls in (*self.fonts.values(), *self.next_page_fonts.values()) for url in urls
        ]
        return {self.script, *self.stylesheets, *self.modulepreload, *fonts}
