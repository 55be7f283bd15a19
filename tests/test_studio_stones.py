"""The studio's Stones over HTTP against a real uvicorn: every field of a stone (choices,
finishes with a photo each, numbers with their bounds, formats), a project's stones, a
mistake that keeps everything typed, someone else's save, and photos removed only when unused.

A server of its own (the fixtures of tests/test_studio.py, run again for this module), so
these uploads have the studio's upload allowance (a burst of twenty) to themselves.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx2 as httpx

from harness.live_server import LiveServer
from tests import test_studio
from tests.test_studio import Staff, field_errors, files_snapshot, jpeg, shown_soon, version_in

# The studio's fixtures, so this module runs a server of its own.
content = test_studio.content
studio_site = test_studio.studio_site
staff = test_studio.staff

GRANITE: dict[str, str | list[str]] = {
    "name": "Wadi Araba Red",
    "description": "A deep red granite from the south.",
    "origin": "Wadi Araba, Jordan",
    "origin_ar": "وادي عربة، الأردن",
    "family": "granite",
    "colour": "red",
    "finishes": ["polished", "flamed"],
    "formats": "Slabs, 2 and 3 cm\r\n\r\n  Tiles, 60 x 60 x 2 cm  ",
    "density": "2650",
    "absorption": "0.25",
    "compressive": "180",
    "flexural": "",
    "abrasion": "16",
}


def stone(content: Path, stone_id: str) -> dict[str, Any]:
    documents = json.loads((content / "stones.json").read_text(encoding="utf-8"))
    found: dict[str, Any] = next(doc for doc in documents if doc["id"] == stone_id)
    return found


def test_a_stone_with_two_finishes_its_figures_and_a_finish_photo_reaches_the_catalogue(
    staff: Staff, studio_site: LiveServer, content: Path
) -> None:
    form = staff.client.get("/studio/stones/new").text
    # Choices named in the studio's language; each figure with its unit and bounds.
    assert '<option value="granite">Granite</option>' in form
    assert '<input type="checkbox" name="finishes" value="bush-hammered"> Bush-hammered' in form
    assert '<label for="density">Apparent density (kg/m³)</label>' in form
    assert re.search(r'id="density" name="density" type="number"[^>]* min="1500" max="3500"', form)
    assert "From 0 to 30 %; empty if not measured." in form

    response = staff.post(
        "/studio/stones/new",
        GRANITE,
        jpeg(),
        photos={"finishes:flamed": jpeg(colour=(200, 60, 40))},
    )
    assert response.status_code == 303, field_errors(response.text)
    added = stone(content, "wadi-araba-red")
    flamed = added.pop("finishPhotos")["flamed"]
    assert re.fullmatch(r"/images/stones/wadi-araba-red-[0-9a-f]{12}\.jpg", flamed)
    assert (content / flamed.removeprefix("/")).is_file()
    # Typed as the catalogue reads them: lists, numbers, and no field for an empty figure.
    assert {key: value for key, value in added.items() if key != "photoUrl"} == {
        "id": "wadi-araba-red",
        "name": "Wadi Araba Red",
        "description": "A deep red granite from the south.",
        "family": "granite",
        "colour": "red",
        "origin": "Wadi Araba, Jordan",
        "origin_ar": "وادي عربة، الأردن",
        "finishes": ["polished", "flamed"],
        "formats": ["Slabs, 2 and 3 cm", "Tiles, 60 x 60 x 2 cm"],
        "density": 2650,
        "absorption": 0.25,
        "compressive": 180,
        "abrasion": 16,
    }
    assert shown_soon(studio_site.url + "/stones?family=granite&finish=flamed", "Wadi Araba Red")
    page = httpx.get(studio_site.url + "/stones/wadi-araba-red").text
    assert "Flexural strength" not in page
    assert "Wadi Araba, Jordan" in page

    # A project names the stones it used, ticked by name.
    project_form = staff.client.get("/studio/projects/new").text
    assert (
        '<input type="checkbox" name="stones" value="wadi-araba-red"> Wadi Araba Red'
        in project_form
    )
    staff.post(
        "/studio/projects/new",
        {"name": "Aqaba Hotel Lobby", "description": "Red granite.", "stones": ["wadi-araba-red"]},
        jpeg(),
    )
    projects = json.loads((content / "projects.json").read_text(encoding="utf-8"))
    assert projects[-1]["stones"] == ["wadi-araba-red"]


def test_a_figure_out_of_bounds_is_refused_and_everything_typed_is_kept(
    staff: Staff, content: Path
) -> None:
    before = files_snapshot(content)
    sent = {**GRANITE, "name": "Petra Rose", "density": "9000", "absorption": "a little"}
    refused = staff.post("/studio/stones/new", sent, jpeg(), photos={"finishes:polished": jpeg()})
    assert refused.status_code == 422
    assert field_errors(refused.text) == {
        "density": "From 1500 to 3500 kg/m³; empty if not measured.",
        "absorption": "From 0 to 30 %; empty if not measured.",
    }
    assert '<a href="#density">Apparent density: From 1500 to 3500' in refused.text
    page = refused.text
    assert 'value="Petra Rose"' in page
    assert 'value="9000"' in page
    assert 'value="a little"' in page
    assert '<option value="granite" selected>' in page
    assert 'value="flamed" checked' in page
    assert ">Slabs, 2 and 3 cm\nTiles, 60 x 60 x 2 cm</textarea>" in page
    # Both photos held for the form, neither published.
    held = dict(re.findall(r'name="held_([a-z:]+)" value="([^"]+)"', page))
    assert set(held) == {"photo", "finishes:polished"}
    assert {name for name in files_snapshot(content) if not name.startswith(".held/")} == set(
        before
    )

    fixed = {
        **sent,
        "density": "2600",
        "absorption": "",
        **{f"held_{k}": v for k, v in held.items()},
    }
    assert staff.post("/studio/stones/new", fixed).status_code == 303
    added = stone(content, "petra-rose")
    assert "absorption" not in added
    assert (content / added["finishPhotos"]["polished"].removeprefix("/")).is_file()
    assert not list((content / ".held").rglob("*.jpg"))


def test_a_save_over_someone_elses_newer_save_of_a_stone_shows_theirs(
    staff: Staff, content: Path
) -> None:
    path = "/studio/stones/edit/karak-crema"
    opened = staff.version_shown(path)
    theirs = staff.client.get(path).text
    current = stone(content, "karak-crema")
    edit = {
        "name": current["name"],
        "description": current["description"],
        "family": current["family"],
        "colour": current["colour"],
        "finishes": current["finishes"],
    }
    assert 'value="polished" checked' in theirs
    assert staff.post(path, {**edit, "density": "2700"}).status_code == 303
    mine = staff.post(path, {**edit, "density": "2690", "version": opened})
    assert mine.status_code == 409
    assert 'Apparent density: <span dir="auto">“2700”</span>' in mine.text
    assert 'value="2690"' in mine.text  # mine, kept in the form
    assert stone(content, "karak-crema")["density"] == 2700
    again = staff.post(path, {**edit, "density": "2690", "version": version_in(mine.text)})
    assert again.status_code == 303
    assert stone(content, "karak-crema")["density"] == 2690


def test_a_finish_photo_goes_when_no_stone_links_it_and_stays_while_one_does(
    staff: Staff, content: Path
) -> None:
    path = "/studio/stones/edit/jerusalem-gold"
    current = stone(content, "jerusalem-gold")
    chiselled = current["finishPhotos"]["chiselled"]
    # Another stone links the same photo (as an edit in the Firebase console could).
    documents = json.loads((content / "stones.json").read_text(encoding="utf-8"))
    other = next(doc for doc in documents if doc["id"] == "maan-beige")
    other["finishPhotos"] = {"chiselled": chiselled}
    (content / "stones.json").write_text(
        json.dumps(documents, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    edit = {key: current[key] for key in ("name", "description", "family", "colour")}
    # Chiselled no longer offered: its photo leaves the stone, but maan-beige still shows it.
    finishes = [finish for finish in current["finishes"] if finish != "chiselled"]
    assert staff.post(path, {**edit, "finishes": finishes}).status_code == 303
    assert "chiselled" not in stone(content, "jerusalem-gold")["finishPhotos"]
    assert (content / chiselled.removeprefix("/")).is_file()

    maan = stone(content, "maan-beige")
    edit = {key: maan[key] for key in ("name", "description", "family", "colour", "finishes")}
    replaced = staff.post(
        "/studio/stones/edit/maan-beige", edit, photos={"finishes:chiselled": jpeg()}
    )
    assert replaced.status_code == 303
    assert stone(content, "maan-beige")["finishPhotos"]["chiselled"] != chiselled
    assert not (content / chiselled.removeprefix("/")).exists()


def test_a_stone_with_wrong_values_opens_and_a_save_puts_them_right(
    staff: Staff, content: Path
) -> None:
    # As an edit in the Firebase console could leave it: wrong types everywhere.
    documents = json.loads((content / "stones.json").read_text(encoding="utf-8"))
    wrong = next(doc for doc in documents if doc["id"] == "tafileh-green")
    wrong |= {"finishes": "polished", "finishPhotos": "none", "formats": 7, "density": "heavy"}
    (content / "stones.json").write_text(json.dumps(documents, ensure_ascii=False), "utf-8")
    path = "/studio/stones/edit/tafileh-green"
    form = staff.client.get(path)
    assert form.status_code == 200
    assert 'value="heavy"' in form.text  # shown as it is, to be put right
    edit = {key: wrong[key] for key in ("name", "description", "family", "colour")}
    saved = staff.post(path, {**edit, "finishes": ["honed"], "density": "2700"})
    assert saved.status_code == 303, field_errors(saved.text)
    fixed = stone(content, "tafileh-green")
    assert (fixed["finishes"], fixed["density"]) == (["honed"], 2700)
    assert "finishPhotos" not in fixed
    assert "formats" not in fixed
