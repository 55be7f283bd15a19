"""The studio's form declarations held to the site's rules and to the templates that draw them."""

from __future__ import annotations

import re

from server.content.models import DETAILS, OPTIONAL_FIELDS, REQUIRED_FIELDS, Collection
from server.studio.fields import Choices, Field, Photo
from server.studio.forms import FORMS, TABS
from server.studio.templating import TEMPLATES


def test_every_collection_has_a_form_that_writes_only_what_the_site_reads() -> None:
    assert {form.collection for form in FORMS} == set(Collection)
    for form in FORMS:
        written = {input.name for input in form.typed} | {form.photo.key}
        written |= {f.photos for f in form.fields if isinstance(f, Choices) and f.photos}
        collection = form.collection
        site_reads = {
            *REQUIRED_FIELDS[collection],
            *OPTIONAL_FIELDS[collection],
            *DETAILS[collection],
        }
        # A field the site does not read would be dropped on save; one it needs, never asked.
        assert written <= site_reads, form.key
        assert set(REQUIRED_FIELDS[collection]) <= written, form.key
    # A stone's form asks for every field the catalogue shows.
    stones = next(form for form in FORMS if form.collection is Collection.STONES)
    assert set(DETAILS[Collection.STONES]) <= {input.name for input in stones.typed} | {
        "finishPhotos"
    }
    assert TABS == ("projects", "collabrations", "stones", "slider", "enquiries")


def test_the_other_languages_follow_the_last_translated_field() -> None:
    projects = next(form for form in FORMS if form.collection is Collection.PROJECTS)
    names = list(projects.inputs)
    assert names[:4] == ["name", "description", "name_ar", "description_ar"]
    assert names[-1] == "photo"
    assert isinstance(projects.inputs["photo"].field, Photo)


def test_every_kind_of_field_has_its_macro() -> None:
    macros = set(re.findall(r"{% macro (\w+)\(", (TEMPLATES / "fields.html").read_text()))
    kinds = {kind.kind for kind in _kinds(Field)}
    assert kinds
    assert kinds <= macros


def _kinds(base: type[Field]) -> list[type[Field]]:
    return [k for sub in base.__subclasses__() for k in (sub, *_kinds(sub)) if "kind" in vars(k)]
