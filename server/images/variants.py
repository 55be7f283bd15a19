"""The sizes the image route makes (ui/site.json's, which photoSources.ts builds srcset from),
by their names in its URLs: a fixed set, so nobody can make the server resize a photo a
thousand ways."""

from __future__ import annotations

from dataclasses import dataclass

from server.site.facts import SITE

WIDTHS = tuple(SITE["photoSizes"]["widths"])  # at the photo's own aspect ratio
SQUARES = tuple(SITE["photoSizes"]["squares"])  # square crops, for the modal
SOCIAL = "og1200"  # the picture of a shared link (docs/architecture.md, "Images: the image route")


@dataclass(frozen=True)
class Variant:
    name: str
    width: int
    height: int | None = None  # a centred crop width x height, not width wide at the photo's ratio
    jpeg_only: bool = False  # JPEG whatever the request's Accept says

    def size_for(self, source_width: int, source_height: int) -> tuple[int, int]:
        """The output size for a source of this size: never larger than the source."""
        if self.height is not None:
            scale = min(1.0, source_width / self.width, source_height / self.height)
            return max(1, round(self.width * scale)), max(1, round(self.height * scale))
        width = min(self.width, source_width)
        return width, max(1, round(source_height * width / source_width))


VARIANTS: dict[str, Variant] = {
    **{f"w{width}": Variant(f"w{width}", width) for width in WIDTHS},
    **{f"s{side}": Variant(f"s{side}", side, height=side) for side in SQUARES},
    SOCIAL: Variant(SOCIAL, 1200, height=630, jpeg_only=True),
}
