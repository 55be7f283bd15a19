"""Cut the site's fonts down to the letters its text uses (what each cut keeps, and why:
docs/architecture.md): the Latin heading face to Fontsource's "latin" range, the Arabic
faces to Arabic proper (a character outside it is drawn by the system's Arabic font).

Run (fonttools is needed here only, not by the site or its build):
    uv run --with fonttools python scripts/subset_fonts.py
Output: ui/assets/fonts/*.woff2, committed; ui/styles/fonts-*.css name them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from fontTools import subset as fonttools_subset

ROOT = Path(__file__).resolve().parent.parent
FONTSOURCE = ROOT / "node_modules" / "@fontsource"
OUT = ROOT / "ui" / "assets" / "fonts"
CATALOGUE = ROOT / "ui" / "i18n" / "ar.json"

ARABIC_FONTS = {
    "amiri-arabic-700.woff2": FONTSOURCE / "amiri/files/amiri-arabic-700-normal.woff2",
    "noto-sans-arabic-400.woff2": FONTSOURCE
    / "noto-sans-arabic/files/noto-sans-arabic-arabic-400-normal.woff2",
}
LATIN_FONTS = {
    "cormorant-garamond-latin-600.woff2": FONTSOURCE
    / "cormorant-garamond/files/cormorant-garamond-latin-600-normal.woff2",
}
# Fontsource's "latin" unicode-range, which ui/styles/site.css repeats.
LATIN_UNICODES = (
    "U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,"
    "U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD"
)
LATIN_FEATURES = "kern,liga"
# Arabic punctuation (comma, semicolon, question mark), the letters
# (hamza to ghain, tatweel, faa to yaa), the harakat, Arabic-Indic digits,
# and the joiners and direction marks; also the space and the Latin
# punctuation Arabic text borrows.
UNICODES = (
    "U+060C,U+061B,U+061F,U+0621-063A,U+0640-0652,U+0660-0669,"
    "U+200C-200F,U+0020-0021,U+0028-0029,U+002C-002E,U+003A,U+00A0"
)
# What Arabic shaping needs: joining forms, required and contextual
# ligatures, composition, mark positioning, cursive attachment, kerning.
FEATURES = "init,medi,fina,isol,rlig,liga,calt,ccmp,mark,mkmk,curs,kern"


def subset(source: Path, name: str, *, unicodes: str, features: str, hinting: bool = True) -> None:
    argv = [str(source), f"--unicodes={unicodes}", f"--layout-features={features}"]
    argv += ["--flavor=woff2", f"--output-file={OUT / name}"]
    # Hinting sharpens outlines at small sizes; headings are large.
    fonttools_subset.main([*argv, *([] if hinting else ["--no-hinting"])])
    print(f"{(OUT / name).relative_to(ROOT)}: {(OUT / name).stat().st_size:,} bytes")


def main() -> int:
    # Every Arabic character of the fixed text, which the cut must cover.
    text = json.dumps(json.loads(CATALOGUE.read_text(encoding="utf-8")), ensure_ascii=False)
    covered = set(map(chr, fonttools_subset.parse_unicodes(UNICODES)))
    missing = sorted({c for c in text if "\u0600" <= c <= "\u06ff"} - covered)
    if missing:
        print(f"subset_fonts.py: the catalogue uses {missing!r}: add them to UNICODES")
        return 1
    OUT.mkdir(exist_ok=True)
    for name, source in ARABIC_FONTS.items():
        subset(source, name, unicodes=UNICODES, features=FEATURES)
    for name, source in LATIN_FONTS.items():
        subset(source, name, unicodes=LATIN_UNICODES, features=LATIN_FEATURES, hinting=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
