"""The landing page's hero background: a dark Emperador marble, made like the sample photos.

Usage: uv run python scripts/generate_hero_image.py
(writes ui/assets/hero-marble.jpg, and hero-marble-narrow.jpg, a portrait crop for phones)
"""

from __future__ import annotations

from pathlib import Path

from generate_sample_images import EMPERADOR, marble

ASSETS = Path(__file__).resolve().parent.parent / "ui" / "assets"
HERO = ASSETS / "hero-marble.jpg"
HERO_NARROW = ASSETS / "hero-marble-narrow.jpg"


def main() -> None:
    # The hero is covered by a dark gradient, so a modest size and quality suffice.
    image = marble((1600, 1000), seed=1969, style=EMPERADOR)
    image.save(HERO, "JPEG", quality=70, progressive=True, optimize=True)
    # A phone's hero is tall and narrow: the middle of the slab, at phone size.
    narrow = image.crop((500, 0, 1100, 1000)).resize((480, 800))
    narrow.save(HERO_NARROW, "JPEG", quality=68, progressive=True, optimize=True)
    for path in (HERO, HERO_NARROW):
        print(f"wrote {path} ({path.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
