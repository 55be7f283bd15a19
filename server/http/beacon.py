"""Reading a beacon's body: small, and of a type navigator.sendBeacon sends."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request

# sendBeacon sends a string as text/plain (no CORS preflight needed);
# application/json is what a script posting by hand would say.
BEACON_MEDIA_TYPES = frozenset({"text/plain", "application/json"})


async def read_beacon(request: Request, *, max_bytes: int) -> bytes:
    """The body; HTTPException 415 for another type, 413 past `max_bytes`."""
    media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media_type not in BEACON_MEDIA_TYPES:
        raise HTTPException(415, "Unsupported Media Type")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise HTTPException(413, "Content Too Large")
    body = bytearray()
    # Counted as it arrives: a chunked body has no length to check up front.
    async for chunk in request.stream():
        body += chunk
        if len(body) > max_bytes:
            raise HTTPException(413, "Content Too Large")
    return bytes(body)
