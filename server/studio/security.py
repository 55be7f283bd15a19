"""The studio's own headers: its CSP, no indexing, no caching. The public pages' stay as they are.

The security-headers middleware only adds a header a response does not
already carry, so these win on the studio's responses alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from ipaddress import ip_address

from starlette.requests import Request


def studio_csp(image_hosts: tuple[str, ...], scripts: Mapping[str, str] | None = None) -> str:
    """`scripts`: the directives of a page that runs one (the Google sign-in, the form's
    photo check), each the studio's own file."""
    images = " ".join(f"https://{host}" for host in image_hosts)
    directives = {
        # No script elsewhere: the studio is plain forms, working without any.
        "default-src": "'none'",
        **(scripts or {}),
        "style-src": "'self'",
        "img-src": f"'self' data: {images}".strip(),
        "form-action": "'self'",
        "frame-ancestors": "'none'",
        "base-uri": "'none'",
    }
    return "; ".join(f"{name} {value}" for name, value in directives.items())


def studio_headers(
    image_hosts: tuple[str, ...], scripts: Mapping[str, str] | None = None
) -> dict[str, str]:
    headers = {
        "Content-Security-Policy": studio_csp(image_hosts, scripts),
        "X-Robots-Tag": "noindex, nofollow",
        "Cache-Control": "no-store",
        "Referrer-Policy": "same-origin",
    }
    if scripts and "frame-src" in scripts:
        # The Google sign-in popup reports back to this page through window.opener.
        headers["Cross-Origin-Opener-Policy"] = "same-origin-allow-popups"
    return headers


LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})
RELAY_HEADERS = ("forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip")


def is_loopback(request: Request) -> bool:
    """Both ends on this computer: the client's address, and the Host it asked for.

    The Host check keeps a web page elsewhere from reaching a developer's
    studio through a DNS name it points at 127.0.0.1 (DNS rebinding).
    """
    # Anything relayed (a proxy on this computer) is not a local visitor.
    if any(name in request.headers for name in RELAY_HEADERS):
        return False
    client = request.client.host if request.client else ""
    try:
        local_client = ip_address(client).is_loopback
    except ValueError:
        local_client = False
    host = request.headers.get("host", "").lower()
    hostname = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    return local_client and hostname in LOOPBACK_HOSTS
