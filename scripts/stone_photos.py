"""The sample stones' photos (content/images/stones/), drawn from noise, seeded (a run makes the
same files): each family's pattern in the stone's colours, each finish's face.

uv run python scripts/stone_photos.py    # writes every photo content/stones.json names

1200 x 900, as the other sample photos: enough for the largest variant a stone's page asks for.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

import numpy as np
from PIL import Image

from server.settings import REPO_ROOT

WIDTH, HEIGHT = 1200, 900
# A numpy array; numpy's stubs make most of its arithmetic Any anyway.
Array = Any

# Each sample stone's colours: the ground, then the darker (veins, pores) and the flecks.
COLOURS: dict[str, tuple[str, str, str]] = {
    "jerusalem-gold": ("#d9b98a", "#b08a5a", "#efe0c2"),
    "jerusalem-white": ("#ebe4d6", "#c9bfae", "#f7f3ea"),
    "jerusalem-pink": ("#dcb7a2", "#b98b76", "#f0dccf"),
    "maan-beige": ("#d8c6a4", "#b59f7a", "#ece0c8"),
    "ajloun-grey": ("#b4b1aa", "#8d8a84", "#d0cec8"),
    "karak-crema": ("#e6d8bf", "#a8865e", "#f3ead9"),
    "tafileh-green": ("#4f6b55", "#e4e8dc", "#2f4536"),
    "aqaba-red": ("#b8705e", "#1f1b1a", "#d9d2cc"),
    "aqaba-grey": ("#b9b8b5", "#22211f", "#f2f1ee"),
    "main-travertine": ("#d7c3a0", "#9c8565", "#ebdcc0"),
}


def fractal_noise(rng: np.random.Generator, scale: float, octaves: int = 5) -> Array:
    """Smooth noise in 0..1, features about `scale` pixels across, finer octaves on top."""
    total = np.zeros((HEIGHT, WIDTH), np.float32)
    weight = 1.0
    for _ in range(octaves):
        cells = rng.random((max(2, int(HEIGHT / scale)) + 2, max(2, int(WIDTH / scale)) + 2))
        grid = Image.fromarray(cells.astype(np.float32), mode="F")
        total += weight * np.asarray(grid.resize((WIDTH, HEIGHT), Image.Resampling.BICUBIC))
        weight, scale = weight / 2, scale / 2
    total -= total.min()
    return total / total.max()


def rgb(hex_colour: str) -> Array:
    return np.array([int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)], np.float32)


def mix(ground: Array, colour: str, amount: Array) -> Array:
    return ground * (1 - amount[..., None]) + rgb(colour) * amount[..., None]


def clouded(colours: tuple[str, str, str], amount: Array) -> Array:
    """The ground colour clouded with the light one by `amount`."""
    return mix(np.broadcast_to(rgb(colours[0]), (HEIGHT, WIDTH, 3)), colours[2], amount)


def marble(rng: np.random.Generator, colours: tuple[str, str, str]) -> Array:
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
    ground = clouded(colours, fractal_noise(rng, 250) * 0.6)
    # Veins: where a diagonal wave, bent by the noise, crosses zero; a few long
    # main ones, then finer ones branching across them.
    for period, bend, width, strength in ((520, 3.2, 0.05, 0.8), (170, 2.2, 0.025, 0.45)):
        wave = np.sin((x * 0.8 + y * 0.6) / period * np.pi + fractal_noise(rng, 380) * bend * np.pi)
        fade = np.clip(fractal_noise(rng, 300) * 1.6 - 0.3, 0, 1)
        veins = np.exp(-np.abs(wave) / width) * strength * fade
        ground = mix(ground, colours[1], np.clip(veins, 0, 1))
    return ground


def limestone(rng: np.random.Generator, colours: tuple[str, str, str]) -> Array:
    ground = clouded(colours, fractal_noise(rng, 300) * 0.7)
    ground += rng.normal(0, 4, (HEIGHT, WIDTH, 1)).astype(np.float32)
    # Shell fragments and pores: small darker flecks.
    flecks = fractal_noise(rng, 4, octaves=2)
    ground = mix(ground, colours[1], np.clip((flecks - 0.8) * 5, 0, 0.8))
    return mix(ground, colours[1], np.clip((fractal_noise(rng, 90) - 0.7) * 1.2, 0, 0.25))


def granite(rng: np.random.Generator, colours: tuple[str, str, str]) -> Array:
    # Interlocking crystals: each pixel takes the mineral of the nearest of jittered
    # points (a Voronoi pattern): feldspar in the stone's colour, grey quartz, black mica.
    cell = 11
    rows, cols = HEIGHT // cell + 2, WIDTH // cell + 2
    points = (np.indices((rows, cols)).transpose(1, 2, 0) + rng.random((rows, cols, 2))) * cell
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH]
    best = np.full((HEIGHT, WIDTH), np.inf, np.float32)
    owner = np.zeros((HEIGHT, WIDTH, 2), np.int32)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            r = np.clip(y // cell + dy, 0, rows - 1)
            c = np.clip(x // cell + dx, 0, cols - 1)
            distance = (points[r, c, 0] - y) ** 2 + (points[r, c, 1] - x) ** 2
            closer = distance < best
            best = np.where(closer, distance, best)
            owner[closer] = np.stack([r, c], axis=-1)[closer]
    kind = rng.random((rows, cols))[owner[..., 0], owner[..., 1]]
    shade = rng.normal(1, 0.08, (rows, cols))[owner[..., 0], owner[..., 1]].astype(np.float32)
    ground = np.broadcast_to(rgb(colours[0]), (HEIGHT, WIDTH, 3)) * shade[..., None]
    ground = mix(ground, colours[2], (kind > 0.62).astype(np.float32) * 0.75)
    ground = mix(ground, colours[1], (kind > 0.86).astype(np.float32) * 0.95)
    return ground + rng.normal(0, 5, (HEIGHT, WIDTH, 1)).astype(np.float32)


def travertine(rng: np.random.Generator, colours: tuple[str, str, str]) -> Array:
    y = np.mgrid[0:HEIGHT, 0:WIDTH][0].astype(np.float32)
    bands = np.sin(y / 23 + fractal_noise(rng, 260) * 10) * 0.5 + 0.5
    ground = clouded(colours, bands * 0.6)
    # Pores stretched along the bedding, as travertine's are.
    stretched = Image.fromarray(fractal_noise(rng, 12, 2)[:, :400], mode="F")
    pores = np.asarray(stretched.resize((WIDTH, HEIGHT), Image.Resampling.BICUBIC))
    return mix(ground, colours[1], np.clip((pores - 0.78) * 6, 0, 0.9))


def finished(stone: Array, finish: str, rng: np.random.Generator) -> Array:
    """The face as a finish leaves it: polished deep and glossy, tooled faces pale and rough."""
    if finish == "polished":
        y = np.mgrid[0:HEIGHT, 0:WIDTH][0].astype(np.float32)
        return (stone - 128) * 1.12 + 128 + (y / HEIGHT)[..., None] * -14 + 10
    if finish == "chiselled":  # parallel strokes of the chisel
        x = np.mgrid[0:HEIGHT, 0:WIDTH][1].astype(np.float32)
        relief = np.sin(x / 5 + fractal_noise(rng, 60) * 6) * 12
    elif finish in ("bush-hammered", "flamed", "sandblasted", "tumbled", "split-face"):
        relief = (fractal_noise(rng, 3, octaves=1) - 0.5) * 32  # pitted
    else:
        return stone  # honed, brushed, sawn: the stone as it is, matte
    return stone * 0.8 + 235 * 0.2 + relief[..., None]


DRAWINGS = {"marble": marble, "limestone": limestone, "granite": granite, "travertine": travertine}


def main() -> None:
    stones = json.loads((REPO_ROOT / "content" / "stones.json").read_text(encoding="utf-8"))
    images = REPO_ROOT / "content"
    for stone in stones:
        photos = {"": stone["photoUrl"], **stone.get("finishPhotos", {})}
        for finish, url in photos.items():
            rng = np.random.default_rng(zlib.crc32(stone["id"].encode()))
            face = DRAWINGS[stone["family"]](rng, COLOURS[stone["id"]])
            face = finished(face, finish or stone["finishes"][0], rng)
            path = images / url.lstrip("/")
            path.parent.mkdir(parents=True, exist_ok=True)
            picture = Image.fromarray(np.clip(face, 0, 255).astype(np.uint8), mode="RGB")
            picture.save(path, quality=72, optimize=True, progressive=True)
            print(f"{path.relative_to(REPO_ROOT)}: {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
