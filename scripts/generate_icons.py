"""The favicon set in server/static/, drawn from the header's cut-stone mark
(ui/components/Header.tsx): uv run python scripts/generate_icons.py."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from server.site.facts import THEME

STATIC = Path(__file__).resolve().parent.parent / "server" / "static"
# The site's theme colour (ui/styles/palette.css), as the browser's toolbar shows it.
BACKGROUND = THEME["colour"]
# The three faces of the mark, in the logo's 32-unit grid: corners, SVG path, colour.
FACES = [
    ([(4, 11), (16, 4), (28, 11), (16, 18)], "M4 11 16 4l12 7-12 7z", "#e9e1d3"),
    ([(4, 11), (4, 21), (16, 28), (16, 18)], "M4 11v10l12 7V18z", "#b9a98e"),
    ([(28, 11), (28, 21), (16, 28), (16, 18)], "M28 11v10l-12 7V18z", "#8c7b61"),
]
SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">\n'
    f'<rect width="32" height="32" rx="6" fill="{BACKGROUND}"/>\n'
    + "".join(f'<path d="{path}" fill="{colour}"/>\n' for _, path, colour in FACES)
    + "</svg>\n"
)


def draw_icon(size: int, padding: float = 0.0) -> Image.Image:
    """The mark on the dark background; `padding` keeps it inside maskable-icon safe zones."""
    scale = 8  # draw large, then downsample, for smooth edges
    canvas = size * scale
    image = Image.new("RGB", (canvas, canvas), BACKGROUND)
    draw = ImageDraw.Draw(image)
    inner = canvas * (1 - 2 * padding)
    offset = canvas * padding
    for points, _, colour in FACES:
        draw.polygon(
            [(offset + x / 32 * inner, offset + y / 32 * inner) for x, y in points], colour
        )
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    STATIC.mkdir(exist_ok=True)
    draw_icon(180, padding=0.08).save(STATIC / "apple-touch-icon.png", optimize=True)
    draw_icon(192, padding=0.1).save(STATIC / "icon-192.png", optimize=True)
    draw_icon(512, padding=0.1).save(STATIC / "icon-512.png", optimize=True)
    draw_icon(48).save(STATIC / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])
    (STATIC / "icon.svg").write_text(SVG, encoding="utf-8")
    print(f"wrote icons to {STATIC}")


if __name__ == "__main__":
    main()
