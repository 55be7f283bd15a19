"""Generate the sample stone photographs shipped in the local content store.

Everything is synthesised from fixed seeds with Pillow and the standard library
only, so the images are ours, reproducible and free of third-party rights.
Heavy lifting stays inside Pillow's C code (resize, blend, point look-up
tables, mesh transforms); Python loops only touch small control grids.

Run:  uv run python scripts/generate_sample_images.py [substring ...]
(optional substrings limit the run to matching output paths).
Output: content/images/{projects,collabrations,slider}/*.jpg and og-default.jpg.

Most photos are web-sized (1200x900, under 180 KB). A few are made as staff
upload them: 4000x3000 straight off a camera, with sensor noise, at JPEG
quality 90, several MB each, so the image route's saving shows on the
embedded content (docs/architecture.md, "Images").
"""

from __future__ import annotations

import math
import os
import random
import sys
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any, cast

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageMath, ImageOps

RGB = tuple[int, int, int]
Size = tuple[int, int]

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "content" / "images"
JPEG_QUALITY = 78

BICUBIC = Image.Resampling.BICUBIC
LANCZOS = Image.Resampling.LANCZOS


def make_rng(seed: int) -> random.Random:
    # Seeded PRNG for reproducible artwork; nothing here is security related.
    return random.Random(seed)  # noqa: S311


# --------------------------------------------------------------------------
# Noise primitives
# --------------------------------------------------------------------------


def lut(fn: Callable[[float], float]) -> list[int]:
    """Build a 256-entry table so per-pixel maths runs in C via Image.point."""
    return [max(0, min(255, round(fn(v / 255.0) * 255.0))) for v in range(256)]


def fmath(expr: Callable[[dict[str, Any]], Any], **images: Image.Image) -> Image.Image:
    """Float-image arithmetic in C (ImageMath), typed for mypy."""
    out = ImageMath.lambda_eval(expr, **images)
    assert isinstance(out, Image.Image)
    return out


def normalise(img: Image.Image) -> Image.Image:
    """Stretch a float field to exactly 0..1."""
    lo, hi = cast(tuple[float, float], img.getextrema())
    span = hi - lo or 1.0
    return fmath(lambda d: (d["a"] - lo) / span, a=img)


def accumulate(acc: Image.Image, layer: Image.Image, k: float, fold: bool = False) -> Image.Image:
    """acc + k * layer on float images; `fold` adds k * |layer - mid| instead."""
    if fold:
        return fmath(lambda d: d["a"] + abs(d["b"] - 127.5) * k, a=acc, b=layer)
    return fmath(lambda d: d["a"] + d["b"] * k, a=acc, b=layer)


def to_l(img: Image.Image) -> Image.Image:
    """Float 0..1 field to an 8-bit mask (clipped)."""
    return fmath(lambda d: d["a"] * 255.0, a=img).convert("L")


def value_noise(
    rng: random.Random,
    size: Size,
    cells: tuple[int, int],
    resample: Image.Resampling = BICUBIC,
) -> Image.Image:
    """One octave of value noise (float 0..255): random lattice, bicubic upscaled.

    Float images avoid the 8-bit terracing that shows up as hatching once the
    field is contoured into thin veins.
    """
    cw, ch = max(2, cells[0]), max(2, cells[1])
    lattice = Image.frombytes("L", (cw + 2, ch + 2), rng.randbytes((cw + 2) * (ch + 2)))
    # Oversize then crop so the clamped lattice border never shows.
    big = lattice.convert("F").resize(
        (size[0] * (cw + 2) // cw, size[1] * (ch + 2) // ch), resample
    )
    ox, oy = (big.width - size[0]) // 2, (big.height - size[1]) // 2
    return big.crop((ox, oy, ox + size[0], oy + size[1]))


def fbm(
    rng: random.Random,
    size: Size,
    cells: tuple[int, int],
    octaves: int = 5,
    gain: float = 0.5,
    lacunarity: float = 2.0,
) -> Image.Image:
    """Fractal sum of value-noise octaves as a float field normalised to 0..1."""
    acc = value_noise(rng, size, cells)
    amp = 1.0
    for i in range(1, octaves):
        amp *= gain
        scale = lacunarity**i
        layer = value_noise(rng, size, (round(cells[0] * scale), round(cells[1] * scale)))
        acc = accumulate(acc, layer, amp)
    return normalise(acc)


def turbulent_noise(
    rng: random.Random,
    size: Size,
    cells: tuple[int, int],
    octaves: int = 7,
    gain: float = 0.5,
) -> Image.Image:
    """Perlin-style turbulence: sum of |noise| octaves, normalised to 0..1.

    The absolute value creates sharp creases, which is what gives marble veins
    their crisp, kinked edges instead of smooth contour-map lines.
    """
    acc = Image.new("F", size, 0.0)
    amp = 1.0
    for i in range(octaves):
        scale = 2.0**i
        layer = value_noise(rng, size, (round(cells[0] * scale), round(cells[1] * scale)))
        acc = accumulate(acc, layer, amp, fold=True)
        amp *= gain
    return normalise(acc)


def grain(rng: random.Random, size: Size) -> Image.Image:
    """Per-pixel white noise (deterministic, unlike Image.effect_noise)."""
    return Image.frombytes("L", size, rng.randbytes(size[0] * size[1]))


def mirror_pad(img: Image.Image, pad: int) -> Image.Image:
    """Surround an image with mirrored copies so edge lookups stay seamless."""
    w, h = img.size
    canvas = Image.new(img.mode, (w + 2 * pad, h + 2 * pad))
    for j in (-1, 0, 1):
        for i in (-1, 0, 1):
            tile = img.transpose(Image.Transpose.FLIP_LEFT_RIGHT) if i else img
            tile = tile.transpose(Image.Transpose.FLIP_TOP_BOTTOM) if j else tile
            canvas.paste(tile, (pad + i * w, pad + j * h))
    return canvas


def warp(
    img: Image.Image,
    rng: random.Random,
    strength: float,
    cells: int = 4,
    grid: int = 48,
    resample: Image.Resampling = BICUBIC,
) -> Image.Image:
    """Domain-warp an image with a smooth displacement field (mesh transform).

    Displacing the lookup coordinates is what turns plain noise contours into
    the folded, flowing veins of real marble.
    """
    w, h = img.size
    gx = grid
    gy = max(2, round(grid * h / w))
    aspect = max(2, round(cells * h / w))
    dx = value_noise(rng, (gx + 1, gy + 1), (cells, aspect)).convert("L").tobytes()
    dy = value_noise(rng, (gx + 1, gy + 1), (cells, aspect)).convert("L").tobytes()
    pad = int(strength) + 2

    def corner(ix: int, iy: int) -> tuple[float, float]:
        k = iy * (gx + 1) + ix
        x = ix * w / gx + (dx[k] - 128) / 128.0 * strength + pad
        y = iy * h / gy + (dy[k] - 128) / 128.0 * strength + pad
        return x, y

    mesh = []
    for iy in range(gy):
        for ix in range(gx):
            box = (
                round(ix * w / gx),
                round(iy * h / gy),
                round((ix + 1) * w / gx),
                round((iy + 1) * h / gy),
            )
            ul, ll = corner(ix, iy), corner(ix, iy + 1)
            lr, ur = corner(ix + 1, iy + 1), corner(ix + 1, iy)
            mesh.append((box, (*ul, *ll, *lr, *ur)))
    # Edge cells may sample outside the source; mirror-pad so they stay textured.
    return mirror_pad(img, pad).transform((w, h), Image.Transform.MESH, mesh, resample)


def bands(
    field: Image.Image, level: float, width: float, thickness: Image.Image | None = None
) -> Image.Image:
    """8-bit mask of soft lines where the float field crosses level + n (veins).

    Lines repeat every 1.0 of the field, so a ramp-driven phase field gives
    roughly parallel veins. `thickness` (float, ~0..2) modulates the line
    width along its run; the profile is a smoothstep, not a hard edge.
    """
    if thickness is None:
        thickness = Image.new("F", field.size, 1.0)

    def expr(d: dict[str, Any]) -> object:
        frac = (d["a"] - level + 100.0) % 1.0
        dist = d["min"](frac, 1.0 - frac)
        t = d["max"](1.0 - dist / (d["w"] * width + 1e-4), 0.0)
        return t * t * (3.0 - 2.0 * t) * 255.0

    return fmath(expr, a=field, w=thickness).convert("L")


def tone(img: Image.Image, lo: float, hi: float, gamma: float = 1.0) -> Image.Image:
    """Remap 0..255 into lo..hi with a gamma curve (contrast shaping)."""
    return img.point(lut(lambda v: lo + (hi - lo) * v**gamma))


def solid(size: Size, colour: RGB) -> Image.Image:
    return Image.new("RGB", size, colour)


def paint(base: Image.Image, colour: RGB, mask: Image.Image) -> Image.Image:
    """Lay a flat colour over `base` through an alpha mask."""
    return Image.composite(solid(base.size, colour), base, mask)


def gradient_map(gray: Image.Image, stops: list[tuple[int, RGB]]) -> Image.Image:
    """Map grey levels to colours through piecewise-linear colour stops."""
    tables: list[list[int]] = [[], [], []]
    for v in range(256):
        for (p0, c0), (p1, c1) in pairwise(stops):
            if p0 <= v <= p1:
                t = 0.0 if p1 == p0 else (v - p0) / (p1 - p0)
                for ch in range(3):
                    tables[ch].append(round(c0[ch] + (c1[ch] - c0[ch]) * t))
                break
        else:
            edge = stops[0][1] if v < stops[0][0] else stops[-1][1]
            for ch in range(3):
                tables[ch].append(edge[ch])
    rgb = Image.merge("RGB", (gray, gray, gray))
    return rgb.point(tables[0] + tables[1] + tables[2])


# --------------------------------------------------------------------------
# Stone textures
# --------------------------------------------------------------------------


def ramp(size: Size, angle: float) -> Image.Image:
    """Float 0..1 linear gradient across `size`, rotated by `angle` degrees."""
    d = math.ceil(math.hypot(*size)) + 2
    grad = Image.linear_gradient("F").resize((d, d), BICUBIC).rotate(angle, BICUBIC)
    ox, oy = (d - size[0]) // 2, (d - size[1]) // 2
    grad = grad.crop((ox, oy, ox + size[0], oy + size[1]))
    return fmath(lambda p: p["a"] / 255.0, a=grad)


def flow_field(
    rng: random.Random,
    size: Size,
    cells: tuple[int, int],
    angle: float,
    periods: float,
    turbulence: float,
    warps: list[tuple[float, int]],
    octaves: int = 7,
    gain: float = 0.55,
) -> Image.Image:
    """Phase field = directional ramp + fractal turbulence, then domain-warped.

    Contours of this field (taken modulo 1) are the classic marble veins: the
    ramp gives them a dominant run, the turbulence and warps fold them.
    Works on an oversized canvas so warps never drag edge content into view.
    """
    w, h = size
    m = int(sum(s for s, _ in warps)) + 4
    big = (w + 2 * m, h + 2 * m)
    big_cells = (round(cells[0] * big[0] / w), round(cells[1] * big[1] / h))
    noise = turbulent_noise(rng, big, big_cells, octaves=octaves, gain=gain)
    field = fmath(lambda d: d["r"] * periods + d["n"] * turbulence, r=ramp(big, angle), n=noise)
    for strength, wcells in warps:
        field = warp(field, rng, strength=strength, cells=wcells)
    return field.crop((m, m, m + w, m + h))


@dataclass(frozen=True)
class MarbleStyle:
    ground: list[tuple[int, RGB]]  # background cloudiness gradient
    vein: RGB  # colour of the vein cores
    halo: RGB  # colour of the soft wash around veins
    veins: list[tuple[float, float, float]]  # (phase level, width, opacity)
    periods: float  # vein repeats across the diagonal
    turbulence: float  # how far veins wander from the dominant run
    fine: float  # opacity of the secondary hair-line network
    fine_colour: RGB
    halo_strength: float
    angle: float  # dominant vein direction in degrees
    warp: float  # fraction of width used as warp amplitude
    scale: float  # bigger = larger features
    octaves: int = 6  # detail levels in the vein turbulence
    roughness: float = 0.5  # gain per octave; higher = more jagged veins


CALACATTA = MarbleStyle(
    ground=[(0, (230, 227, 221)), (150, (241, 239, 234)), (255, (248, 247, 243))],
    vein=(98, 94, 90),
    halo=(196, 180, 150),
    veins=[(0.5, 0.04, 0.95), (0.15, 0.014, 0.6), (0.78, 0.018, 0.7)],
    periods=2.2,
    turbulence=0.5,
    fine=0.35,
    fine_colour=(168, 160, 148),
    halo_strength=0.45,
    angle=-35,
    warp=0.06,
    scale=1.0,
)
CARRARA = MarbleStyle(
    ground=[(0, (202, 206, 210)), (130, (222, 224, 227)), (255, (236, 238, 240))],
    vein=(120, 126, 134),
    halo=(178, 184, 192),
    veins=[(0.2, 0.012, 0.5), (0.45, 0.025, 0.6), (0.7, 0.01, 0.45)],
    periods=4.0,
    turbulence=0.7,
    fine=0.55,
    fine_colour=(150, 156, 164),
    halo_strength=0.55,
    angle=-20,
    warp=0.04,
    scale=0.7,
    octaves=7,
)
EMPERADOR = MarbleStyle(
    ground=[(0, (58, 38, 26)), (110, (86, 60, 42)), (200, (112, 82, 58)), (255, (138, 106, 78))],
    vein=(222, 204, 178),
    halo=(150, 118, 88),
    veins=[(0.5, 0.02, 0.9), (0.25, 0.009, 0.75), (0.75, 0.012, 0.75)],
    periods=3.5,
    turbulence=0.7,
    fine=0.6,
    fine_colour=(184, 156, 124),
    halo_strength=0.22,
    angle=-25,
    warp=0.06,
    scale=0.8,
    octaves=7,
)
VERDE = MarbleStyle(
    ground=[(0, (12, 34, 27)), (120, (24, 62, 47)), (210, (40, 88, 66)), (255, (62, 110, 84))],
    vein=(206, 222, 208),
    halo=(84, 134, 106),
    veins=[(0.5, 0.02, 0.95), (0.2, 0.01, 0.7), (0.8, 0.012, 0.7)],
    periods=3.0,
    turbulence=0.6,
    fine=0.7,
    fine_colour=(150, 190, 164),
    halo_strength=0.4,
    angle=30,
    warp=0.07,
    scale=0.8,
    octaves=7,
)


def marble(size: Size, seed: int, style: MarbleStyle) -> Image.Image:
    """Marble slab surface: cloudy matrix, haloed main veins, hair-line network."""
    rng = make_rng(seed)
    w, h = size
    base = max(2, round(3 / style.scale))
    cells = (base, max(2, round(base * h / w)))

    # Background: soft, low-contrast clouds in the crystal matrix.
    clouds = to_l(fbm(rng, size, (cells[0] * 2, cells[1] * 2), octaves=6, gain=0.55))
    stone = gradient_map(clouds, style.ground)

    # Primary veins: contour lines of a directional, warped phase field.
    field = flow_field(
        rng,
        size,
        cells,
        style.angle,
        style.periods,
        style.turbulence,
        [(w * style.warp, 3), (w * style.warp * 0.2, 10)],
        octaves=style.octaves,
        gain=style.roughness,
    )
    # Veins swell, thin out and vanish along their run, like real deposits.
    swell = fbm(rng, size, (cells[0] * 2, cells[1] * 2), octaves=4)
    thickness = fmath(lambda d: d["a"] * d["a"] * 1.5 + 0.2, a=swell)
    presence = tone(to_l(fbm(rng, size, (cells[0] * 2, cells[1] * 2), octaves=4)), -0.3, 1.8)

    halo = Image.new("L", size, 0)
    for level, width, opacity in style.veins:
        wash = bands(field, level, width * 7, thickness)
        halo = ImageChops.lighter(halo, tone(wash, 0, opacity))
    halo = halo.filter(ImageFilter.GaussianBlur(w / 300))
    stone = paint(stone, style.halo, tone(halo, 0.0, style.halo_strength))

    # Secondary hair-line network at a higher frequency and another angle.
    fine = flow_field(
        rng,
        size,
        (cells[0] * 2, cells[1] * 2),
        style.angle + 35,
        style.periods * 1.5,
        style.turbulence * 1.2,
        [(w * style.warp * 0.5, 5)],
        octaves=style.octaves,
        gain=style.roughness,
    )
    fine_lines = ImageChops.multiply(bands(fine, 0.5, 0.02, thickness), presence)
    stone = paint(stone, style.fine_colour, tone(fine_lines, 0.0, style.fine))

    for level, width, opacity in style.veins:
        core = ImageChops.multiply(bands(field, level, width, thickness), presence)
        stone = paint(stone, style.vein, tone(core, 0.0, opacity))
    # Real veins bleed slightly into the surrounding calcite.
    stone = stone.filter(ImageFilter.GaussianBlur(0.5))
    sparkle = tone(grain(rng, size), 0.0, 1.0, gamma=16.0)
    return paint(stone, (255, 255, 255), tone(sparkle, 0.0, 0.1))


def threshold(field: Image.Image, coverage: float, softness: float = 6.0) -> Image.Image:
    """Mask covering roughly `coverage` of the area where the field is highest."""
    gray = field.convert("L")
    hist = gray.histogram()
    target = coverage * gray.width * gray.height
    acc, cut = 0, 255
    while cut > 0 and acc + hist[cut] < target:
        acc += hist[cut]
        cut -= 1
    return gray.point(lut(lambda v: min(1.0, max(0.0, (v * 255 - cut) / softness + 0.5))))


def crystal_mosaic(rng: random.Random, size: Size, grain_px: float) -> Image.Image:
    """Polygonal crystal mosaic (8-bit ids) from three rotated blocky lattices.

    Overlaying square grids at different angles and pitches cuts the plane
    into irregular polygons of uniform value, which reads as the interlocking
    crystals of granite far better than thresholded smooth noise. A warp
    (nearest-neighbour, so ids stay pure) then bends the straight facets.
    """
    w, h = size
    d = math.ceil(math.hypot(w, h)) + 4
    ox, oy = (d - w) // 2, (d - h) // 2
    layers = []
    for k in range(3):
        n = max(2, round(d / (grain_px * (1.3 + 0.5 * k))))
        lattice = Image.frombytes("L", (n, n), rng.randbytes(n * n))
        blocky = lattice.resize((d, d), Image.Resampling.NEAREST)
        blocky = blocky.rotate(rng.uniform(10, 80), Image.Resampling.NEAREST)
        layers.append(blocky.crop((ox, oy, ox + w, oy + h)))
    mosaic = ImageChops.add(layers[0], layers[1], scale=2.0)
    mosaic = Image.blend(mosaic, layers[2], 0.33)
    grid = max(8, round(w / (grain_px * 1.2)))
    cells = max(3, round(w / (grain_px * 2.5)))
    nearest = Image.Resampling.NEAREST
    return warp(mosaic, rng, strength=grain_px * 0.7, cells=cells, grid=grid, resample=nearest)


def quantile_band(gray: Image.Image, lo: float, hi: float) -> Image.Image:
    """Mask of pixels whose value lies between the lo and hi area quantiles."""
    hist = gray.histogram()
    total = gray.width * gray.height
    cuts = []
    for q in (lo, hi):
        acc, v = 0, 0
        while v < 255 and acc + hist[v] < q * total:
            acc += hist[v]
            v += 1
        cuts.append(v)
    a, b = cuts
    return gray.point([255 if a <= v < b or (hi >= 1.0 and v >= a) else 0 for v in range(256)])


def speckles(rng: random.Random, size: Size, grain_px: float, coverage: float) -> Image.Image:
    """Scattered small crystals (mica flakes, sparkles) covering `coverage`."""
    mosaic = crystal_mosaic(rng, size, grain_px)
    return quantile_band(mosaic, 1.0 - coverage, 1.0)


@dataclass(frozen=True)
class GraniteStyle:
    ground: RGB  # matrix mineral that fills whatever the others leave
    grain: float  # main crystal size in px
    minerals: list[tuple[RGB, float]]  # (colour, share of the main mosaic)
    specks: list[tuple[RGB, float, float]]  # finer crystals: (colour, size px, coverage)


GRANITE_GREY = GraniteStyle(
    ground=(178, 178, 180),
    grain=13.0,
    minerals=[((222, 222, 220), 0.4), ((136, 138, 142), 0.26), ((200, 200, 200), 0.14)],
    specks=[((30, 30, 32), 5.0, 0.12), ((12, 12, 14), 2.5, 0.03)],
)
GRANITE_BLACK = GraniteStyle(
    ground=(38, 38, 40),
    grain=10.0,
    minerals=[((18, 18, 20), 0.5), ((64, 66, 70), 0.22)],
    specks=[((112, 114, 120), 3.5, 0.05), ((176, 178, 184), 2.0, 0.012)],
)
GRANITE_RED = GraniteStyle(
    ground=(172, 80, 66),
    grain=17.0,
    minerals=[((138, 50, 42), 0.38), ((104, 34, 30), 0.18), ((142, 134, 132), 0.16)],
    specks=[((26, 20, 20), 5.5, 0.11), ((210, 140, 120), 4.0, 0.04)],
)


def granite(size: Size, seed: int, style: GraniteStyle, scale: float = 1.0) -> Image.Image:
    """Granite: interlocking crystals (`scale` x the style size) plus mica flecks.

    Rendered at twice the size and reduced, which antialiases the crisp
    crystal facets without blurring them into mush.
    """
    rng = make_rng(seed)
    final = size
    size = (size[0] * 2, size[1] * 2)
    scale *= 2
    w, h = size
    stone = solid(size, style.ground)
    mosaic = crystal_mosaic(rng, size, style.grain * scale)
    start = 0.0
    for colour, share in style.minerals:
        mask = quantile_band(mosaic, start, start + share)
        start += share
        stone = Image.composite(solid(size, colour), stone, mask)
    for colour, grain_px, coverage in style.specks:
        stone = Image.composite(
            solid(size, colour), stone, speckles(rng, size, grain_px * scale, coverage)
        )
    # Crystals are not flat colour: soft tonal drift and cloudy patches.
    drift = tone(to_l(fbm(rng, size, (w // 40, h // 40), octaves=3)), 0.84, 1.0)
    stone = ImageChops.multiply(stone, Image.merge("RGB", (drift,) * 3))
    mottle = tone(to_l(fbm(rng, size, (5, 4), octaves=4)), 0.9, 1.0)
    stone = ImageChops.multiply(stone, Image.merge("RGB", (mottle,) * 3))
    return stone.resize(final, LANCZOS).filter(ImageFilter.GaussianBlur(0.4))


def pores(
    rng: random.Random, size: Size, length: float, height: float, coverage: float
) -> Image.Image:
    """Elongated cavities (travertine voids, limestone pits) as a mask."""
    w, h = size
    cells = (max(2, round(w / length)), max(2, round(h / height)))
    coarse = value_noise(rng, size, cells)
    fine = value_noise(rng, size, (cells[0] * 3, cells[1] * 2))
    field = fmath(lambda d: d["a"] * 0.75 + d["b"] * 0.25, a=coarse, b=fine)
    return threshold(field, coverage, softness=30.0)


def recess(stone: Image.Image, mask: Image.Image, colour: RGB, depth: int = 2) -> Image.Image:
    """Paint a hole: dark interior with a shadowed upper lip and lit lower lip."""
    stone = paint(stone, colour, mask)
    lip = ImageChops.subtract(mask, ImageChops.offset(mask, 0, depth))
    shadow = ImageChops.subtract(mask, ImageChops.offset(mask, 0, -depth))
    stone = paint(stone, (255, 246, 226), tone(lip, 0, 0.35))
    return paint(stone, (60, 46, 32), tone(shadow, 0, 0.35))


def travertine(size: Size, seed: int, vein_cut: bool = True) -> Image.Image:
    """Vein-cut travertine: horizontal sediment bands pitted with voids."""
    rng = make_rng(seed)
    w, h = size
    # Bands: noise that changes quickly vertically and slowly horizontally.
    layers = flow_field(
        rng, size, (2, 14), 0.0 if vein_cut else 60.0, 4.0, 0.5, [(w * 0.03, 3)], octaves=7
    )
    # Triangle wave of the phase: smooth alternation of light and dark beds.
    banding = to_l(fmath(lambda d: abs((d["a"] % 1.0) * 2.0 - 1.0), a=layers))
    stone = gradient_map(
        banding,
        [
            (0, (196, 168, 128)),
            (90, (216, 192, 152)),
            (170, (230, 212, 178)),
            (255, (238, 224, 196)),
        ],
    )
    # Fine sediment striations.
    streaks = to_l(fbm(rng, size, (6, h // 5), octaves=3))
    stone = paint(stone, (176, 146, 108), tone(streaks, -0.3, 0.35))
    stone = paint(stone, (246, 236, 214), tone(ImageOps.invert(streaks), -0.5, 0.25))
    # Voids cluster in some bands: multiply by a banded presence mask.
    holes = pores(rng, size, 26.0, 5.0, 0.06)
    presence = to_l(flow_field(rng, size, (2, 8), 0.0, 0.0, 1.0, [], octaves=3))
    holes = ImageChops.multiply(holes, tone(presence, -0.2, 1.8))
    stone = recess(stone, holes, (150, 122, 86))
    tiny = pores(rng, size, 6.0, 3.0, 0.02)
    stone = recess(stone, tiny, (166, 138, 100), depth=1)
    return stone.filter(ImageFilter.GaussianBlur(0.4))


def limestone(size: Size, seed: int, finish: str = "bush") -> Image.Image:
    """Jerusalem-type limestone: warm cream, fossil specks, tooled surface.

    finish: "bush" (bush-hammered pits), "chisel" (hand-dressed diagonal
    strokes) or "honed" (smooth, only the natural texture).
    """
    rng = make_rng(seed)
    w, h = size
    mottle = to_l(fbm(rng, size, (4, 3), octaves=6, gain=0.55))
    stone = gradient_map(
        mottle,
        [
            (0, (212, 192, 156)),
            (110, (226, 210, 178)),
            (190, (234, 222, 196)),
            (255, (242, 234, 214)),
        ],
    )
    # Occasional rosy / golden patches typical of "Jerusalem Gold".
    tint = tone(to_l(fbm(rng, size, (3, 2), octaves=3)), -1.2, 0.8)
    stone = paint(stone, (218, 176, 132), tone(tint, 0, 0.4))

    # Fossil specks: small dark grains plus a few pale shell fragments.
    specks = Image.new("L", size, 0)
    draw = ImageDraw.Draw(specks)
    for _ in range(w * h // 900):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.choice((0.6, 0.8, 1.0, 1.3, 1.8))
        draw.ellipse(
            (x - r, y - r * rng.uniform(0.5, 1.0), x + r, y + r), fill=rng.randint(90, 230)
        )
    stone = paint(stone, (150, 120, 84), specks.filter(ImageFilter.GaussianBlur(0.5)))
    shells = Image.new("L", size, 0)
    draw = ImageDraw.Draw(shells)
    for _ in range(w * h // 40000):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(3, 8)
        start = rng.uniform(0, 360)
        draw.arc(
            (x - r, y - r, x + r, y + r), start, start + rng.uniform(120, 220), fill=200, width=2
        )
    stone = paint(stone, (246, 236, 214), shells.filter(ImageFilter.GaussianBlur(0.6)))

    # Surface relief, lit from the upper left by embossing a height map.
    if finish == "bush":
        height = grain(rng, size).filter(ImageFilter.GaussianBlur(1.3))
        height = ImageOps.autocontrast(height, cutoff=1)
        amount = 0.55
    elif finish == "chisel":
        # Short parallel tool marks, slanted as a mason's chisel leaves them.
        d = math.ceil(math.hypot(w, h)) + 4
        strokes = value_noise(rng, (d, d), (d // 4, d // 14)).convert("L")
        strokes = strokes.rotate(-20, BICUBIC)
        ox, oy = (d - w) // 2, (d - h) // 2
        strokes = strokes.crop((ox, oy, ox + w, oy + h))
        pits = grain(rng, size).filter(ImageFilter.GaussianBlur(1.0))
        height = ImageOps.autocontrast(Image.blend(strokes, pits, 0.35), cutoff=1)
        amount = 0.65
    else:
        height = to_l(fbm(rng, size, (w // 8, h // 8), octaves=2))
        amount = 0.15
    # Emboss on a mirror-padded copy so the filter leaves no border seam.
    relief = mirror_pad(height, 4).filter(ImageFilter.EMBOSS).crop((4, 4, 4 + w, 4 + h))
    relief = Image.blend(Image.new("L", size, 128), relief, amount)
    return ImageChops.soft_light(stone, Image.merge("RGB", (relief,) * 3))


# --------------------------------------------------------------------------
# Geometry and lighting helpers for the composed "product" shots
# --------------------------------------------------------------------------

Point = tuple[float, float]
Vec3 = tuple[float, float, float]


def solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (8x8 homographies only)."""
    n = len(rhs)
    m = [[*row, rhs[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col] != 0.0:
                k = m[r][col] / m[col][col]
                m[r] = [a - k * b for a, b in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def homography(dst: list[Point], src: list[Point]) -> list[float]:
    """Coefficients for Image.transform(PERSPECTIVE): output dst -> input src."""
    rows: list[list[float]] = []
    rhs: list[float] = []
    for (x, y), (u, v) in zip(dst, src, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -x * u, -y * u])
        rhs.append(u)
        rows.append([0, 0, 0, x, y, 1, -x * v, -y * v])
        rhs.append(v)
    return solve(rows, rhs)


def poly_mask(size: Size, points: list[Point], ss: int = 4) -> Image.Image:
    """Antialiased polygon mask (drawn supersampled, then reduced)."""
    big = Image.new("L", (size[0] * ss, size[1] * ss), 0)
    ImageDraw.Draw(big).polygon([(x * ss, y * ss) for x, y in points], fill=255)
    return big.resize(size, Image.Resampling.BOX)


def shade(img: Image.Image, factor: float) -> Image.Image:
    """Uniform brightness change (faces turned away from the light)."""
    table = lut(lambda v: v * factor)
    return img.point(table * len(img.getbands()))


def paste_quad(
    canvas: Image.Image, texture: Image.Image, quad: list[Point], factor: float = 1.0
) -> None:
    """Map the whole texture onto a screen-space quad (UL, UR, LR, LL)."""
    tw, th = texture.size
    coeffs = homography(quad, [(0, 0), (tw, 0), (tw, th), (0, th)])
    warped = texture.transform(canvas.size, Image.Transform.PERSPECTIVE, coeffs, BICUBIC)
    if factor != 1.0:
        warped = shade(warped, factor)
    canvas.paste(warped, (0, 0), poly_mask(canvas.size, quad))


@dataclass(frozen=True)
class Camera:
    """Pin-hole camera at (0, height, 0) looking down +Z, pitched by `tilt`."""

    size: Size
    focal: float  # in pixels
    height: float
    tilt: float = 0.0  # degrees, positive looks down
    centre_y: float = 0.5

    def project(self, p: Vec3) -> Point:
        x, y, z = p[0], p[1] - self.height, p[2]
        c, s = math.cos(math.radians(self.tilt)), math.sin(math.radians(self.tilt))
        y, z = y * c + z * s, -y * s + z * c
        return (
            self.size[0] / 2 + self.focal * x / z,
            self.size[1] * self.centre_y - self.focal * y / z,
        )

    def quad(self, corners: list[Vec3]) -> list[Point]:
        return [self.project(c) for c in corners]


def sky(size: Size, rng: random.Random, cover: float = 0.55) -> Image.Image:
    """Clear blue sky paling toward the horizon, with a few soft clouds."""
    canvas = vertical_gradient(
        size, [(0, (56, 112, 180)), (150, (128, 174, 214)), (255, (206, 220, 228))]
    )
    puffs = to_l(fbm(rng, size, (4, 3), octaves=6, gain=0.55))
    clouds = puffs.point(lut(lambda v: max(0.0, v - cover) * 2.2))
    return paint(canvas, (250, 250, 248), clouds)


def vertical_gradient(size: Size, stops: list[tuple[int, RGB]]) -> Image.Image:
    """Top-to-bottom colour gradient (skies, walls, studio backdrops)."""
    column = Image.linear_gradient("L").resize((1, size[1]), BICUBIC)
    return gradient_map(column, stops).resize(size, Image.Resampling.NEAREST)


def glow(size: Size, centre: Point, radius: Point) -> Image.Image:
    """Soft elliptical light falloff as an 8-bit mask."""
    w, h = size
    small = (max(2, w // 8), max(2, h // 8))
    mask = Image.new("L", small, 0)
    cx, cy = centre[0] / 8, centre[1] / 8
    rx, ry = radius[0] / 8, radius[1] / 8
    ImageDraw.Draw(mask).ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=255)
    blur = max(rx, ry) * 0.6
    return mask.filter(ImageFilter.GaussianBlur(blur)).resize(size, BICUBIC)


def camera_noise(img: Image.Image, seed: int) -> Image.Image:
    """Sensor noise, as every real camera photo has: luminance grain plus a little
    colour noise. It is what makes a camera JPEG several MB rather than several
    hundred KB, and what an encoder must spend bytes on."""
    rng = make_rng(seed)
    # Uniform noise around mid-grey: about +-9 levels of luminance, +-4 of colour.
    luma = grain(rng, img.size).point(lut(lambda v: 0.5 + (v - 0.5) * 0.07))
    channels = [
        ImageChops.add(
            luma, grain(rng, img.size).point(lut(lambda v: 0.5 + (v - 0.5) * 0.03)), offset=-128
        )
        for _ in range(3)
    ]
    return ImageChops.add(img, Image.merge("RGB", channels), offset=-128)


def vignette(img: Image.Image, strength: float = 0.35) -> Image.Image:
    """Darken the corners as a real lens does; helps the 'photo' feel."""
    w, h = img.size
    light = glow(img.size, (w / 2, h / 2), (w * 0.75, h * 0.75))
    dark = Image.new("RGB", img.size, (0, 0, 0))
    return Image.composite(img, Image.blend(img, dark, strength), light)


def sheen(img: Image.Image, rng: random.Random, strength: float = 0.35) -> Image.Image:
    """Polished-surface highlight: a diagonal light band plus soft window reflections."""
    w, h = img.size
    band = ramp(img.size, rng.uniform(-60, -30))
    centre = rng.uniform(0.3, 0.6)
    light = to_l(fmath(lambda d: d["max"](1.0 - abs(d["a"] - centre) * 3.0, 0.0) ** 2, a=band))
    windows = Image.new("L", (w // 4, h // 4), 0)
    draw = ImageDraw.Draw(windows)
    x = rng.uniform(0.1, 0.5) * w / 4
    for _ in range(3):
        pw = rng.uniform(0.06, 0.1) * w / 4
        draw.polygon([(x, 0), (x + pw, 0), (x + pw - h / 10, h / 4), (x - h / 10, h / 4)], fill=150)
        x += pw * 1.25
    windows = windows.filter(ImageFilter.GaussianBlur(w / 160)).resize(img.size, BICUBIC)
    light = ImageChops.lighter(tone(light, 0, 0.8), windows)
    return paint(img, (255, 252, 246), tone(light, 0.0, strength))


# --------------------------------------------------------------------------
# Compositions
# --------------------------------------------------------------------------


def light_falloff(img: Image.Image, angle: float, lo: float) -> Image.Image:
    """Soft directional light: full brightness on one side, `lo` on the other."""
    fall = to_l(ramp(img.size, angle)).point(lut(lambda v: 1.0 - (1.0 - lo) * v))
    return ImageChops.multiply(img, Image.merge("RGB", (fall,) * 3))


def polished_slab(size: Size, seed: int, style: MarbleStyle) -> Image.Image:
    """Bookmatched slab pair: one texture mirrored about the seam, then polished."""
    w, h = size
    half = marble((w // 2 + 1, h), seed, style)
    slab = Image.new("RGB", size)
    slab.paste(half.crop((0, 0, w // 2, h)), (0, 0))
    mirrored = half.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    slab.paste(mirrored.crop((1, 0, w - w // 2 + 1, h)), (w // 2, 0))
    slab = light_falloff(slab, -30, 0.78)
    return vignette(sheen(slab, make_rng(seed + 1), 0.4), 0.2)


def polished(texture: Image.Image, seed: int, falloff: float = 0.8) -> Image.Image:
    """Full-frame polished surface: light gradient, reflections, lens vignette."""
    lit = light_falloff(texture, -35, falloff)
    return vignette(sheen(lit, make_rng(seed), 0.32), 0.25)


def tint(img: Image.Image, rgb: tuple[float, float, float]) -> Image.Image:
    """Per-channel gain (warmer, paler, rosier block of the same stone)."""
    tables = [gain_table(k) for k in rgb]
    return img.point(tables[0] + tables[1] + tables[2])


def gain_table(k: float) -> list[int]:
    """Look-up table multiplying a channel by k (clipped)."""
    return lut(lambda v: v * k)


def tile_sheet(
    texture: Image.Image,
    rng: random.Random,
    grid: tuple[int, int],
    tile: Size,
    joint: int,
    grout: RGB,
    stagger: bool = False,
) -> Image.Image:
    """Lay tiles cut from one stone texture (random crops, turns and tone).

    `stagger` offsets every other row by half a tile (running bond).
    """
    cols, rows = grid
    sheet = Image.new("RGB", (cols * tile[0], rows * tile[1]), grout)
    tw, th = texture.size
    square = tile[0] == tile[1]
    for r in range(rows):
        shift = -(tile[0] // 2) if stagger and r % 2 else 0
        for c in range(cols + (1 if shift else 0)):
            turn = rng.choice((0, 90, 180, 270) if square else (0, 180))
            x = rng.randint(0, tw - tile[0])
            y = rng.randint(0, th - tile[1])
            piece = texture.crop((x, y, x + tile[0], y + tile[1])).rotate(turn)
            # No two tiles of natural stone match exactly in tone.
            piece = shade(piece, rng.uniform(0.95, 1.04))
            inset = (joint // 2, joint // 2, tile[0] - (joint + 1) // 2, tile[1] - (joint + 1) // 2)
            sheet.paste(piece.crop(inset), (c * tile[0] + inset[0] + shift, r * tile[1] + inset[1]))
    return sheet


def tiles_flat(size: Size, seed: int, texture: Image.Image, grid: tuple[int, int]) -> Image.Image:
    """Tiles seen from straight above, with grout lines and soft light."""
    rng = make_rng(seed)
    w, h = size
    tile = (math.ceil(w / grid[0]), math.ceil(h / grid[1]))
    sheet = tile_sheet(texture, rng, grid, tile, max(4, w // 220), (168, 160, 148))
    sheet = light_falloff(sheet.crop((0, 0, w, h)), -40, 0.8)
    return vignette(sheet, 0.3)


def lobby_backdrop(
    size: Size, base_y: float, rng: random.Random, count: int = 3, cool: bool = False
) -> Image.Image:
    """Plastered wall with tall bright windows and a stone skirting."""
    w, h = size
    stops = (
        [(0, (170, 170, 166)), (255, (214, 212, 206))]
        if cool
        else [(0, (200, 188, 170)), (255, (228, 218, 202))]
    )
    wall = vertical_gradient(size, stops)
    wall = paint(
        wall, (250, 242, 228), tone(glow(size, (w * 0.5, base_y), (w * 0.6, h * 0.3)), 0, 0.6)
    )
    windows = Image.new("L", size, 0)
    draw = ImageDraw.Draw(windows)
    pane_w = w * 0.42 / count
    gap = (w - count * pane_w) / (count + 1)
    top = base_y - h * 0.62
    for i in range(count):
        x0 = gap + i * (pane_w + gap) + rng.uniform(-8, 8)
        draw.rectangle((x0, top, x0 + pane_w, base_y - h * 0.04), fill=255)
        # Mullions divide each window into panes.
        for k in (1, 2):
            yk = top + k * (base_y - h * 0.04 - top) / 3
            draw.rectangle((x0, yk - 2, x0 + pane_w, yk + 2), fill=40)
        draw.rectangle((x0 + pane_w / 2 - 2, top, x0 + pane_w / 2 + 2, base_y - h * 0.04), fill=40)
    sky = vertical_gradient(size, [(0, (214, 228, 240)), (255, (252, 250, 244))])
    wall = Image.composite(sky, wall, windows.filter(ImageFilter.GaussianBlur(1.2)))
    bloom = windows.filter(ImageFilter.GaussianBlur(w / 60))
    wall = paint(wall, (255, 252, 244), tone(bloom, 0, 0.45))
    skirting = poly_mask(
        size, [(0, base_y - h * 0.025), (w, base_y - h * 0.025), (w, base_y + 2), (0, base_y + 2)]
    )
    return paint(wall, (150, 138, 120), skirting)


def arcade_backdrop(
    size: Size, base_y: float, stone: Image.Image, rng: random.Random
) -> Image.Image:
    """Courtyard: limestone arcade with shaded arches under an open sky."""
    w, h = size
    canvas = sky(size, rng)
    wall_top = base_y - h * 0.36
    wall = light_falloff(stone.resize(size, BICUBIC), -80, 0.85)
    canvas.paste(
        wall,
        (0, 0),
        poly_mask(size, [(0, wall_top), (w, wall_top), (w, base_y + 2), (0, base_y + 2)]),
    )
    # Cornice: a lit ledge and the shadow it casts.
    ledge = poly_mask(
        size, [(0, wall_top), (w, wall_top), (w, wall_top + h * 0.02), (0, wall_top + h * 0.02)]
    )
    canvas = paint(canvas, (246, 236, 214), tone(ledge, 0, 0.6))
    under = poly_mask(
        size,
        [
            (0, wall_top + h * 0.02),
            (w, wall_top + h * 0.02),
            (w, wall_top + h * 0.05),
            (0, wall_top + h * 0.05),
        ],
    )
    canvas = paint(
        canvas, (90, 70, 50), tone(under.filter(ImageFilter.GaussianBlur(h / 80)), 0, 0.35)
    )
    arches = Image.new("L", (w * 4, h * 4), 0)
    draw = ImageDraw.Draw(arches)
    count = 5
    span = w / count
    opening = span * 0.6
    spring = base_y - h * 0.17
    # Pointed arches: two arcs of radius r meeting at the apex.
    r = opening * 0.7
    apex = math.acos((opening / 2 - r) / r)
    rise = r * math.sin(apex)
    for i in range(count):
        cx = (i + 0.5) * span
        x0, x1 = cx - opening / 2, cx + opening / 2
        outline = [(x0, base_y), (x0, spring)]
        for k in range(25):
            t = math.pi - (math.pi - apex) * k / 24
            outline.append((x0 + r + r * math.cos(t), spring - r * math.sin(t)))
        for k in range(25):
            t = (math.pi - apex) * (1 - k / 24)
            outline.append((x1 - r + r * math.cos(t), spring - r * math.sin(t)))
        outline += [(x1, spring), (x1, base_y)]
        draw.polygon([(x * 4, y * 4) for x, y in outline], fill=255)
    mask = arches.resize(size, Image.Resampling.BOX)
    # Shaded gallery behind the arches: dark vault, sunlit floor far inside.
    top = round(spring - rise)
    inside = solid(size, (44, 36, 30))
    inside.paste(
        vertical_gradient(
            (w, round(base_y) - top + 2),
            [
                (0, (46, 38, 32)),
                (150, (90, 74, 58)),
                (220, (168, 144, 112)),
                (255, (196, 172, 136)),
            ],
        ),
        (0, top),
    )
    canvas = Image.composite(inside, canvas, mask)
    # Soft shadow inside the arch reveal.
    reveal = ImageChops.subtract(mask, ImageChops.offset(mask, -int(w * 0.012), 0))
    return paint(canvas, (40, 30, 22), tone(reveal.filter(ImageFilter.GaussianBlur(3)), 0, 0.4))


def tiled_floor(
    size: Size,
    seed: int,
    texture: Image.Image,
    scene: str,
    tile_m: tuple[float, float] = (0.8, 0.8),
    backdrop_stone: Image.Image | None = None,
    stagger: bool = False,
    windows: int = 3,
) -> Image.Image:
    """Tiled floor in one-point perspective meeting a back wall.

    scene: "lobby" (polished, windows reflected), "gallery" (cooler lobby) or
    "courtyard" (outdoor arcade, needs `backdrop_stone`).
    """
    rng = make_rng(seed)
    w, h = size
    ss = 2  # supersample: far-away grout lines alias badly otherwise
    big = (w * ss, h * ss)
    cam = Camera(big, focal=big[0] * 0.6, height=1.6, tilt=12.0, centre_y=0.42)
    cols, rows = math.ceil(17.6 / tile_m[0]), math.ceil(8.8 / tile_m[1])
    near = 0.7
    far = near + rows * tile_m[1]
    tile_px = (round(375 * tile_m[0]), round(375 * tile_m[1]))
    sheet = tile_sheet(texture, rng, (cols, rows), tile_px, 4, (150, 142, 130), stagger)
    sw, sh = sheet.size
    half = cols * tile_m[0] / 2
    quad = cam.quad([(-half, 0, far), (half, 0, far), (half, 0, near), (-half, 0, near)])
    base_y = quad[0][1]
    if scene == "lobby":
        backdrop = lobby_backdrop(big, base_y, rng, windows)
        gloss = 0.45
    elif scene == "gallery":
        backdrop = lobby_backdrop(big, base_y, rng, windows, cool=True)
        gloss = 0.45
    else:
        assert backdrop_stone is not None
        backdrop = arcade_backdrop(big, base_y, backdrop_stone, rng)
        gloss = 0.08
    floor = sheet.transform(
        big,
        Image.Transform.PERSPECTIVE,
        homography(quad, [(0, 0), (sw, 0), (sw, sh), (0, sh)]),
        BICUBIC,
    )
    # Mirror image of the wall in the polished floor, blurred and fading out.
    mirror = backdrop.crop((0, 0, big[0], int(base_y))).transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    mirror = mirror.resize((big[0], int(base_y * 0.9))).filter(ImageFilter.GaussianBlur(6 * ss))
    reflection = Image.new("RGB", big, (0, 0, 0))
    reflection.paste(mirror, (0, int(base_y)))
    fade = Image.new("L", big, 0)
    fade.paste(
        Image.linear_gradient("L")
        .resize((big[0], big[1] - int(base_y)), BICUBIC)
        .point(lut(lambda v: (1.0 - v) ** 1.6 * gloss)),
        (0, int(base_y)),
    )
    floor = ImageChops.screen(
        floor, ImageChops.multiply(reflection, Image.merge("RGB", (fade,) * 3))
    )
    # Ambient occlusion where floor meets wall.
    contact = poly_mask(
        big, [(0, base_y), (big[0], base_y), (big[0], base_y + 30), (0, base_y + 30)]
    )
    floor = paint(floor, (60, 50, 40), tone(contact.filter(ImageFilter.GaussianBlur(10)), 0, 0.35))
    canvas = backdrop.copy()
    canvas.paste(floor, (0, 0), poly_mask(big, quad, ss=1))
    return vignette(canvas.resize(size, LANCZOS), 0.3)


def plaster(size: Size, rng: random.Random, colour: RGB) -> Image.Image:
    """Painted plaster: almost flat colour with a faint trowelled mottle."""
    mottle = tone(to_l(fbm(rng, size, (8, 8), octaves=5)), 0.9, 1.0)
    return ImageChops.multiply(solid(size, colour), Image.merge("RGB", (mottle,) * 3))


def staircase(size: Size, seed: int, texture: Image.Image) -> Image.Image:
    """Straight flight of marble steps between plastered walls, seen from the foot."""
    rng = make_rng(seed)
    w, h = size
    cam = Camera(size, focal=w * 0.62, height=1.55, tilt=4.0, centre_y=0.4)
    canvas = plaster(size, rng, (226, 220, 210))
    riser, depth, half = 0.16, 0.32, 1.0
    start = 1.5
    steps = 16
    tw, th = texture.size
    far_z = start + steps * depth
    stair_mask = Image.new("L", size, 0)
    for sign in (-1.0, 1.0):
        quad = cam.quad(
            [
                (sign * half, 6.0, start - 0.5),
                (sign * half, 6.0, far_z + 1),
                (sign * half, -0.5, far_z + 1),
                (sign * half, -0.5, start - 0.5),
            ]
        )
        wall = plaster((400, 400), rng, (232, 226, 216))
        paste_quad(
            canvas,
            wall,
            quad if sign < 0 else [quad[1], quad[0], quad[3], quad[2]],
            0.97 if sign < 0 else 0.86,
        )
    for i in reversed(range(steps)):
        z0 = start + i * depth
        y0, y1 = i * riser, (i + 1) * riser
        cx = rng.randint(0, tw - 1000)
        cy = rng.randint(0, th - 160)
        strip = texture.crop((cx, cy, cx + 1000, cy + 160))
        face = cam.quad([(-half, y1, z0), (half, y1, z0), (half, y0, z0), (-half, y0, z0)])
        tread = cam.quad(
            [(-half, y1, z0 + depth), (half, y1, z0 + depth), (half, y1, z0), (-half, y1, z0)]
        )
        # Treads catch the light from above; risers sit in soft shade.
        if tread[3][1] - tread[0][1] > 0.5:
            paste_quad(canvas, strip, tread, 1.0 - i * 0.01)
            stair_mask.paste(255, (0, 0), poly_mask(size, tread))
        paste_quad(canvas, strip.transpose(Image.Transpose.FLIP_TOP_BOTTOM), face, 0.8 - i * 0.008)
        stair_mask.paste(255, (0, 0), poly_mask(size, face))
        top = face[0][1]
        nosing = [
            (face[0][0], top),
            (face[1][0], top),
            (face[1][0], top + 2.0),
            (face[0][0], top + 2.0),
        ]
        canvas = paint(canvas, (252, 250, 246), tone(poly_mask(size, nosing), 0, 0.7))
        under = [
            (face[0][0], top + 2),
            (face[1][0], top + 2),
            (face[1][0], top + 9),
            (face[0][0], top + 9),
        ]
        canvas = paint(
            canvas,
            (70, 64, 58),
            tone(poly_mask(size, under).filter(ImageFilter.GaussianBlur(3)), 0, 0.3),
        )
    # Ambient occlusion where steps meet the walls.
    walls = ImageOps.invert(stair_mask).filter(ImageFilter.GaussianBlur(w / 70))
    canvas = paint(canvas, (60, 54, 48), tone(ImageChops.multiply(walls, stair_mask), 0, 0.5))
    light = glow(size, (w * 0.5, h * 0.15), (w * 0.5, h * 0.4))
    canvas = paint(canvas, (255, 248, 232), tone(light, 0, 0.2))
    return vignette(canvas, 0.35)


def ashlar_wall(
    size: Size, seed: int, window: float | None = 0.62, course_scale: float = 1.0
) -> Image.Image:
    """Jerusalem-stone façade: coursed blocks of mixed tone and dressing.

    window: left edge of a window opening as a fraction of the width, or None.
    course_scale: >1 zooms in (taller courses, fewer blocks).
    """
    rng = make_rng(seed)
    w, h = size
    textures = [limestone(size, seed + 1, "chisel"), limestone(size, seed + 2, "bush")]
    tones = [
        (1.0, 1.0, 1.0),
        (1.03, 0.99, 0.93),
        (1.05, 1.04, 1.02),
        (1.02, 0.95, 0.9),
        (0.97, 0.96, 0.94),
    ]
    joint = max(4, w // 220)
    mortar: RGB = (196, 184, 160)
    wall = solid(size, mortar)
    relief = Image.new("L", size, 128)  # 128 = flat; used to light block arrises
    y = -rng.randint(0, 60)
    while y < h:
        course = round(h * rng.choice((0.15, 0.17, 0.19)) * course_scale)
        x = -rng.randint(0, 200)
        while x < w:
            length = round(course * rng.uniform(1.4, 2.8))
            box = (x + joint // 2, y + joint // 2, x + length - joint // 2, y + course - joint // 2)
            bw, bh = box[2] - box[0], box[3] - box[1]
            src = textures[rng.random() < 0.35]
            sx, sy = (
                rng.randint(0, w - bw) if bw < w else 0,
                rng.randint(0, h - bh) if bh < h else 0,
            )
            block = tint(src.crop((sx, sy, sx + bw, sy + bh)), rng.choice(tones))
            block = shade(block, rng.uniform(0.95, 1.03))
            # Slightly pillowed face: edges of each block fall off in tone.
            edge = Image.new("L", (bw, bh), 255)
            ImageDraw.Draw(edge).rectangle((6, 6, bw - 7, bh - 7), fill=0)
            edge = edge.filter(ImageFilter.GaussianBlur(9))
            block = paint(block, (150, 128, 100), tone(edge, 0, 0.45))
            wall.paste(block, box[:2])
            draw = ImageDraw.Draw(relief)
            # Lit upper/left arris, shaded lower/right arris.
            draw.rectangle((box[0], box[1], box[2], box[1] + 2), fill=200)
            draw.rectangle((box[0], box[1], box[0] + 2, box[3]), fill=170)
            draw.rectangle((box[0], box[3] - 3, box[2], box[3]), fill=70)
            draw.rectangle((box[2] - 3, box[1], box[2], box[3]), fill=90)
            x += length
        y += course
    relief = relief.filter(ImageFilter.GaussianBlur(1.2))
    wall = ImageChops.soft_light(wall, Image.merge("RGB", (relief,) * 3))
    wall = ImageChops.hard_light(
        wall, Image.merge("RGB", (relief.point(lut(lambda v: 0.5 + (v - 0.5) * 0.6)),) * 3)
    )
    if window is not None:
        x0, x1 = round(w * window), round(w * (window + 0.22))
        y0, y1 = round(h * 0.18), round(h * 0.8)
        frame = max(8, w // 60)
        surround = limestone((x1 - x0 + 2 * frame, y1 - y0 + 2 * frame), seed + 3, "honed")
        wall.paste(shade(surround, 1.04), (x0 - frame, y0 - frame))
        glass = vertical_gradient(
            (x1 - x0, y1 - y0), [(0, (70, 96, 120)), (150, (120, 146, 166)), (255, (52, 62, 72))]
        )
        glass = paint(
            glass,
            (220, 232, 240),
            tone(
                glow(
                    glass.size,
                    (glass.width * 0.3, glass.height * 0.2),
                    (glass.width * 0.5, glass.height * 0.3),
                ),
                0,
                0.5,
            ),
        )
        gd = ImageDraw.Draw(glass)
        gd.rectangle((0, 0, glass.width, 6), fill=(40, 40, 42))
        gd.rectangle(
            (glass.width // 2 - 3, 0, glass.width // 2 + 3, glass.height), fill=(60, 60, 62)
        )
        wall.paste(glass, (x0, y0))
        # Reveal shadow on the glass and a sill shadow below.
        shadow = poly_mask(
            size, [(x0, y0), (x1, y0), (x1, y0 + 18), (x0 + 18, y0 + 18), (x0 + 18, y1), (x0, y1)]
        )
        wall = paint(wall, (20, 20, 24), tone(shadow.filter(ImageFilter.GaussianBlur(5)), 0, 0.55))
        sill = poly_mask(
            size,
            [
                (x0 - frame, y1 + frame),
                (x1 + frame, y1 + frame),
                (x1 + frame, y1 + frame + 14),
                (x0 - frame, y1 + frame + 14),
            ],
        )
        wall = paint(wall, (80, 64, 48), tone(sill.filter(ImageFilter.GaussianBlur(6)), 0, 0.35))
    # Late-afternoon sun raking across the façade, with an eave shadow at the top.
    wall = light_falloff(wall, -60, 0.8)
    wall = paint(
        wall, (255, 214, 160), tone(glow(size, (w * 0.1, h * 0.1), (w * 0.9, h * 0.8)), 0, 0.16)
    )
    eave = poly_mask(size, [(0, 0), (w, 0), (w, h * 0.04), (w * 0.35, h * 0.16), (0, h * 0.2)])
    wall = paint(wall, (70, 58, 50), tone(eave.filter(ImageFilter.GaussianBlur(w / 100)), 0, 0.35))
    return vignette(wall, 0.28)


def bokeh(size: Size, rng: random.Random, count: int, colour: RGB) -> Image.Image:
    """Out-of-focus light discs for dim interior backgrounds."""
    w, h = size
    mask = Image.new("L", size, 0)
    draw = ImageDraw.Draw(mask)
    for _ in range(count):
        x, y = rng.uniform(0, w), rng.uniform(0, h * 0.8)
        r = rng.uniform(w * 0.012, w * 0.035)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=rng.randint(60, 170))
    return paint(solid(size, (0, 0, 0)), colour, mask.filter(ImageFilter.GaussianBlur(w / 300)))


def countertop(
    size: Size, seed: int, stone: Callable[[Size], Image.Image], scene: str
) -> Image.Image:
    """Polished worktop receding from the camera, with its front edge and backdrop.

    scene: "bar" (dark room, warm bokeh, stone front panel) or "kitchen"
    (bright room, stone upstand, cutting board and bowl on the top).
    `stone(size)` makes a texture; it is called with the real aspect of each
    surface so grains and veins are not stretched.
    """
    rng = make_rng(seed)
    w, h = size
    px_per_m = 1100
    cam = Camera(size, focal=w * 0.7, height=1.45, tilt=22.0, centre_y=0.45)
    top_y, edge = 0.92, 0.04
    near, far, half = 0.45, 1.1, 0.95
    top_tex = stone((round(2 * half * px_per_m), round((far - near) * px_per_m)))
    top = cam.quad(
        [(-half, top_y, far), (half, top_y, far), (half, top_y, near), (-half, top_y, near)]
    )
    front = cam.quad(
        [
            (-half, top_y, near),
            (half, top_y, near),
            (half, top_y - edge, near),
            (-half, top_y - edge, near),
        ]
    )
    far_y, under_y = top[0][1], front[2][1]
    if scene == "bar":
        canvas = vertical_gradient(size, [(0, (26, 20, 16)), (255, (50, 38, 28))])
        canvas = ImageChops.screen(canvas, bokeh(size, rng, 28, (255, 186, 112)))
        canvas = ImageChops.screen(canvas, bokeh(size, rng, 10, (255, 230, 200)))
        panel = shade(stone((w, max(2, h - round(under_y)))), 0.5)
        canvas.paste(panel, (0, round(under_y)))
        gloss = 0.42
    else:
        canvas = plaster(size, rng, (238, 234, 228))
        canvas = paint(
            canvas, (255, 252, 244), tone(glow(size, (w * 0.3, 0), (w * 0.7, far_y)), 0, 0.4)
        )
        # Floating oak shelf with its soft shadow on the wall.
        shelf_y = far_y * 0.38
        shadow = poly_mask(
            size,
            [
                (w * 0.1, shelf_y + 14),
                (w * 0.62, shelf_y + 14),
                (w * 0.62, shelf_y + 40),
                (w * 0.1, shelf_y + 40),
            ],
        )
        canvas = paint(
            canvas, (90, 80, 70), tone(shadow.filter(ImageFilter.GaussianBlur(14)), 0, 0.35)
        )
        oak = gradient_map(
            to_l(fbm(rng, (400, 40), (2, 12), octaves=4)),
            [(0, (150, 108, 70)), (255, (196, 150, 104))],
        )
        paste_quad(
            canvas,
            oak,
            [
                (w * 0.08, shelf_y),
                (w * 0.6, shelf_y),
                (w * 0.6, shelf_y + 22),
                (w * 0.08, shelf_y + 22),
            ],
        )
        upstand = cam.quad(
            [
                (-half, top_y + 0.1, far),
                (half, top_y + 0.1, far),
                (half, top_y, far),
                (-half, top_y, far),
            ]
        )
        paste_quad(canvas, stone((round(2 * half * px_per_m), 110)), upstand, 0.9)
        cabinets = vertical_gradient(
            (w, max(2, h - round(under_y))), [(0, (204, 198, 188)), (255, (184, 178, 168))]
        )
        doors = ImageDraw.Draw(cabinets)
        for k in range(5):
            x = k * w / 4 + w * 0.08
            doors.line((x, 12, x, h), fill=(150, 144, 134), width=3)
        canvas.paste(cabinets, (0, round(under_y)))
        gloss = 0.22
    paste_quad(canvas, top_tex, top, 1.0)
    front_tex = stone((round(2 * half * px_per_m), 44))
    paste_quad(canvas, front_tex, front, 0.72)
    # Mirror image of the room in the polished top, fading toward the viewer.
    depth = max(2, round(front[0][1] - far_y))
    mirror = canvas.crop((0, max(0, round(far_y) - depth), w, round(far_y)))
    mirror = mirror.transpose(Image.Transpose.FLIP_TOP_BOTTOM).resize((w, depth), BICUBIC)
    mirror = mirror.filter(ImageFilter.GaussianBlur(4))
    fade = (
        Image.linear_gradient("L")
        .resize((w, depth), BICUBIC)
        .point(lut(lambda v: (1 - v) ** 1.3 * gloss))
    )
    layer = Image.new("RGB", size, (0, 0, 0))
    layer.paste(ImageChops.multiply(mirror, Image.merge("RGB", (fade,) * 3)), (0, round(far_y)))
    top_mask = poly_mask(size, top)
    lit = ImageChops.screen(canvas, layer)
    canvas = Image.composite(lit, canvas, top_mask)
    if scene == "kitchen":
        # A cutting board and a ceramic bowl give the worktop a sense of scale.
        bx0, bx1, bz0, bz1 = -0.5, -0.12, 0.66, 0.95
        board = cam.quad(
            [
                (bx0, top_y + 0.025, bz1),
                (bx1, top_y + 0.025, bz1),
                (bx1, top_y + 0.025, bz0),
                (bx0, top_y + 0.025, bz0),
            ]
        )
        edge_q = cam.quad(
            [
                (bx0, top_y + 0.025, bz0),
                (bx1, top_y + 0.025, bz0),
                (bx1, top_y, bz0),
                (bx0, top_y, bz0),
            ]
        )
        shadow = poly_mask(size, [(x + 10, y + 8) for x, y in board]).filter(
            ImageFilter.GaussianBlur(10)
        )
        canvas = paint(canvas, (60, 56, 50), tone(shadow, 0, 0.4))
        oak = gradient_map(
            to_l(fbm(rng, (400, 240), (2, 10), octaves=5)),
            [(0, (150, 104, 64)), (255, (204, 156, 106))],
        )
        paste_quad(canvas, oak, board, 1.0)
        paste_quad(canvas, oak, edge_q, 0.7)
        bx, by = cam.project((0.3, top_y, 0.82))
        rx, ry = w * 0.075, h * 0.035
        shadow = poly_mask(
            size,
            [
                (bx - rx + 12 + rx * math.cos(t / 10), by + 10 + ry * 1.6 * math.sin(t / 10))
                for t in range(63)
            ],
        )
        canvas = paint(
            canvas, (60, 56, 50), tone(shadow.filter(ImageFilter.GaussianBlur(12)), 0, 0.35)
        )
        bowl = [
            (
                bx + rx * math.cos(t / 20),
                by - ry * 2.2 + ry * 3.2 * max(0.0, math.sin(t / 20)) + ry * 1.0,
            )
            for t in range(126)
        ]
        body = vertical_gradient(size, [(0, (250, 248, 244)), (255, (196, 192, 186))])
        canvas.paste(light_falloff(body, 90, 0.8), (0, 0), poly_mask(size, bowl))
        rim = [
            (bx + rx * math.cos(t / 20), by - ry * 1.2 + ry * math.sin(t / 20)) for t in range(126)
        ]
        canvas.paste(solid(size, (232, 228, 222)), (0, 0), poly_mask(size, rim))
        inner = [
            (bx + rx * 0.92 * math.cos(t / 20), by - ry * 1.2 + ry * 0.85 * math.sin(t / 20))
            for t in range(126)
        ]
        canvas.paste(
            vertical_gradient(size, [(0, (190, 184, 176)), (255, (244, 240, 234))]),
            (0, 0),
            poly_mask(size, inner),
        )
    # Bright arris along the polished front edge and shadow below it.
    arris = [front[0], front[1], (front[1][0], front[1][1] + 2), (front[0][0], front[0][1] + 2)]
    canvas = paint(canvas, (255, 252, 246), tone(poly_mask(size, arris), 0, 0.6))
    below = [
        (front[3][0], under_y),
        (front[2][0], under_y),
        (front[2][0], under_y + 40),
        (front[3][0], under_y + 40),
    ]
    canvas = paint(
        canvas,
        (10, 8, 6),
        tone(poly_mask(size, below).filter(ImageFilter.GaussianBlur(12)), 0, 0.5),
    )
    return vignette(canvas, 0.32)


def facade_sheet(size: Size, seed: int, panel: Size, window_every: int) -> Image.Image:
    """Flat elevation: honed stone panels on a grid with glazing strips."""
    rng = make_rng(seed)
    w, h = size
    stone = limestone(size, seed, "honed")
    sheet = solid(size, (70, 66, 60))
    glass = vertical_gradient(
        (panel[0], h), [(0, (96, 136, 176)), (160, (150, 180, 204)), (255, (82, 104, 124))]
    )
    col = 0
    x = 0
    while x < w:
        if window_every and col % window_every == window_every - 1:
            sheet.paste(glass, (x + 2, 0))
            draw = ImageDraw.Draw(sheet)
            for y in range(0, h, panel[1]):
                draw.rectangle((x, y, x + panel[0], y + 6), fill=(60, 62, 64))
        else:
            for y in range(0, h, panel[1]):
                piece = stone.crop((x, y, x + panel[0] - 3, y + panel[1] - 3))
                sheet.paste(shade(piece, rng.uniform(0.96, 1.04)), (x, y))
        x += panel[0]
        col += 1
    return sheet


def tower_cladding(size: Size, seed: int) -> Image.Image:
    """Corner of a stone-clad tower seen from street level against the sky."""
    rng = make_rng(seed)
    w = size[0]
    cam = Camera(size, focal=w * 0.55, height=1.6, tilt=-32.0, centre_y=0.5)
    canvas = sky(size, rng)
    face = facade_sheet((1200, 2400), seed + 1, (150, 240), 3)
    height = 70.0
    corner = (2.0, 14.0)
    left_end = (
        corner[0] - 26.0 * math.cos(math.radians(40)),
        corner[1] + 26.0 * math.sin(math.radians(40)),
    )
    right_end = (
        corner[0] + 22.0 * math.cos(math.radians(50)),
        corner[1] + 22.0 * math.sin(math.radians(50)),
    )

    def wall(a: tuple[float, float], b: tuple[float, float]) -> list[Point]:
        return cam.quad(
            [(a[0], height, a[1]), (b[0], height, b[1]), (b[0], 0.0, b[1]), (a[0], 0.0, a[1])]
        )

    paste_quad(canvas, face, wall(left_end, corner), 1.0)
    paste_quad(
        canvas, face.transpose(Image.Transpose.FLIP_LEFT_RIGHT), wall(corner, right_end), 0.68
    )
    # Warm sunlight on the lit face, sky light falloff towards the top.
    lit = poly_mask(size, wall(left_end, corner))
    canvas = paint(canvas, (255, 226, 180), tone(lit, 0, 0.12))
    return vignette(canvas, 0.3)


def box_faces(centre: Vec3, dims: Vec3, yaw: float) -> list[tuple[list[Vec3], Vec3]]:
    """Six faces (corner list UL, UR, LR, LL as seen from outside, normal) of a box."""
    cx, cy, cz = centre
    dx, dy, dz = dims[0] / 2, dims[1] / 2, dims[2] / 2
    c, s = math.cos(math.radians(yaw)), math.sin(math.radians(yaw))

    def world(x: float, y: float, z: float) -> Vec3:
        return (cx + x * c - z * s, cy + y, cz + x * s + z * c)

    def normal(x: float, y: float, z: float) -> Vec3:
        return (x * c - z * s, y, x * s + z * c)

    return [
        (
            [world(-dx, dy, -dz), world(dx, dy, -dz), world(dx, -dy, -dz), world(-dx, -dy, -dz)],
            normal(0, 0, -1),
        ),
        (
            [world(dx, dy, dz), world(-dx, dy, dz), world(-dx, -dy, dz), world(dx, -dy, dz)],
            normal(0, 0, 1),
        ),
        (
            [world(-dx, dy, dz), world(-dx, dy, -dz), world(-dx, -dy, -dz), world(-dx, -dy, dz)],
            normal(-1, 0, 0),
        ),
        (
            [world(dx, dy, -dz), world(dx, dy, dz), world(dx, -dy, dz), world(dx, -dy, -dz)],
            normal(1, 0, 0),
        ),
        (
            [world(-dx, dy, dz), world(dx, dy, dz), world(dx, dy, -dz), world(-dx, dy, -dz)],
            normal(0, 1, 0),
        ),
    ]


def rubble_ground(size: Size, rng: random.Random, horizon: float) -> Image.Image:
    """Quarry floor in screen space: dusty streaks and chips that grow nearer."""
    w, h = size
    dust = to_l(fbm(rng, size, (5, 24), octaves=5, gain=0.55))
    ground = gradient_map(
        dust, [(0, (184, 160, 122)), (140, (214, 194, 158)), (255, (232, 218, 190))]
    )
    chips = Image.new("L", size, 0)
    dark = Image.new("L", size, 0)
    draw, ddraw = ImageDraw.Draw(chips), ImageDraw.Draw(dark)
    for _ in range(420):
        y = horizon + (h - horizon) * rng.random() ** 0.7
        near = (y - horizon) / (h - horizon)
        x = rng.uniform(0, w)
        r = 1 + near * rng.uniform(2, 14)
        pts = [
            (x + r * math.cos(a) * rng.uniform(0.6, 1.2), y + 0.55 * r * math.sin(a))
            for a in (0.0, 1.3, 2.5, 3.6, 4.9)
        ]
        draw.polygon(pts, fill=rng.randint(60, 150))
        ddraw.polygon([(px + r * 0.3, py + r * 0.35) for px, py in pts], fill=150)
    ground = paint(ground, (120, 98, 70), dark.filter(ImageFilter.GaussianBlur(2)))
    return paint(ground, (236, 224, 198), chips)


def quarry(size: Size, seed: int) -> Image.Image:
    """Limestone quarry: stepped benches behind a group of sawn blocks."""
    rng = make_rng(seed)
    w, h = size
    cam = Camera(size, focal=w * 0.62, height=7.0, tilt=9.0, centre_y=0.42)
    canvas = sky(size, rng, 0.6)
    stone = limestone((900, 700), seed + 1, "bush")
    sawn = limestone((900, 700), seed + 2, "honed")
    # Sawn faces show faint parallel wire-saw marks.
    marks = value_noise(rng, (900, 700), (3, 140)).convert("L")
    sawn = paint(sawn, (170, 148, 112), tone(marks, -0.4, 0.3))
    horizon = cam.project((0, cam.height, 1e6))[1]
    ground = rubble_ground(size, rng, horizon)
    canvas.paste(ground.crop((0, round(horizon), w, h)), (0, round(horizon)))
    # Quarry face: three stepped benches with vertical drill lines.
    benches = [(48.0, 7.0, 0.0), (56.0, 5.0, 5.0), (64.0, 4.0, 8.5)]
    wide_face = light_falloff(stone.resize((w, h), BICUBIC), 90, 0.8)
    drills = Image.new("L", size, 0)
    draw = ImageDraw.Draw(drills)
    x = 0.0
    while x < w:
        # Drill-hole traces from splitting the benches, broken and uneven.
        y = 0.0
        while y < h:
            seg = rng.uniform(20, 120)
            if rng.random() < 0.7:
                draw.line(
                    (x, y, x + rng.uniform(-1.5, 1.5), y + seg), fill=rng.randint(30, 70), width=1
                )
            y += seg + rng.uniform(0, 30)
        x += rng.uniform(8, 18)
    beds = to_l(fbm(rng, size, (3, 40), octaves=4)).point(lut(lambda v: max(0.0, v - 0.7) * 2.0))
    wide_face = paint(wide_face, (140, 114, 80), drills)
    wide_face = paint(wide_face, (150, 124, 90), beds)
    for z, tall, base in reversed(benches):
        skyline = [
            cam.project((-70 + i * 10, base + tall + rng.uniform(-0.5, 0.5), z)) for i in range(15)
        ]
        poly = [*skyline, cam.project((70, base, z)), cam.project((-70, base, z))]
        canvas.paste(shade(wide_face, 0.78 + base * 0.028), (0, 0), poly_mask(size, poly))
        # Sunlit lip along the top of each bench.
        lip = [*skyline, *[(x, y + 4) for x, y in reversed(skyline)]]
        canvas = paint(canvas, (250, 240, 220), tone(poly_mask(size, lip), 0, 0.6))
        # Lit bench top in front of each face.
        ledge = cam.quad([(-70, base, z), (70, base, z), (70, base, z - 6), (-70, base, z - 6)])
        if base > 0:
            canvas.paste(shade(stone.resize(size, BICUBIC), 1.08), (0, 0), poly_mask(size, ledge))
        foot = cam.quad([(-70, base + 0.8, z), (70, base + 0.8, z), (70, base, z), (-70, base, z)])
        canvas = paint(
            canvas,
            (70, 56, 38),
            tone(poly_mask(size, foot).filter(ImageFilter.GaussianBlur(6)), 0, 0.55),
        )
    # Atmospheric haze toward the back of the pit.
    haze_mask = vertical_gradient(
        size, [(0, (110, 110, 110)), (120, (60, 60, 60)), (170, (0, 0, 0)), (255, (0, 0, 0))]
    )
    canvas = Image.composite(solid(size, (206, 214, 218)), canvas, haze_mask.convert("L"))
    # Sawn blocks (centre, dims, yaw), drawn far to near with contact shadows.
    blocks: list[tuple[Vec3, Vec3, float]] = [
        ((-4.2, 0.8, 17.0), (3.0, 1.6, 1.7), 28.0),
        ((-4.1, 2.35, 17.1), (2.5, 1.5, 1.6), 22.0),
        ((1.2, 0.85, 14.0), (3.2, 1.7, 1.8), 32.0),
        ((5.6, 0.75, 19.0), (2.8, 1.5, 1.6), 18.0),
        ((-0.6, 0.7, 10.5), (2.6, 1.4, 1.5), 36.0),
    ]
    blocks.sort(key=lambda b: -b[0][2])
    sun = (0.55, 0.7, -0.45)
    for centre, dims, yaw in blocks:
        if centre[1] - dims[1] / 2 < 0.1:
            footprint = box_faces(
                (centre[0] + 0.9, 0.0, centre[2] + 0.6), (dims[0] + 1.0, 0.0, dims[2] + 0.9), yaw
            )
            shadow = poly_mask(size, cam.quad(footprint[4][0])).filter(
                ImageFilter.GaussianBlur(w / 160)
            )
            canvas = paint(canvas, (72, 56, 38), tone(shadow, 0, 0.6))
        for corners, n in box_faces(centre, dims, yaw):
            mid = [sum(c[k] for c in corners) / 4 for k in range(3)]
            view = (-mid[0], cam.height - mid[1], -mid[2])
            if n[0] * view[0] + n[1] * view[1] + n[2] * view[2] <= 0:
                continue  # face points away from the camera
            light = max(0.0, n[0] * sun[0] + n[1] * sun[1] + n[2] * sun[2])
            tex = stone if n[1] > 0.5 else sawn
            ox, oy = rng.randint(0, 300), rng.randint(0, 200)
            paste_quad(
                canvas, tex.crop((ox, oy, ox + 600, oy + 480)), cam.quad(corners), 0.6 + 0.5 * light
            )
    canvas = paint(
        canvas, (255, 228, 186), tone(glow(size, (w * 0.85, 0), (w * 0.7, h * 0.6)), 0, 0.15)
    )
    return vignette(canvas, 0.3)


def samples_board(size: Size, seed: int, swatches: list[Image.Image]) -> Image.Image:
    """Flat lay of polished sample tiles on a dark slate table."""
    rng = make_rng(seed)
    w, h = size
    table = gradient_map(
        to_l(fbm(rng, size, (5, 3), octaves=6)), [(0, (34, 36, 38)), (255, (62, 64, 66))]
    )
    table = paint(
        table, (255, 240, 220), tone(glow(size, (w * 0.4, h * 0.3), (w * 0.7, h * 0.6)), 0, 0.12)
    )
    cols, rows = 3, 2
    side = round(min(w / (cols + 0.9), h / (rows + 0.7)))
    gap_x = (w - cols * side) / (cols + 1)
    gap_y = (h - rows * side) / (rows + 1)
    for i, swatch in enumerate(swatches[: cols * rows]):
        x = gap_x + (i % cols) * (side + gap_x) + rng.uniform(-10, 10)
        y = gap_y + (i // cols) * (side + gap_y) + rng.uniform(-10, 10)
        angle = rng.uniform(-6, 6)
        tile = swatch.resize((side, side), LANCZOS)
        tile = sheen(light_falloff(tile, -40, 0.85), rng, 0.28)
        bevel = ImageDraw.Draw(tile)
        bevel.line((0, 0, side, 0), fill=(255, 255, 255), width=2)
        bevel.line((0, 0, 0, side), fill=(236, 236, 236), width=2)
        alpha = Image.new("L", (side, side), 255).rotate(angle, BICUBIC, expand=True)
        tile = tile.rotate(angle, BICUBIC, expand=True)
        shadow = Image.new("L", size, 0)
        shadow.paste(alpha, (round(x + 10), round(y + 14)))
        table = paint(table, (0, 0, 0), tone(shadow.filter(ImageFilter.GaussianBlur(12)), 0, 0.6))
        table.paste(tile, (round(x), round(y)), alpha)
    return vignette(table, 0.3)


# --------------------------------------------------------------------------
# Catalogue: one module-level builder per published image (picklable, so the
# work can be spread over processes).
# --------------------------------------------------------------------------

PROJECT = (1200, 900)
SLIDE = (1600, 900)
# A 12-megapixel camera's frame: the photos staff upload as they are.
CAMERA = (4000, 3000)
CAMERA_JPEG_QUALITY = 90
OG = (1200, 630)


def abdoun_villa_facade(size: Size) -> Image.Image:
    return ashlar_wall(size, 101)


def dead_sea_resort_lobby(size: Size) -> Image.Image:
    return tiled_floor(size, 111, marble((1400, 1400), 112, CALACATTA), "lobby")


def amman_mosque_courtyard(size: Size) -> Image.Image:
    paving = travertine((1400, 1400), 121)
    wall = limestone((1200, 900), 123, "bush")
    return tiled_floor(size, 122, paving, "courtyard", (0.6, 0.6), wall)


def dubai_restaurant_bar(size: Size) -> Image.Image:
    return countertop(size, 131, lambda sz: granite(sz, 132, GRANITE_BLACK), "bar")


def riyadh_residential_tower(size: Size) -> Image.Image:
    return tower_cladding(size, 141)


def milan_kitchen_worktop(size: Size) -> Image.Image:
    return countertop(size, 151, lambda sz: marble(sz, 152, CALACATTA), "kitchen")


def athens_townhouse_staircase(size: Size) -> Image.Image:
    return staircase(size, 161, marble((1500, 1500), 162, CARRARA))


def meridiana_bookmatch(size: Size) -> Image.Image:
    return polished(marble(size, 201, EMPERADOR), 202, 0.85)


def verde_polished(size: Size) -> Image.Image:
    return polished(marble(size, 211, VERDE), 212, 0.85)


def travertine_tiles(size: Size) -> Image.Image:
    return tiles_flat(size, 221, travertine((1000, 1000), 222), (3, 3))


def red_granite_polished(size: Size) -> Image.Image:
    return polished(granite(size, 231, GRANITE_RED, 1.7), 232)


def grey_granite_polished(size: Size) -> Image.Image:
    return polished(granite(size, 241, GRANITE_GREY, 2.8), 242)


def chiselled_limestone(size: Size) -> Image.Image:
    return ashlar_wall(size, 251, window=None, course_scale=2.0)


def quarry_blocks(size: Size) -> Image.Image:
    return quarry(size, 301)


def calacatta_bookmatch(size: Size) -> Image.Image:
    return polished_slab(size, 311, CALACATTA)


def jerusalem_stone_facade(size: Size) -> Image.Image:
    return ashlar_wall(size, 321, window=None)


def carrara_lobby_floor(size: Size) -> Image.Image:
    floor = marble((1400, 1400), 332, CARRARA)
    return tiled_floor(size, 331, floor, "gallery", (1.2, 0.6), stagger=True, windows=4)


def stone_collection(size: Size) -> Image.Image:
    swatches = [
        marble((520, 520), 341, CALACATTA),
        marble((520, 520), 342, VERDE),
        granite((520, 520), 343, GRANITE_RED),
        travertine((520, 520), 344),
        limestone((520, 520), 345, "bush"),
        granite((520, 520), 346, GRANITE_BLACK),
    ]
    return samples_board(size, 347, swatches)


def og_default(size: Size) -> Image.Image:
    return polished(marble(size, 401, CALACATTA), 402, 0.85)


CATALOGUE: list[tuple[str, Size, Callable[[Size], Image.Image]]] = [
    ("projects/abdoun-villa-facade.jpg", PROJECT, abdoun_villa_facade),
    ("projects/dead-sea-resort-lobby.jpg", CAMERA, dead_sea_resort_lobby),
    ("projects/amman-mosque-courtyard.jpg", PROJECT, amman_mosque_courtyard),
    ("projects/dubai-restaurant-bar.jpg", PROJECT, dubai_restaurant_bar),
    ("projects/riyadh-residential-tower.jpg", PROJECT, riyadh_residential_tower),
    ("projects/milan-kitchen-worktop.jpg", PROJECT, milan_kitchen_worktop),
    ("projects/athens-townhouse-staircase.jpg", PROJECT, athens_townhouse_staircase),
    ("collabrations/studio-meridiana-architetti.jpg", CAMERA, meridiana_bookmatch),
    ("collabrations/pelagos-vrachos-architects.jpg", PROJECT, verde_polished),
    ("collabrations/estudio-almendro-interiorismo.jpg", PROJECT, travertine_tiles),
    ("collabrations/dune-line-contracting.jpg", PROJECT, red_granite_polished),
    ("collabrations/harbor-and-quarry-stone-supply.jpg", PROJECT, grey_granite_polished),
    ("collabrations/tilal-and-noor-interiors.jpg", PROJECT, chiselled_limestone),
    ("slider/quarry-blocks.jpg", CAMERA, quarry_blocks),
    ("slider/calacatta-bookmatch.jpg", SLIDE, calacatta_bookmatch),
    ("slider/jerusalem-stone-facade.jpg", SLIDE, jerusalem_stone_facade),
    ("slider/carrara-lobby-floor.jpg", SLIDE, carrara_lobby_floor),
    ("slider/stone-collection.jpg", SLIDE, stone_collection),
    ("og-default.jpg", OG, og_default),
]

MAX_BYTES = 180 * 1024


def save_jpeg(img: Image.Image, path: Path) -> int:
    """Write a progressive JPEG; step quality down only if over the size budget.

    Camera-sized photos are saved as a camera would: baseline, quality 90, no budget.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    if img.size == CAMERA:
        img.save(path, "JPEG", quality=CAMERA_JPEG_QUALITY)
        return CAMERA_JPEG_QUALITY
    quality = JPEG_QUALITY
    while True:
        img.save(path, "JPEG", quality=quality, progressive=True, optimize=True)
        size = path.stat().st_size
        if size <= MAX_BYTES or quality <= 66:
            return quality
        quality -= 4


def render(index: int) -> tuple[str, int, int, float]:
    """Build and save one catalogue entry (runs in a worker process)."""
    start = time.perf_counter()
    rel, size, build = CATALOGUE[index]
    img = build(size).convert("RGB")
    assert img.size == size, (rel, img.size)
    if size == CAMERA:
        img = camera_noise(img, zlib.crc32(rel.encode()))
    path = IMAGES / rel
    quality = save_jpeg(img, path)
    return rel, path.stat().st_size, quality, time.perf_counter() - start


def main(argv: list[str]) -> int:
    # Optional arguments filter the catalogue by substring (handy while tuning).
    wanted = [
        i for i, (rel, _, _) in enumerate(CATALOGUE) if not argv or any(a in rel for a in argv)
    ]
    start = time.perf_counter()
    workers = max(1, min(2, os.cpu_count() or 1))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(render, wanted))
    total = 0
    for rel, nbytes, quality, seconds in results:
        total += nbytes
        print(f"{rel:52s} {nbytes / 1024:7.1f} KB  q{quality}  {seconds:5.1f}s")
    print(f"{len(results)} images, {total / 1024:.0f} KB, {time.perf_counter() - start:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
