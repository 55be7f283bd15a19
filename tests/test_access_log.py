"""Log lines: one access line per request, JSON lines or text, the request id throughout."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from starlette.testclient import TestClient
from starlette.types import Receive, Scope, Send

from harness.firestore_standin import Fault, FirestoreStandIn
from harness.live_server import LiveServer
from server.app import create_app
from server.http.access_log import AccessLog
from server.logs import configure_logging
from server.settings import ContentSource, LogFormat, Settings
from tests.content_files import write_content

GENERATED_ID = re.compile(r"[0-9a-f]{32}")


def json_lines(captured: str) -> list[dict[str, Any]]:
    """Every line the site wrote; each must be a JSON object."""
    return [json.loads(line) for line in captured.splitlines() if line.strip()]


def access_lines(captured: str) -> list[dict[str, Any]]:
    return [line for line in json_lines(captured) if line["logger"] == "server.access"]


@pytest.fixture
def json_site(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        content_dir=write_content(tmp_path), render_pool_size=1, log_format=LogFormat.JSON
    )
    with TestClient(create_app(settings)) as client:
        yield client


def test_each_request_gets_a_json_line_with_its_fields(
    json_site: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    first = json_site.get("/projects")
    second = json_site.get("/projects")
    api = json_site.get("/api/content/slider")
    lines = access_lines(capsys.readouterr().err)
    assert [line["path"] for line in lines] == ["/projects", "/projects", "/api/content/slider"]
    miss, hit, api_line = lines
    assert set(miss) >= {"time", "level", "logger", "message"}
    assert miss["level"] == "INFO"
    assert miss["method"] == "GET"
    assert miss["route"] == "/projects"
    assert miss["status"] == 200
    assert isinstance(miss["duration_ms"], float)
    assert miss["duration_ms"] >= 0
    assert miss["client"] == "testclient"
    # The first request read the collections (the projects, and the stones their cards
    # name) and rendered; the second had them all cached.
    assert (miss["html_cache"], miss["content_reads"]) == ("miss", 2)
    assert (hit["html_cache"], hit["content_reads"]) == ("hit", 0)
    assert miss["request_id"] == first.headers["x-request-id"]
    assert hit["request_id"] == second.headers["x-request-id"]
    assert GENERATED_ID.fullmatch(miss["request_id"])
    assert miss["request_id"] != hit["request_id"]
    # Not a page: no html cache field value; the route is the pattern.
    assert api_line["route"] == "/api/content/{collection}"
    assert api_line["html_cache"] is None
    assert api_line["request_id"] == api.headers["x-request-id"]


def test_refusals_and_unknown_paths_are_logged_too(
    json_site: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    refused = json_site.post("/projects")
    missing = json_site.get("/no-such-page")
    lines = access_lines(capsys.readouterr().err)
    assert [(line["method"], line["status"], line["route"]) for line in lines] == [
        ("POST", 405, None),
        ("GET", 404, None),
    ]
    assert refused.headers["x-request-id"] == lines[0]["request_id"]
    assert missing.headers["x-request-id"] == lines[1]["request_id"]


@pytest.mark.parametrize("incoming", ["abc-123", "edge.7f3a_b", "A" * 64])
def test_a_sane_incoming_request_id_is_kept_and_echoed(
    json_site: TestClient, capsys: pytest.CaptureFixture[str], incoming: str
) -> None:
    capsys.readouterr()
    response = json_site.get("/", headers={"X-Request-ID": incoming})
    (line,) = access_lines(capsys.readouterr().err)
    assert response.headers["x-request-id"] == incoming
    assert line["request_id"] == incoming


@pytest.mark.parametrize(
    "incoming", [b"", b"A" * 65, b"has space", b"a/b", b"<script>", "é".encode()]
)
def test_an_unsafe_incoming_request_id_is_replaced(
    json_site: TestClient, capsys: pytest.CaptureFixture[str], incoming: bytes
) -> None:
    capsys.readouterr()
    response = json_site.get("/", headers={b"X-Request-ID": incoming})
    (line,) = access_lines(capsys.readouterr().err)
    assert GENERATED_ID.fullmatch(response.headers["x-request-id"])
    assert line["request_id"] == response.headers["x-request-id"]


def test_probes_are_logged_only_at_debug_level(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content = write_content(tmp_path)
    for level, expected in (("INFO", []), ("DEBUG", ["/healthz"])):
        settings = Settings(
            content_dir=content, render_pool_size=1, log_format=LogFormat.JSON, log_level=level
        )
        with TestClient(create_app(settings)) as client:
            capsys.readouterr()
            client.get("/healthz")
            assert [line["path"] for line in access_lines(capsys.readouterr().err)] == expected


def test_firestore_reads_and_the_spec_error_line_carry_the_request(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = "https://firebasestorage.googleapis.com/v0/b/demo/o/a.jpg?alt=media"
    projects: dict[str, Mapping[str, str]] = {
        "p1": {"name": "P", "description": "d", "photoUrl": photo}
    }
    with FirestoreStandIn(collections={"Projects": projects}) as standin:
        monkeypatch.setenv("FIRESTORE_EMULATOR_HOST", standin.host)
        settings = Settings(
            content_source=ContentSource.FIRESTORE,
            google_cloud_project=standin.project,
            content_cache_seconds=0,
            render_pool_size=1,
            log_format=LogFormat.JSON,
        )
        with TestClient(create_app(settings)) as site:
            capsys.readouterr()
            site.get("/projects")
            reads_after_one = standin.reads
            standin.fault = Fault.PERMISSION_DENIED
            failed = site.get("/projects")
            lines = json_lines(capsys.readouterr().err)
    access = [line for line in lines if line["logger"] == "server.access"]
    # Projects and Stones, each once.
    assert [line["content_reads"] for line in access] == [2, 2]
    assert reads_after_one == 2
    # The stand-in has no Listen: the listener's own stop is logged whenever it
    # comes (on a busy machine, after the first page); the read's line is the one.
    errors = [
        line
        for line in lines
        if line["level"] == "ERROR" and "listener stopped" not in line["message"]
    ]
    assert sorted(error["message"].split(":")[0] for error in errors) == [
        "Error fetching projects",
        "Error fetching stones",
    ]
    for error in errors:
        assert error["logger"] == "server.content"
        assert error["request_id"] == failed.headers["x-request-id"]


def test_the_text_format_is_one_readable_line_per_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = Settings(content_dir=write_content(tmp_path), render_pool_size=1)
    with TestClient(create_app(settings)) as client:
        capsys.readouterr()
        response = client.get("/projects")
        client.get("/%0Afake")  # a decoded newline must not start a line of its own
    lines = [line for line in capsys.readouterr().err.splitlines() if "server.access" in line]
    request_id = response.headers["x-request-id"]
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} INFO server\.access: "
        r"testclient GET /projects 200 \d+\.\d ms, html cache miss, 2 content reads "
        rf"\[request {request_id}\]",
        lines[0],
    )
    assert "GET /\\nfake 404" in lines[1]
    assert len(lines) == 2


def test_a_request_that_raises_is_logged_as_a_500(capsys: pytest.CaptureFixture[str]) -> None:
    async def broken(scope: Scope, receive: Receive, send: Send) -> None:
        raise RuntimeError("a bug")

    configure_logging(level="INFO", log_format=LogFormat.JSON)
    client = TestClient(AccessLog(broken), raise_server_exceptions=False)
    capsys.readouterr()
    assert client.get("/x").status_code == 500
    (line,) = access_lines(capsys.readouterr().err)
    assert (line["path"], line["status"]) == ("/x", 500)


def test_the_real_server_writes_only_json_lines_and_no_uvicorn_access_line(
    tmp_path: Path,
) -> None:
    env = {"LOG_FORMAT": "json"}
    with LiveServer(env=env, log_path=tmp_path / "uvicorn.log") as site:
        response = httpx.get(site.url + "/", headers={"X-Request-ID": "probe-1"})
        (line,) = site.log_lines(logger="server.access", path="/", at_least=1)
        lines = site.json_log()  # fails on any line that is not JSON
    assert response.headers["x-request-id"] == "probe-1"
    assert line["request_id"] == "probe-1"
    assert not [entry for entry in lines if entry["logger"] == "uvicorn.access"]
    assert any(
        entry["logger"] == "uvicorn.error" and "Started server process" in entry["message"]
        for entry in lines
    )


def test_grpc_decode_errors_are_one_line_without_a_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # What grpc._common logs when a stopping database cuts a listener's message short.
    configure_logging(level="INFO", log_format=LogFormat.JSON)
    try:
        raise ValueError("Wire format was corrupt")
    except ValueError:
        logging.getLogger("grpc._common").exception("Exception deserializing message!")
    (line,) = json_lines(capsys.readouterr().err)
    assert line["logger"] == "grpc._common"
    assert line["level"] == "ERROR"
    assert line["message"] == (
        "Exception deserializing message! (ValueError: Wire format was corrupt)"
    )
    assert "exception" not in line
