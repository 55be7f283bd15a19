"""The content files' format, as pull writes it."""

from __future__ import annotations

import json

from server.content.local import format_documents
from server.content.models import Collection


def test_documents_are_sorted_by_id_whatever_order_they_come_in() -> None:
    text = format_documents(
        Collection.SLIDER,
        {"b": {"photoUrl": "/b.jpg"}, "a-2": {"photoUrl": "/a2.jpg"}, "a": {"photoUrl": "/a"}},
    )
    assert [document["id"] for document in json.loads(text)] == ["a", "a-2", "b"]


def test_id_then_the_model_s_fields_then_the_rest_by_name() -> None:
    fields = {"zeta": 1, "photoUrl": "/p.jpg", "alpha": True, "name": "N", "description": "D"}
    text = format_documents(Collection.COLLABRATIONS, {"x": fields})
    assert list(json.loads(text)[0]) == ["id", "name", "description", "photoUrl", "alpha", "zeta"]
    assert text.endswith("}\n]\n")
