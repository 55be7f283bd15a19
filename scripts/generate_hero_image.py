"""The landing page's hero background: a dark Emperador marble, made like the sample photos.

Usage: uv run python scripts/generate_hero_image.py  (writes ui/assets/hero-marble.jpg)
"""

from __future__ import annotations

from pathlib import Path

from generate_sample_images import EMPERADOR, marble

HERO = Path(__file__).resolve().parent.parent / "ui" / "assets" / "hero-marble.jpg"


def main() -> None:
    # The hero is covered by a dark gradient, so a modest size and quality suffice.
    image = marble((1600, 1000), seed=1969, style=EMPERADOR)
    image.save(HERO, "JPEG", quality=70, progressive=True, optimize=True)
    print(f"wrote {HERO} ({HERO.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
