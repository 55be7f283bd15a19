"""Debian's Chromium as this project runs it: tests, scripts and the benchmark."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
# As root (CI runs as root) and offline: without the background-networking
# flags Chromium keeps trying to reach Google's hosts on a closed network.
CHROMIUM_ARGS: tuple[str, ...] = (
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
)
