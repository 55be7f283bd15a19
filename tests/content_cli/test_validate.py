"""`stone-content validate`: each kind of problem, named by file, document id and field."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest

from server.content.models import CardItem, Collection, field_problems, parse_document
from server.content.photo_policy import PhotoUrlPolicy
from tests.content_cli.support import SHIPPED_CONTENT, StoneContent
from tests.content_files import sample_cards, write_content


def problems(run_output: str) -> list[str]:
    return [line for line in run_output.splitlines() if not line.endswith("found.")]


def test_the_shipped_content_is_clean(stone_content: StoneContent) -> None:
    result = stone_content("validate", SHIPPED_CONTENT)
    assert result.code == 0
    assert result.err == ""
    assert re.fullmatch(
        rf"{re.escape(str(SHIPPED_CONTENT))}: no problems in \d+ documents "
        r"\(Projects \d+, Collabrations \d+, Slider \d+, Stones \d+\)\n",
        result.out,
    )


def test_a_missing_file(tmp_path: Path, stone_content: StoneContent) -> None:
    root = write_content(tmp_path)
    (root / "slider.json").unlink()
    result = stone_content("validate", root)
    assert result.code == 1
    assert problems(result.err) == [f"{root / 'slider.json'}: file is missing"]


def test_a_file_that_is_not_json(tmp_path: Path, stone_content: StoneContent) -> None:
    root = write_content(tmp_path)
    (root / "projects.json").write_text('[{"id": "a",}]', encoding="utf-8")
    result = stone_content("validate", root)
    assert result.code == 1
    [problem] = problems(result.err)
    assert problem.startswith(f"{root / 'projects.json'}: is not valid JSON: ")
    assert "line 1" in problem


def test_a_file_that_is_not_an_array(tmp_path: Path, stone_content: StoneContent) -> None:
    root = write_content(tmp_path)
    (root / "collabrations.json").write_text(json.dumps(sample_cards("p", 1)[0]), "utf-8")
    result = stone_content("validate", root)
    assert result.code == 1
    assert problems(result.err) == [
        f"{root / 'collabrations.json'}: should be a JSON array of documents, found dict"
    ]


def test_a_document_that_is_not_an_object(tmp_path: Path, stone_content: StoneContent) -> None:
    root = write_content(tmp_path)
    documents = [*sample_cards("p", 1), ["not", "an", "object"]]
    (root / "projects.json").write_text(json.dumps(documents), encoding="utf-8")
    result = stone_content("validate", root)
    assert result.code == 1
    assert problems(result.err) == [
        f"{root / 'projects.json'}: document 2 of 2: should be a JSON object, found list"
    ]


@pytest.mark.parametrize(
    ("id_entry", "message"),
    [
        ({}, "is missing"),
        ({"id": ""}, "should be a non-empty string"),
        ({"id": 7}, "should be a non-empty string"),
    ],
)
def test_a_document_without_a_usable_id(
    tmp_path: Path, stone_content: StoneContent, id_entry: dict[str, object], message: str
) -> None:
    nameless = {"name": "n", "description": "d", "photoUrl": "/images/sample.jpg", **id_entry}
    root = write_content(tmp_path, collabrations=[*sample_cards("c", 2), nameless])
    result = stone_content("validate", root)
    assert result.code == 1
    assert problems(result.err) == [
        f"{root / 'collabrations.json'}: document 3 of 3: id: {message}"
    ]


def test_a_repeated_id(tmp_path: Path, stone_content: StoneContent) -> None:
    cards = sample_cards("project", 3)
    root = write_content(tmp_path, projects=[*cards, {**cards[1], "name": "Another"}])
    result = stone_content("validate", root)
    assert result.code == 1
    assert problems(result.err) == [
        f"{root / 'projects.json'}: project-2: id: repeats an earlier document's id "
        "(document 4 of 4)"
    ]


def test_an_id_firestore_does_not_allow(tmp_path: Path, stone_content: StoneContent) -> None:
    slides = [{"id": "2024/quarry", "photoUrl": "/images/sample.jpg"}]
    root = write_content(tmp_path, slider=slides)
    result = stone_content("validate", root)
    assert result.code == 1
    assert problems(result.err) == [
        f"{root / 'slider.json'}: 2024/quarry: id: contains '/', which Firestore does not "
        "allow in a document id"
    ]


def test_a_field_of_the_wrong_type(tmp_path: Path, stone_content: StoneContent) -> None:
    cards = sample_cards("partner", 2)
    cards[1]["description"] = 42
    root = write_content(tmp_path, collabrations=cards)
    result = stone_content("validate", root)
    assert result.code == 1
    assert problems(result.err) == [
        f"{root / 'collabrations.json'}: partner-2: description: should be a string, found int"
    ]


def test_a_missing_field(tmp_path: Path, stone_content: StoneContent) -> None:
    root = write_content(tmp_path, slider=[{"id": "slide-0", "photoURL": "/images/sample.jpg"}])
    result = stone_content("validate", root)
    assert result.code == 1
    assert problems(result.err) == [f"{root / 'slider.json'}: slide-0: photoUrl: is missing"]


@pytest.mark.parametrize(
    ("photo_url", "message"),
    [
        ("/images/projects/gone.jpg", "no image 'projects/gone.jpg'"),
        ("/images/../projects.json", "must not climb out of /images/"),
    ],
)
def test_a_local_image_that_does_not_exist(
    tmp_path: Path, stone_content: StoneContent, photo_url: str, message: str
) -> None:
    cards = sample_cards("project", 2)
    cards[0]["photoUrl"] = photo_url
    root = write_content(tmp_path, projects=cards)
    result = stone_content("validate", root)
    assert result.code == 1
    [problem] = problems(result.err)
    assert problem.startswith(f"{root / 'projects.json'}: project-1: photoUrl: ")
    assert message in problem
    assert repr(photo_url) in problem


def test_images_elsewhere_and_escaped_names_are_accepted(
    tmp_path: Path, stone_content: StoneContent
) -> None:
    cards = sample_cards("project", 3)
    cards[0]["photoUrl"] = "https://firebasestorage.googleapis.com/v0/b/x/o/a.jpg?alt=media"
    cards[1]["photoUrl"] = "/images/my%20photo.jpg?v=2"
    root = write_content(tmp_path, projects=cards)
    (root / "images" / "my photo.jpg").write_bytes(b"jpeg")
    result = stone_content("validate", root)
    assert (result.code, result.err) == (0, "")


def test_every_problem_is_reported_not_just_the_first(
    tmp_path: Path, stone_content: StoneContent
) -> None:
    cards = sample_cards("project", 3)
    cards[0]["name"] = None
    cards[2]["photoUrl"] = "/images/missing.jpg"
    root = write_content(tmp_path, projects=cards, slider=[{"id": "s"}])
    (root / "collabrations.json").write_text("", encoding="utf-8")
    result = stone_content("validate", root)
    assert result.code == 1
    lines = result.err.splitlines()
    assert len(lines) == 5
    assert (
        lines[0] == f"{root / 'projects.json'}: project-1: name: should be a string, found NoneType"
    )
    assert lines[1].startswith(f"{root / 'projects.json'}: project-3: photoUrl: ")
    assert lines[2].startswith(f"{root / 'collabrations.json'}: is not valid JSON")
    assert lines[3] == f"{root / 'slider.json'}: s: photoUrl: is missing"
    assert lines[4] == "4 problems found."


FIELD_CASES: list[dict[str, Any]] = [
    {"name": "n", "description": "d", "photoUrl": "/p.jpg"},
    {"name": "n", "description": "d", "photoUrl": "/p.jpg", "extra": 1},
    {"name": "n", "description": "d"},
    {"name": 1, "description": None, "photoUrl": ["/p.jpg"]},
    {},
]


@pytest.mark.parametrize("fields", FIELD_CASES)
@pytest.mark.parametrize("collection", list(Collection))
def test_validate_and_the_server_apply_the_same_rules(
    collection: Collection, fields: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        item = parse_document(collection, "doc", fields, PhotoUrlPolicy())
    reported = field_problems(collection, fields, PhotoUrlPolicy())
    assert (item is None) == bool(reported)
    for field, message in reported.items():
        assert f"{field!r} {message}" in caplog.text


def stone(**fields: object) -> dict[str, object]:
    return {
        "id": "galala",
        "name": "Galala",
        "description": "A beige marble.",
        "photoUrl": "/images/sample.jpg",
        "family": "marble",
        "colour": "beige",
        **fields,
    }


def test_a_stones_values_outside_the_lists_are_named_by_document_and_field(
    tmp_path: Path, stone_content: StoneContent
) -> None:
    bad = stone(
        family="onyx",
        finishes=["polished", "waxed"],
        finishPhotos={"honed": "javascript:alert(1)"},
        density=0,
        abrasion="hard",
    )
    del bad["colour"]
    root = write_content(tmp_path, stones=[bad])
    result = stone_content("validate", root)
    assert result.code == 1
    file = root / "stones.json"
    assert sorted(problems(result.err)) == sorted(
        [
            f"{file}: galala: family: should be one of marble, limestone, granite, travertine;"
            " found 'onyx'",
            f"{file}: galala: colour: is missing",
            f"{file}: galala: finishes: each should be one of polished, honed, brushed,"
            " sandblasted, bush-hammered, chiselled, flamed, tumbled, split-face, sawn;"
            " found ['waxed']",
            f"{file}: galala: finishPhotos: honed: must be an https: URL or a path under /images/",
            f"{file}: galala: density: should be a number from 1500 to 3500; found 0",
            f"{file}: galala: abrasion: should be a number from 5 to 60; found 'hard'",
        ]
    )


def test_a_project_naming_an_unknown_stone_is_named(
    tmp_path: Path, stone_content: StoneContent
) -> None:
    projects = [{**sample_cards("p", 1)[0], "stones": ["galala", "no-such-stone"]}]
    root = write_content(tmp_path, projects=projects, stones=[stone()])
    result = stone_content("validate", root)
    assert result.code == 1
    assert problems(result.err) == [
        f"{root / 'projects.json'}: p-1: stones: no stone has the id 'no-such-stone'"
    ]


def test_a_stone_is_shown_without_what_is_wrong_with_it(caplog: pytest.LogCaptureFixture) -> None:
    fields = stone(family="onyx", finishes=["honed", "waxed"], density=2700, absorption=-1)
    fields.pop("id")
    with caplog.at_level(logging.WARNING):
        item = parse_document(Collection.STONES, "galala", fields, PhotoUrlPolicy())
    assert isinstance(item, CardItem)
    assert item.details == {"colour": "beige", "finishes": ["honed"], "density": 2700}
    assert "Showing, without what is wrong, Stones/galala: field 'family'" in caplog.text
    # Without its text or photo, a stone is not shown at all.
    assert parse_document(Collection.STONES, "x", {"name": "X"}, PhotoUrlPolicy()) is None
