"""Install what the sections need, as ./dev does: Debian packages, npm packages, the build."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from contextlib import redirect_stdout
from pathlib import Path

import build
from bench.section import progress
from server.settings import REPO_ROOT

# Debian's libnginx-mod-http-brotli-static puts the module here.
BROTLI_STATIC_MODULE = Path("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so")
# What the sections need from Debian: commands, from the package of the same name, and this.
BROTLI_STATIC = "libnginx-mod-http-brotli-static"
# Lighthouse has a package folder of its own: the site's build never installs it.
LIGHTHOUSE_PACKAGE = REPO_ROOT / "tools" / "lighthouse"
LIGHTHOUSE = LIGHTHOUSE_PACKAGE / "node_modules" / ".bin" / "lighthouse"


def command_path(command: str) -> str | None:
    # nginx lives in /usr/sbin, which a non-root PATH may lack.
    return shutil.which(command, path=f"{os.environ.get('PATH', '')}:/usr/sbin:/sbin")


def ensure_debian_commands(names: Iterable[str]) -> None:
    """Install the Debian packages of the commands (or BROTLI_STATIC) that are missing."""
    missing = sorted(
        name
        for name in set(names)
        if not (BROTLI_STATIC_MODULE.exists() if name == BROTLI_STATIC else command_path(name))
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
    if not LIGHTHOUSE.exists():
        progress("Lighthouse (tools/lighthouse: npm ci)")
        npm_ci = ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"]
        subprocess.run(npm_ci, cwd=LIGHTHOUSE_PACKAGE, check=True)  # noqa: S603 - fixed argv


def build_bundles() -> None:
    # Always rebuild: the figures must describe the code in the working tree,
    # not whatever bundles an earlier checkout left behind.
    progress("Building the bundles (build.py)")
    with redirect_stdout(sys.stderr):  # stdout holds only the tables
        build.build()
