"""Reading a Content-Security-Policy header in tests."""

from __future__ import annotations


def directives(policy: str) -> dict[str, list[str]]:
    """Each directive's sources: {"img-src": ["'self'", "data:"], ...}."""
    return {
        name: values
        for name, *values in (part.split() for part in policy.split(";") if part.strip())
    }
