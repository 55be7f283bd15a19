"""Make the landing page's hero photo at the sizes and formats the page offers
(why an <img> with a srcset, AVIF and JPEG: docs/architecture.md).

Run:  uv run python scripts/hero_images.py
Input: ui/assets/hero-marble.jpg, ui/assets/hero-marble-narrow.jpg.
Output: ui/assets/hero/*.{avif,jpg}, committed; ui/components/Hero.tsx
imports them (esbuild names each by its content hash).
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "ui" / "assets"
OUT = ASSETS / "hero"

# (source, name, widths): the narrow crop is 480 px wide at most.
SOURCES = (
    ("hero-marble-narrow.jpg", "narrow", (480,)),
    ("hero-marble.jpg", "wide", (800, 1200, 1600)),
)
# The photo sits under a dark gradient: detail the eye cannot see costs bytes.
AVIF_QUALITY = 40
JPEG_QUALITY = 72


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for source, name, widths in SOURCES:
        with Image.open(ASSETS / source) as image:
            photo = image.convert("RGB")
        for width in widths:
            height = round(photo.height * width / photo.width)
            resized = photo.resize((width, height), Image.Resampling.LANCZOS)
            resized.save(OUT / f"{name}-{width}.avif", quality=AVIF_QUALITY, speed=4)
            resized.save(
                OUT / f"{name}-{width}.jpg", quality=JPEG_QUALITY, optimize=True, progressive=True
            )
    for path in sorted(OUT.iterdir()):
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
