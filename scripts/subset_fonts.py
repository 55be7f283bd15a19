"""Cut the Arabic fonts down to the letters Arabic text uses.

Fontsource's "arabic" files carry every Arabic-script letter (Persian, Urdu,
Quranic marks, presentation forms) and every ligature: Amiri bold is 100 KB,
Noto Sans Arabic 49 KB, all on an Arabic page's first load. The site's text is
Arabic proper: the 28 letters with hamza forms, taa marbuta and alef maqsura,
the short-vowel marks, Arabic-Indic digits and Arabic punctuation. Cut to
those, with the shaping features Arabic needs (joining forms, required
ligatures, mark placement), the two come to under 50 KB. A character outside
the cut (a Persian letter in some content) is drawn by the system's Arabic
font instead.

Run (fonttools is needed here only, not by the site or its build):
    uv run --with fonttools python scripts/subset_fonts.py
Output: ui/assets/fonts/*.woff2, committed; ui/styles/fonts-ar.css names them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FONTSOURCE = ROOT / "node_modules" / "@fontsource"
OUT = ROOT / "ui" / "assets" / "fonts"
CATALOGUE = ROOT / "ui" / "i18n" / "ar.json"

FONTS = {
    "amiri-arabic-700.woff2": FONTSOURCE / "amiri/files/amiri-arabic-700-normal.woff2",
    "noto-sans-arabic-400.woff2": FONTSOURCE
    / "noto-sans-arabic/files/noto-sans-arabic-arabic-400-normal.woff2",
}
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


def catalogue_characters() -> set[str]:
    """Every Arabic character of the fixed text, which the cut must cover."""
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            found.update(c for c in value if "\u0600" <= c <= "\u06ff")
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(json.loads(CATALOGUE.read_text(encoding="utf-8")))
    return found


def covered(character: str) -> bool:
    code = ord(character)
    for part in UNICODES.split(","):
        first, _, last = part.removeprefix("U+").partition("-")
        if int(first, 16) <= code <= int(last or first, 16):
            return True
    return False


def main() -> int:
    missing = sorted(c for c in catalogue_characters() if not covered(c))
    if missing:
        print(f"subset_fonts.py: the catalogue uses {missing!r}: add them to UNICODES")
        return 1
    OUT.mkdir(exist_ok=True)
    for name, source in FONTS.items():
        subprocess.run(  # noqa: S603 - our own arguments
            [
                sys.executable,
                "-m",
                "fontTools.subset",
                str(source),
                f"--unicodes={UNICODES}",
                f"--layout-features={FEATURES}",
                "--flavor=woff2",
                f"--output-file={OUT / name}",
            ],
            check=True,
        )
        print(f"{(OUT / name).relative_to(ROOT)}: {(OUT / name).stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
