"""Install what the sections need, as ./dev does: Debian packages, npm packages, the build."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

from bench.context import REPO_ROOT, progress

# Commands from Debian, by the package that ships them.
DEBIAN_PACKAGES = {"wrk": "wrk", "nginx": "nginx", "chromium": "chromium", "openssl": "openssl"}
# Debian's libnginx-mod-http-brotli-static puts the module here.
BROTLI_STATIC_MODULE = Path("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so")
# Files (not commands) from Debian packages, by a name the sections use: nginx's modules.
DEBIAN_FILES = {"nginx-brotli-static": (BROTLI_STATIC_MODULE, "libnginx-mod-http-brotli-static")}
# nginx lives in /usr/sbin, which a non-root PATH may lack.
_EXTRA_PATHS = ("/usr/sbin", "/sbin")
# Lighthouse has a package folder of its own: the site's build never installs it.
LIGHTHOUSE_PACKAGE = REPO_ROOT / "tools" / "lighthouse"
LIGHTHOUSE = LIGHTHOUSE_PACKAGE / "node_modules" / ".bin" / "lighthouse"


def command_path(command: str) -> str | None:
    found = shutil.which(command)
    if found is not None:
        return found
    for folder in _EXTRA_PATHS:
        candidate = Path(folder) / command
        if candidate.exists():
            return str(candidate)
    return None


def ensure_debian_commands(commands: Iterable[str]) -> None:
    """Install the packages of the commands (or DEBIAN_FILES names) that are missing."""
    missing = sorted(
        {
            DEBIAN_FILES[name][1] if name in DEBIAN_FILES else DEBIAN_PACKAGES[name]
            for name in commands
            if (
                not DEBIAN_FILES[name][0].exists()
                if name in DEBIAN_FILES
                else command_path(name) is None
            )
        }
    )
    if not missing:
        return
    progress(f"Installing Debian packages: {' '.join(missing)}")
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run([*sudo, "apt-get", "update", "-qq"], check=True, env=env)  # noqa: S603
    subprocess.run(  # noqa: S603 - fixed argv
        [*sudo, "apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing],
        check=True,
        env=env,
        stdout=subprocess.DEVNULL,
    )


def ensure_lighthouse() -> None:
    if LIGHTHOUSE.exists():
        return
    progress("Lighthouse (tools/lighthouse: npm ci)")
    subprocess.run(
        ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],  # noqa: S607
        cwd=LIGHTHOUSE_PACKAGE,
        check=True,
    )


def build_bundles() -> None:
    # Always rebuild: the figures must describe the code in the working tree,
    # not whatever bundles an earlier checkout left behind.
    progress("Building the bundles (build.py)")
    subprocess.run(  # noqa: S603 - our own build script
        [sys.executable, str(REPO_ROOT / "build.py")],
        cwd=REPO_ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )
