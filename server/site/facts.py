"""ui/site.json, the facts the server and the browser share (esbuild bundles it into
the UI), and the theme colours of ui/styles/palette.css."""

from __future__ import annotations

import json
import re
from enum import Enum
from typing import Any

from server.settings import REPO_ROOT

SITE_FILE = REPO_ROOT / "ui" / "site.json"
PALETTE_FILE = REPO_ROOT / "ui" / "styles" / "palette.css"

# Its shape is the file's own (esbuild types it for the UI from the file itself).
SITE: dict[str, Any] = json.loads(SITE_FILE.read_text(encoding="utf-8"))

_PALETTE = dict(re.findall(r"(--[\w-]+):\s*(#[0-9a-fA-F]{3,6})", PALETTE_FILE.read_text()))
# The toolbar and the icon take the header's colour; the manifest the page's.
THEME = {"colour": _PALETTE["--stone-950"], "background": _PALETTE["--stone-50"]}


class Collection(Enum):
    """A Firestore collection, by the name the page uses (ui/site.json has the rest)."""

    PROJECTS = "projects"
    COLLABRATIONS = "collabrations"
    SLIDER = "slider"
    STONES = "stones"

    @property
    def page_key(self) -> str:
        return self.value

    @property
    def firestore_name(self) -> str:
        return str(SITE["collections"][self.value]["firestore"])
