"""The W3C Nu HTML checker (vnu-jar, in tools/html-checker/) on every rendered page."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from starlette.testclient import TestClient

from server.app import create_app
from server.settings import REPO_ROOT, Settings
from tests.support import BROKEN_RENDER

VNU = REPO_ROOT / "tools/html-checker/node_modules/vnu-jar/build/dist/vnu.jar"


def check(files: list[Path]) -> list[dict[str, object]]:
    java = shutil.which("java")
    assert java is not None, "the HTML checker needs Java (./dev test installs it)"
    result = subprocess.run(  # noqa: S603 - our own command line
        [
            java,
            "-Xss8m",
            "-XX:TieredStopAtLevel=1",
            "-jar",
            str(VNU),
            "--errors-only",
            "--format",
            "json",
            *map(str, files),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    messages: list[dict[str, object]] = json.loads(result.stderr or result.stdout)["messages"]
    return messages


def test_every_page_is_valid_html(tmp_path: Path) -> None:
    files = []
    settings = Settings(
        render_pool_size=1, enquiry_database=tmp_path / "enquiries.sqlite3", enquiry_min_seconds=0
    )
    with TestClient(create_app(settings)) as client:
        for name, path in [
            ("landing", "/"),
            ("projects", "/projects"),
            ("collabrations", "/Collabrations"),
            ("not-found", "/nowhere"),
            ("arabic-landing", "/ar"),
            ("arabic-projects", "/ar/projects"),
            ("arabic-not-found", "/ar/nowhere"),
            ("project", "/projects/dead-sea-resort-lobby"),
            ("arabic-collabration", "/ar/Collabrations/tilal-and-noor-interiors"),
            ("french-landing", "/fr"),
            ("italian-projects", "/it/projects"),
            ("italian-not-found", "/it/nowhere"),
            ("french-project", "/fr/projects/dead-sea-resort-lobby"),
            ("french-enquiry", "/fr/enquiry?stone=aqaba-red"),
            ("arabic-enquiry", "/ar/enquiry?project=dead-sea-resort-lobby"),
        ]:
            file = tmp_path / f"{name}.html"
            file.write_text(client.get(path).text, encoding="utf-8")
            files.append(file)
        # The enquiry form sent back with its problems, then the thank-you page.
        (token,) = re.findall(r'name="token" value="([^"]+)"', files[-1].read_text())
        form = {"token": token, "name": "Rania", "email": "not an address", "country": "JO"}
        for name, posted in [
            ("enquiry-problems", form),
            ("enquiry-sent", form | {"email": "r@example.com", "message": "Hello"}),
        ]:
            file = tmp_path / f"{name}.html"
            answer = client.post("/ar/enquiry", data=posted)
            assert answer.status_code == 422 if name == "enquiry-problems" else 200
            file.write_text(answer.text, encoding="utf-8")
            files.append(file)
    bundles = tmp_path / "bundles"
    shutil.copytree(REPO_ROOT / "bundles", bundles)
    (bundles / "server" / "render.js").write_text(BROKEN_RENDER)
    with TestClient(create_app(Settings(render_pool_size=1, bundles_dir=bundles))) as client:
        fallback = tmp_path / "fallback.html"
        fallback.write_text(client.get("/projects").text, encoding="utf-8")
        files.append(fallback)
    messages = check(files)
    assert messages == []
