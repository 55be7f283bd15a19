"""Build the front end into bundles/ (see bundles/README.md) with the npm esbuild package:
`uv run python build.py` after `npm ci`."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import brotli

from server.rendering.manifest import ASSETS_URL

ROOT = Path(__file__).resolve().parent
UI = ROOT / "ui"
BUNDLES = ROOT / "bundles"
CLIENT_DIR = BUNDLES / "client"
SERVER_BUNDLE = BUNDLES / "server" / "render.js"
MANIFEST = BUNDLES / "manifest.json"
CLIENT_METAFILE = BUNDLES / "client-meta.json"
CATALOGUES = BUNDLES / "catalogues.json"
SITE = json.loads((UI / "site.json").read_text(encoding="utf-8"))
# Browsers only (no "es2020"): all four run class fields natively, so no chunk needs
# esbuild's helper for them.
BROWSERS = "--target=chrome100,edge100,firefox100,safari15"
# Images a component imports (the hero's photo) become their URLs, named alike by both builds.
IMAGE_FLAGS = [
    "--loader:.jpg=file",
    "--loader:.avif=file",
    "--asset-names=media/[name]-[hash]",
    f"--public-path={ASSETS_URL}",
]
# Each a script of its own, named by its file (the manifest's "studio" entries).
STUDIO_SCRIPTS = sorted((UI / "studio").glob("*.ts"))
# The slider's gallery loader has one implementation per build (ui/loaders/): eager for the
# server's synchronous render, a chunk loaded on demand in the browser.
GALLERY_LOADER = "--alias:@stone/slide-gallery-loader=./ui/loaders/SlideGalleryLoader.{}.tsx"


def write_catalogues() -> None:
    """Every language's catalogue as one module for the UI, without the studio's words."""
    catalogues = {}
    for code in SITE["languages"]:
        catalogue = json.loads((UI / "i18n" / f"{code}.json").read_text(encoding="utf-8"))
        catalogues[code] = {key: value for key, value in catalogue.items() if key != "studio"}
    CATALOGUES.parent.mkdir(exist_ok=True)
    CATALOGUES.write_text(json.dumps(catalogues, ensure_ascii=False), encoding="utf-8")


def missing_npm_packages(root: Path = ROOT) -> list[str]:
    package = json.loads((root / "package.json").read_text(encoding="utf-8"))
    wanted = {**package.get("dependencies", {}), **package.get("devDependencies", {})}
    return sorted(
        name for name in wanted if not (root / "node_modules" / name / "package.json").is_file()
    )


def esbuild(*args: str) -> None:
    common = ["--bundle", "--platform=browser", "--minify", "--legal-comments=none"]
    common += ['--define:process.env.NODE_ENV="production"', "--log-level=warning"]
    common += [f"--alias:@stone/catalogues=./{CATALOGUES.relative_to(ROOT).as_posix()}"]
    esbuild = str(ROOT / "node_modules" / ".bin" / "esbuild")
    exit_code = subprocess.run([esbuild, *args, *common], cwd=ROOT, check=False).returncode  # noqa: S603
    if exit_code:
        sys.exit(f"build.py: FAILED: esbuild exited with {exit_code}, see above")


def build_bundles() -> None:
    # mini-racer's V8 has no module loader and no DOM: one IIFE, no styles. The polyfills
    # install themselves on `global`, which bare V8 only knows as globalThis.
    esbuild(
        str(UI / "entry-server.tsx"),
        "--format=iife",
        "--target=es2022",
        "--define:global=globalThis",
        "--loader:.css=empty",
        *IMAGE_FLAGS,
        GALLERY_LOADER.format("server"),
        f"--outfile={SERVER_BUNDLE}",
    )
    # The client build serves the images; the server needs only their URLs.
    shutil.rmtree(SERVER_BUNDLE.parent / "media", ignore_errors=True)
    # Splitting: lazily imported code (web-vitals) is a chunk the first load does not fetch.
    esbuild(
        str(UI / "entry-client.tsx"),
        "--format=esm",
        "--splitting",
        BROWSERS,
        "--entry-names=[name]-[hash]",
        "--chunk-names=chunks/[name]-[hash]",
        "--loader:.woff2=file",
        "--loader:.woff=file",
        *IMAGE_FLAGS,
        GALLERY_LOADER.format("client"),
        f"--outdir={CLIENT_DIR}",
        f"--metafile={CLIENT_METAFILE}",
    )
    # Inlined in every page rather than fetched: one classic script, no imports.
    esbuild(
        str(UI / "boot" / "boot.ts"),
        "--format=iife",
        BROWSERS,
        "--entry-names=[name]-[hash]",
        f"--outdir={CLIENT_DIR}",
    )
    # Apart from the site's modules (no shared chunk), so the public pages'
    # bundles stay exactly as they are.
    esbuild(
        *map(str, STUDIO_SCRIPTS),
        "--format=esm",
        BROWSERS,
        "--entry-names=studio-[name]-[hash]",
        f"--outdir={CLIENT_DIR}",
    )


def check_asset_urls() -> None:
    """Every asset URL the server's HTML names is a file the client build wrote."""
    named = set(re.findall(r"/assets/media/[\w.-]+", SERVER_BUNDLE.read_text(encoding="utf-8")))
    missing = sorted(
        url for url in named if not (CLIENT_DIR / url.removeprefix(ASSETS_URL)).is_file()
    )
    if missing:
        sys.exit(f"build.py: FAILED: the server bundle names assets the client lacks: {missing}")


def manifest_from_metafile(metafile: dict[str, Any]) -> dict[str, Any]:
    """What a page links: the entry script and the chunks it runs at once, its stylesheet,
    fonts; and the studio's scripts."""
    outputs: dict[str, Any] = metafile["outputs"]
    client_prefix = CLIENT_DIR.relative_to(ROOT).as_posix() + "/"

    def url(output_path: str) -> str:
        return ASSETS_URL + output_path.removeprefix(client_prefix)

    def built(pattern: str) -> str:
        return ASSETS_URL + next(CLIENT_DIR.glob(pattern)).name

    def fonts(script: str, *names: str) -> dict[str, list[str]]:
        woff2 = [path for path in outputs if path.endswith(".woff2")]
        urls = [url(path) for path in woff2 if any(name in path for name in names)]
        languages = SITE["languages"].items()
        return {code: urls for code, language in languages if language["script"] == script}

    (entry,) = [
        path
        for path, output in outputs.items()
        if output.get("entryPoint") == "ui/entry-client.tsx" and path.endswith(".js")
    ]
    # Latin pages preload their heading face; Arabic pages fetch theirs after the first
    # paint, for the next page (ui/boot/nextPageFonts.ts).
    return {
        "boot": built("boot-*.js"),
        "script": url(entry),
        "stylesheets": [url(outputs[entry]["cssBundle"])] if "cssBundle" in outputs[entry] else [],
        "modulepreload": [
            url(item["path"])
            for item in outputs[entry]["imports"]
            if item["kind"] == "import-statement"
        ],
        "fonts": fonts("latin", "cormorant-garamond-latin"),
        "nextPageFonts": fonts("arabic", "amiri-arabic", "noto-sans-arabic"),
        "studio": {path.stem: built(f"studio-{path.stem}-*.js") for path in STUDIO_SCRIPTS},
    }


def compressed(body: bytes) -> dict[str, bytes]:
    """The files served instead of a text file, by their suffix: brotli 11 and gzip 9."""
    return {".br": brotli.compress(body, quality=11), ".gz": gzip.compress(body, 9, mtime=0)}


def precompress(directory: Path) -> None:
    """name.br and name.gz beside each text asset (woff2 and images are compressed already)."""
    for path in directory.rglob("*"):
        if path.suffix in {".js", ".css", ".svg", ".json", ".woff"} and path.is_file():
            for suffix, packed in compressed(path.read_bytes()).items():
                path.with_name(path.name + suffix).write_bytes(packed)


def build() -> None:
    # Checked before anything is deleted, so a build that cannot run leaves the previous
    # bundles in place: esbuild would fail half-way, or (a type-only import) not at all.
    missing = missing_npm_packages()
    if missing:
        sys.exit(
            f"build.py: FAILED: node_modules lacks {', '.join(missing)}:"
            " run `npm ci --include=dev` first"
        )
    # Start clean so no stale hashed file is left behind (bundles/README.md stays).
    shutil.rmtree(CLIENT_DIR, ignore_errors=True)
    shutil.rmtree(SERVER_BUNDLE.parent, ignore_errors=True)
    write_catalogues()
    build_bundles()
    check_asset_urls()
    precompress(CLIENT_DIR)
    manifest = manifest_from_metafile(json.loads(CLIENT_METAFILE.read_text()))
    MANIFEST.write_text(json.dumps(manifest, indent=2) + "\n")
    CLIENT_METAFILE.unlink()
    print(f"build.py: wrote {SERVER_BUNDLE.relative_to(ROOT)} and {MANIFEST.relative_to(ROOT)}")


if __name__ == "__main__":
    build()
