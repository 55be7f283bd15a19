"""The browser tab's icon, as a data: URL every page carries in its head.

A linked icon is one more request, which Chromium starts as the page finishes
loading, just as the site's code starts to download.
Inline, the 32 px, 16-colour PNG is under 400 bytes, about 530 as base64.
"""

from __future__ import annotations

import base64
from functools import cache
from pathlib import Path

TAB_ICON = Path(__file__).resolve().parent.parent / "static" / "tab-icon.png"


@cache
def tab_icon_url() -> str:
    """scripts/generate_icons.py draws the PNG; CSP's img-src allows data: for it."""
    encoded = base64.b64encode(TAB_ICON.read_bytes()).decode("ascii")
    return f"data:image/png;base64,{encoded}"
