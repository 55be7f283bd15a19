"""Reading a Content-Security-Policy header in tests."""

from __future__ import annotations

import base64
import hashlib


def directives(policy: str) -> dict[str, list[str]]:
    """Each directive's sources: {"img-src": ["'self'", "data:"], ...}."""
    return {
        name: values
        for name, *values in (part.split() for part in policy.split(";") if part.strip())
    }


def sha256_source(text: str) -> str:
    """The CSP source that allows an inline script or style with this text."""
    return f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'"
