"""Generate the sample stone photographs shipped in the local content store.

Everything is synthesised from fixed seeds with Pillow and the standard library
only, so the images are ours, reproducible and free of third-party rights.
Heavy lifting stays inside Pillow's C code (resize, blend, point look-up
tables, mesh transforms); Python loops only touch small control grids.

Run:  uv run python scripts/generate_sample_images.py
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    lo, hi = img.getextrema()
    span = float(hi) - float(lo) or 1.0
    return fmath(lambda d: (d["a"] - float(lo)) / span, a=img)


def to_l(img: Image.Image) -> Image.Image:
    """Float 0..1 field to an 8-bit mask (clipped)."""
    return fmath(lambda d: d["a"] * 255.0, a=img).convert("L")


def value_noise(rng: random.Random, size: Size, cells: tuple[int, int]) -> Image.Image:
    """One octave of value noise (float 0..255): random lattice, bicubic upscaled.

    Float images avoid the 8-bit terracing that shows up as hatching once the
    field is contoured into thin veins.
    """
    cw, ch = max(2, cells[0]), max(2, cells[1])
    lattice = Image.frombytes("L", (cw + 2, ch + 2), rng.randbytes((cw + 2) * (ch + 2)))
    # Oversize then crop so the clamped lattice border never shows.
    big = lattice.convert("F").resize(
        (size[0] * (cw + 2) // cw, size[1] * (ch + 2) // ch), BICUBIC
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
        acc = fmath(lambda d, k=amp: d["a"] + d["b"] * k, a=acc, b=layer)
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
    acc: Image.Image | None = None
    amp = 1.0
    for i in range(octaves):
        scale = 2.0**i
        layer = value_noise(rng, size, (round(cells[0] * scale), round(cells[1] * scale)))
        if acc is None:
            acc = fmath(lambda d, k=amp: abs(d["b"] - 127.5) * k, b=layer)
        else:
            acc = fmath(lambda d, k=amp: d["a"] + abs(d["b"] - 127.5) * k, a=acc, b=layer)
        amp *= gain
    assert acc is not None
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
    return mirror_pad(img, pad).transform((w, h), Image.Transform.MESH, mesh, BICUBIC)


def ridge(field: Image.Image, level: float, width: float) -> Image.Image:
    """8-bit mask of a soft line where the float field crosses `level`."""

    def expr(d: dict[str, Any]) -> Any:
        t = d["max"](1.0 - abs(d["a"] - level) / width, 0.0)
        return t * t * (3.0 - 2.0 * t) * 255.0

    return fmath(expr, a=field).convert("L")


def bands(
    field: Image.Image, level: float, width: float, thickness: Image.Image | None = None
) -> Image.Image:
    """Like ridge() but repeating every 1.0 of the field (parallel veins).

    `thickness` (float, ~0..2) modulates the line width along its run.
    """
    if thickness is None:
        thickness = Image.new("F", field.size, 1.0)

    def expr(d: dict[str, Any]) -> Any:
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
        for (p0, c0), (p1, c1) in zip(stops, stops[1:], strict=False):
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
    field = fmath(
        lambda d: d["r"] * periods + d["n"] * turbulence, r=ramp(big, angle), n=noise
    )
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
    fine_lines = ImageChops.multiply(bands(fine, 0.5, 0.012, thickness), presence)
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


def speckles(rng: random.Random, size: Size, grain_px: float, coverage: float) -> Image.Image:
    """Irregular mineral grains: two octaves of fine noise, thresholded."""
    w, h = size
    cells = (max(2, round(w / grain_px)), max(2, round(h / grain_px)))
    coarse = value_noise(rng, size, cells)
    fine = value_noise(rng, size, (cells[0] * 2, cells[1] * 2))
    field = fmath(lambda d: d["a"] * 0.7 + d["b"] * 0.3, a=coarse, b=fine)
    return threshold(field, coverage, softness=28.0)


@dataclass(frozen=True)
class GraniteStyle:
    ground: list[tuple[int, RGB]]  # matrix colour range (mottled)
    minerals: list[tuple[RGB, float, float]]  # (colour, grain size px, coverage)


GRANITE_GREY = GraniteStyle(
    ground=[(0, (150, 150, 152)), (255, (196, 196, 198))],
    minerals=[
        ((236, 236, 234), 11.0, 0.30),  # feldspar
        ((118, 120, 124), 9.0, 0.22),  # smoky quartz
        ((34, 34, 36), 5.0, 0.13),  # biotite
        ((14, 14, 16), 2.5, 0.04),
    ],
)
GRANITE_BLACK = GraniteStyle(
    ground=[(0, (26, 26, 28)), (255, (44, 44, 46))],
    minerals=[
        ((74, 76, 80), 9.0, 0.24),
        ((112, 114, 118), 5.0, 0.06),
        ((12, 12, 14), 6.0, 0.25),
        ((170, 172, 176), 2.2, 0.012),
    ],
)
GRANITE_RED = GraniteStyle(
    ground=[(0, (138, 52, 44)), (255, (178, 84, 70))],
    minerals=[
        ((112, 38, 32), 16.0, 0.32),  # deep red feldspar
        ((146, 138, 136), 10.0, 0.16),  # quartz
        ((200, 124, 106), 8.0, 0.10),  # pink feldspar
        ((26, 20, 20), 5.0, 0.13),  # mica
    ],
)


def granite(size: Size, seed: int, style: GraniteStyle) -> Image.Image:
    rng = make_rng(seed)
    w, h = size
    # Gentle large-scale shade variation so the slab is not perfectly uniform.
    mottle = to_l(fbm(rng, size, (6, max(2, round(6 * h / w))), octaves=4))
    stone = gradient_map(mottle, style.ground)
    for colour, grain_px, coverage in style.minerals:
        mask = speckles(rng, size, grain_px, coverage)
        # Each mineral varies slightly in tone, like real crystals.
        shade = tone(to_l(fbm(rng, size, (w // 30, h // 30), octaves=2)), 0.8, 1.0)
        layer = ImageChops.multiply(solid(size, colour), Image.merge("RGB", (shade,) * 3))
        stone = Image.composite(layer, stone, mask)
    return stone.filter(ImageFilter.GaussianBlur(0.45))


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
        [(0, (196, 168, 128)), (90, (216, 192, 152)), (170, (230, 212, 178)), (255, (238, 224, 196))],
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
        [(0, (212, 192, 156)), (110, (226, 210, 178)), (190, (234, 222, 196)), (255, (242, 234, 214))],
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
        draw.ellipse((x - r, y - r * rng.uniform(0.5, 1.0), x + r, y + r), fill=rng.randint(90, 230))
    stone = paint(stone, (150, 120, 84), specks.filter(ImageFilter.GaussianBlur(0.5)))
    shells = Image.new("L", size, 0)
    draw = ImageDraw.Draw(shells)
    for _ in range(w * h // 40000):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(3, 8)
        start = rng.uniform(0, 360)
        draw.arc((x - r, y - r, x + r, y + r), start, start + rng.uniform(120, 220), fill=200, width=2)
    stone = paint(stone, (246, 236, 214), shells.filter(ImageFilter.GaussianBlur(0.6)))

    # Surface relief, lit from the upper left by embossing a height map.
    if finish == "bush":
        height = grain(rng, size).filter(ImageFilter.GaussianBlur(1.3))
        height = ImageOps.autocontrast(height, cutoff=1)
        amount = 0.55
    elif finish == "chisel":
        # Short parallel tool marks, slanted as a mason's chisel leaves them.
        d = math.ceil(math.hypot(w, h)) + 4
        strokes = value_noise(rng, (d, d), (d // 5, d // 22)).convert("L")
        strokes = strokes.rotate(-20, BICUBIC)
        ox, oy = (d - w) // 2, (d - h) // 2
        strokes = strokes.crop((ox, oy, ox + w, oy + h))
        pits = grain(rng, size).filter(ImageFilter.GaussianBlur(1.0))
        height = ImageOps.autocontrast(Image.blend(strokes, pits, 0.3), cutoff=1)
        amount = 0.8
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
    m = [row[:] + [rhs[i]] for i, row in enumerate(matrix)]
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
    light = to_l(fmath(lambda d: d["max"](0.0, 1.0 - abs(d["a"] - centre) * 3.0) ** 2, a=band))
    windows = Image.new("L", (w // 4, h // 4), 0)
    draw = ImageDraw.Draw(windows)
    x = rng.uniform(0.1, 0.5) * w / 4
    for _ in range(3):
        pw = rng.uniform(0.06, 0.1) * w / 4
        draw.polygon(
            [(x, 0), (x + pw, 0), (x + pw - h / 10, h / 4), (x - h / 10, h / 4)], fill=150
        )
        x += pw * 1.25
    windows = windows.filter(ImageFilter.GaussianBlur(w / 160)).resize(img.size, BICUBIC)
    light = ImageChops.lighter(tone(light, 0, 0.8), windows)
    return paint(img, (255, 252, 246), tone(light, 0.0, strength))


# --------------------------------------------------------------------------
# Compositions
# --------------------------------------------------------------------------


def polished_slab(size: Size, seed: int, style: MarbleStyle) -> Image.Image:
    """Bookmatched slab pair: one texture mirrored about the seam, then polished."""
    w, h = size
    half = marble((w // 2 + 1, h), seed, style)
    slab = Image.new("RGB", size)
    slab.paste(half.crop((0, 0, w // 2, h)), (0, 0))
    slab.paste(half.transpose(Image.Transpose.FLIP_LEFT_RIGHT).crop((1, 0, w - w // 2 + 1, h)), (w // 2, 0))
    return vignette(sheen(slab, make_rng(seed + 1)), 0.22)


def polished(texture: Image.Image, seed: int) -> Image.Image:
    return vignette(sheen(texture, make_rng(seed), 0.3), 0.25)


def tile_sheet(
    texture: Image.Image,
    rng: random.Random,
    grid: tuple[int, int],
    tile: Size,
    joint: int,
    grout: RGB,
) -> Image.Image:
    """Lay tiles cut from one stone texture (random crops, turns and tone)."""
    cols, rows = grid
    sheet = Image.new("RGB", (cols * tile[0], rows * tile[1]), grout)
    tw, th = texture.size
    for r in range(rows):
        for c in range(cols):
            turn = rng.choice((0, 180)) if tile[0] != tile[1] else rng.choice((0, 90, 180, 270))
            piece_w, piece_h = (tile[1], tile[0]) if turn in (90, 270) else tile
            x = rng.randint(0, max(0, tw - piece_w))
            y = rng.randint(0, max(0, th - piece_h))
            piece = texture.crop((x, y, x + piece_w, y + piece_h)).rotate(turn, expand=True)
            # No two tiles of natural stone match exactly in tone.
            piece = shade(piece, rng.uniform(0.95, 1.04))
            inner = piece.crop((joint // 2, joint // 2, tile[0] - joint + joint // 2, tile[1] - joint + joint // 2))
            sheet.paste(inner, (c * tile[0] + joint // 2, r * tile[1] + joint // 2))
    return sheet


def tiles_flat(size: Size, seed: int, texture: Image.Image, grid: tuple[int, int]) -> Image.Image:
    """Tiles seen from straight above, with grout lines and soft light."""
    rng = make_rng(seed)
    w, h = size
    tile = (math.ceil(w / grid[0]) , math.ceil(h / grid[1]))
    sheet = tile_sheet(texture, rng, grid, tile, max(4, w // 200), (150, 140, 126))
    sheet = sheet.crop((0, 0, w, h))
    return vignette(paint(sheet, (255, 250, 240), tone(glow(size, (w * 0.3, h * 0.2), (w * 0.6, h * 0.5)), 0, 0.18)), 0.3)


def tiled_floor(
    size: Size,
    seed: int,
    texture: Image.Image,
    backdrop: Image.Image,
    grid: tuple[int, int] = (10, 12),
    polish: float = 0.35,
) -> Image.Image:
    """Floor of tiles in one-point perspective, seen from eye height."""
    rng = make_rng(seed)
    w, h = size
    ss = 2  # supersample: far-away grout lines alias badly otherwise
    big = (w * ss, h * ss)
    tile = (300, 300)
    sheet = tile_sheet(texture, rng, grid, tile, 4, (140, 130, 118))
    sw, sh = sheet.size
    cam = Camera(big, focal=big[0] * 0.62, height=1.6, tilt=14.0)
    # World: tiles are 0.6 m, the sheet starts 1 m in front of the camera.
    wide, deep = grid[0] * 0.6, grid[1] * 0.6
    far, near = 1.0 + deep, 1.0
    quad = cam.quad([(-wide / 2, 0, far), (wide / 2, 0, far), (wide / 2, 0, near), (-wide / 2, 0, near)])
    canvas = backdrop.resize(big, BICUBIC)
    floor = sheet.transform(
        big,
        Image.Transform.PERSPECTIVE,
        homography(quad, [(0, 0), (sw, 0), (sw, sh), (0, sh)]),
        BICUBIC,
    )
    mask = poly_mask(big, quad, ss=2)
    # Distance haze and reflected window light on the polished surface.
    horizon_y = min(y for _, y in quad)
    fade = vertical_gradient(big, [(0, (255, 255, 255)), (255, (0, 0, 0))])
    fade = fade.convert("L").point(lut(lambda v: max(0.0, 1.0 - v * 2.2)))
    del horizon_y
    floor = Image.composite(backdrop.resize(big, BICUBIC), floor, tone(fade, 0, 0.5))
    reflection = glow(big, (big[0] * 0.55, big[1] * 0.62), (big[0] * 0.22, big[1] * 0.3))
    floor = paint(floor, (255, 250, 238), tone(reflection, 0, polish))
    canvas.paste(floor, (0, 0), mask)
    return vignette(canvas.resize(size, LANCZOS), 0.3)


def wall_backdrop(size: Size, base: RGB, light: RGB) -> Image.Image:
    """Plain plastered wall with a soft pool of light."""
    w, h = size
    wall = solid(size, base)
    return paint(wall, light, tone(glow(size, (w * 0.5, h * 0.15), (w * 0.45, h * 0.35)), 0, 0.8))


def staircase(size: Size, seed: int, texture: Image.Image) -> Image.Image:
    """Straight flight of marble steps between plastered walls, seen from the foot."""
    rng = make_rng(seed)
    w, h = size
    cam = Camera(size, focal=w * 0.55, height=1.45, tilt=-6.0, centre_y=0.55)
    canvas = vertical_gradient(size, [(0, (226, 222, 214)), (255, (196, 190, 180))])
    riser, depth, half = 0.165, 0.3, 0.8
    start = 1.6
    tw, th = texture.size
    steps = 14
    for i in reversed(range(steps)):
        z0 = start + i * depth
        y0, y1 = i * riser, (i + 1) * riser
        crop_y = rng.randint(0, th - 120)
        crop_x = rng.randint(0, tw - 900)
        strip = texture.crop((crop_x, crop_y, crop_x + 900, crop_y + 120))
        # Tread (lit from above), then riser (in its own shadow) and its nosing.
        tread = cam.quad([(-half, y1, z0 + depth), (half, y1, z0 + depth), (half, y1, z0), (-half, y1, z0)])
        if tread[2][1] > tread[1][1] + 0.5:
            paste_quad(canvas, strip, tread, 1.02 - i * 0.012)
        face = cam.quad([(-half, y1, z0), (half, y1, z0), (half, y0, z0), (-half, y0, z0)])
        paste_quad(canvas, strip.transpose(Image.Transpose.FLIP_TOP_BOTTOM), face, 0.8 - i * 0.01)
        top = face[0][1]
        nosing = [(face[0][0], top), (face[1][0], top), (face[1][0], top + 2.5), (face[0][0], top + 2.5)]
        canvas.paste(solid(size, (250, 248, 244)), (0, 0), tone(poly_mask(size, nosing), 0, 0.6))
        under = [(face[0][0], top + 2), (face[1][0], top + 2), (face[1][0], top + 10), (face[0][0], top + 10)]
        canvas.paste(solid(size, (60, 56, 52)), (0, 0), tone(poly_mask(size, under).filter(ImageFilter.GaussianBlur(3)), 0, 0.35))
    # Side walls: planes at x = +-half rising from the floor.
    far_z = start + steps * depth
    for sign in (-1.0, 1.0):
        quad = cam.quad([(sign * half, 6.0, start - 1.2), (sign * half, 6.0, far_z), (sign * half, -0.5, far_z), (sign * half, -0.5, start - 1.2)])
        wall = vertical_gradient((200, 200), [(0, (236, 232, 224)), (255, (214, 208, 198))])
        paste_quad(canvas, wall, quad, 0.92 if sign > 0 else 0.99)
    light = glow(size, (w * 0.45, h * 0.2), (w * 0.5, h * 0.45))
    canvas = paint(canvas, (255, 248, 232), tone(light, 0, 0.18))
    return vignette(canvas, 0.35)


def preview() -> None:
    out = Path("/tmp/stone_preview")
    out.mkdir(exist_ok=True)
    t = time.perf_counter()
    marble((1200, 900), 11, CALACATTA).save(out / "calacatta.png")
    marble((1200, 900), 12, CARRARA).save(out / "carrara.png")
    marble((1200, 900), 13, VERDE).save(out / "verde.png")
    granite((1200, 900), 21, GRANITE_GREY).save(out / "granite_grey.png")
    granite((1200, 900), 22, GRANITE_BLACK).save(out / "granite_black.png")
    granite((1200, 900), 23, GRANITE_RED).save(out / "granite_red.png")
    travertine((1200, 900), 31).save(out / "travertine.png")
    if False:
        limestone((1200, 900), 41, "bush").save(out / "lime_bush.png")
    limestone((1200, 900), 42, "chisel").save(out / "lime_chisel.png")
    size = (1200, 900)
    polished_slab(size, 51, CALACATTA).save(out / "slab.png")
    carrara = marble((1500, 1500), 52, CARRARA)
    tiled_floor(size, 53, carrara, wall_backdrop(size, (214, 206, 194), (248, 240, 226))).save(out / "floor.png")
    staircase(size, 54, carrara).save(out / "stairs.png")
    print(f"{time.perf_counter() - t:.2f}s")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "preview":
        preview()
