"""The formats the image route encodes, and choosing one from the request's Accept."""

from __future__ import annotations

from enum import Enum

from PIL import features


class OutputFormat(Enum):
    # Best first: the first one a browser accepts is the one it gets.
    AVIF = ("image/avif", "AVIF")
    WEBP = ("image/webp", "WEBP")
    JPEG = ("image/jpeg", "JPEG")

    def __init__(self, media_type: str, pillow_name: str) -> None:
        self.media_type = media_type
        self.pillow_name = pillow_name


# Pillow's wheels encode AVIF (from 11.2) and WebP; a Pillow built without
# them still serves JPEG rather than failing.
ENCODABLE = tuple(
    output
    for output in (OutputFormat.AVIF, OutputFormat.WEBP)
    if features.check(output.pillow_name.lower())
)


def negotiate(accept: str) -> OutputFormat:
    """AVIF or WebP when the browser names it (q above 0), else JPEG, which all take.

    Only explicit names count: "image/*" and "*/*" are sent by browsers that do
    not decode AVIF or WebP too.
    """
    accepted = _accepted_types(accept)
    for output in ENCODABLE:
        if accepted.get(output.media_type, 0.0) > 0:
            return output
    return OutputFormat.JPEG


def _accepted_types(accept: str) -> dict[str, float]:
    accepted: dict[str, float] = {}
    for part in accept.split(","):
        media_type, *params = (piece.strip() for piece in part.split(";"))
        quality = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if media_type:
            accepted[media_type.lower()] = quality
    return accepted
