"""Debian's Chromium as this project runs it: the tests' headless shell, and the full browser
for the scripts and the benchmark."""

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

# The browser tests': Chromium's headless shell (Debian's chromium-headless-shell), the same
# engine without the desktop browser around it, which is what Playwright's own headless Chromium
# is; a page costs it under half the CPU (docs/development.md). One thing it decides otherwise:
# with no network-quality estimate, it starts lazy images from further down the page than
# Chrome on 4G, so the test of that distance runs in the full browser.
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
