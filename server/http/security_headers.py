"""Security headers on every response: pages, assets, errors, redirects."""

from __future__ import annotations

from collections.abc import Iterable

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

VIDEO_ORIGIN = "https://www.youtube-nocookie.com"


def content_security_policy(
    image_hosts: Iterable[str],
    style_hashes: Iterable[str] = (),
    script_hashes: Iterable[str] = (),
) -> str:
    images = " ".join(f"https://{host}" for host in image_hosts)
    # The page's one inline stylesheet and one inline script (the boot) are
    # allowed by their hashes, nothing else inline.
    styles = " ".join(("'self'", *style_hashes))
    scripts = " ".join(("'self'", *script_hashes))
    directives = {
        "default-src": "'self'",
        # No eval'd script; the inlined page data is JSON, not script.
        "script-src": scripts,
        "style-src": styles,
        # The slider positions slides with style attributes in the server's markup.
        "style-src-attr": "'unsafe-inline'",
        "img-src": f"'self' {images}".strip(),
        "font-src": "'self'",
        "connect-src": "'self'",
        "frame-src": VIDEO_ORIGIN,
        "frame-ancestors": "'none'",
        "object-src": "'none'",
        "base-uri": "'self'",
        "form-action": "'self'",
    }
    return "; ".join(f"{name} {value}" for name, value in directives.items())


class SecurityHeaders:
    def __init__(
        self,
        app: ASGIApp,
        *,
        image_hosts: Iterable[str],
        style_hashes: Iterable[str] = (),
        script_hashes: Iterable[str] = (),
    ) -> None:
        self.app = app
        self._headers = {
            "Content-Security-Policy": content_security_policy(
                image_hosts, style_hashes, script_hashes
            ),
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
