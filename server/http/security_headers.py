"""Security headers on every response: pages, assets, errors, redirects; and the one builder of a
Content-Security-Policy, the site's here and the studio's (server/studio/templating.py)."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable, Mapping

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

VIDEO_ORIGIN = "https://www.youtube-nocookie.com"


class SecurityHeaders:
    def __init__(
        self,
        app: ASGIApp,
        *,
        image_hosts: Iterable[str],
        inline_style: str,
        inline_script: str,
    ) -> None:
        self.app = app
        csp = {
            "default-src": "'self'",
            # The page's one inline script (the boot) and one inline stylesheet are
            # allowed by their hashes, nothing else inline; no eval'd script (the
            # inlined page data is JSON, not script).
            "script-src": f"'self' {_csp_hash(inline_script)}",
            "style-src": f"'self' {_csp_hash(inline_style)}",
            # The slider positions slides with style attributes in the server's markup.
            "style-src-attr": "'unsafe-inline'",
            "img-src": "'self'",
            "font-src": "'self'",
            "connect-src": "'self'",
            "frame-src": VIDEO_ORIGIN,
            "frame-ancestors": "'none'",
            "object-src": "'none'",
            "base-uri": "'self'",
            "form-action": "'self'",
        }
        self._headers = {
            "Content-Security-Policy": content_security_policy(csp, image_hosts),
            "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "strict-origin-when-cross-origin",
            "Permissions-Policy": (
                f'autoplay=(self "{VIDEO_ORIGIN}"), camera=(), microphone=(), '
                "geolocation=(), payment=(), usb=(), interest-cohort=()"
            ),
            "Cross-Origin-Opener-Policy": "same-origin",
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in self._headers.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def content_security_policy(directives: Mapping[str, str], image_hosts: Iterable[str]) -> str:
    """The header's value: the directives in order, `img-src` with the content photos' hosts."""
    images = " ".join(f"https://{host}" for host in image_hosts)
    with_images = {**directives, "img-src": f"{directives['img-src']} {images}".strip()}
    return "; ".join(f"{name} {value}" for name, value in with_images.items())


def _csp_hash(text: str) -> str:
    """The CSP source ('sha256-...') that allows exactly this inline text."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"
