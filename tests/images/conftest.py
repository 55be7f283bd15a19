import pytest

from server.images import pipeline
from server.images.transform import OutputFormat, make_variant
from server.images.variants import Variant


@pytest.fixture
def encodings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The variants the pipeline decodes and encodes from now on (refused ones too), by name."""
    calls: list[str] = []

    def counted(source: bytes, variant: Variant, output: OutputFormat) -> bytes:
        calls.append(variant.name)
        return make_variant(source, variant, output)

    monkeypatch.setattr(pipeline, "make_variant", counted)
    return calls
