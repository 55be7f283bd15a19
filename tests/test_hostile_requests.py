"""Requests that are wrong or hostile, and the headers every response carries."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest
from starlette.testclient import TestClient

from harness.live_server import LiveServer
from server.app import create_app
from server.settings import Settings
from tests.content_files import write_content
from tests.csp import sha256_source


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    content = write_content(tmp_path_factory.mktemp("content"))
    with TestClient(create_app(Settings(content_dir=content, render_pool_size=1))) as client:
        yield client


@pytest.mark.parametrize("path", ["/collabrations", "/COLLABRATIONS", "/CollabRations"])
def test_collabrations_in_any_other_case_redirects_permanently(
    client: TestClient, path: str
) -> None:
    response = client.get(path + "?ref=mail", follow_redirects=False)
    assert response.status_code == 301
    assert response.headers["location"] == "/Collabrations?ref=mail"


@pytest.mark.parametrize(
    ("path", "canonical"),
    [("/Projects", "/projects"), ("/ar/collabrations", "/ar/Collabrations"), ("/AR", "/ar")],
)
def test_other_pages_redirect_to_their_canonical_case_too(
    client: TestClient, path: str, canonical: str
) -> None:
    response = client.get(path, follow_redirects=False)
    assert (response.status_code, response.headers["location"]) == (301, canonical)


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"])
@pytest.mark.parametrize("path", ["/", "/projects", "/api/content/projects", "/nowhere"])
def test_methods_other_than_get_and_head_are_refused(
    client: TestClient, method: str, path: str
) -> None:
    response = client.request(method, path)
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, HEAD"


def test_head_answers_like_get_without_a_body(client: TestClient) -> None:
    response = client.head("/projects")
    assert response.status_code == 200
    assert response.content == b""


def test_an_oversized_path_is_refused_cleanly(client: TestClient) -> None:
    assert client.get("/" + "a" * 5000).status_code == 414


def test_oversized_headers_are_refused_cleanly(client: TestClient) -> None:
    assert client.get("/", headers={"X-Big": "b" * 20_000}).status_code == 431
    assert client.get("/", headers={"X-Fine": "b" * 2_000}).status_code == 200


EXPECTED_HEADERS = {
    "strict-transport-security": "max-age=63072000; includeSubDomains",
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
}


@pytest.mark.parametrize(
    "path",
    ["/", "/projects", "/nowhere", "/api/content/slider", "/images/sample.jpg", "/collabrations"],
)
def test_every_response_carries_the_security_headers(client: TestClient, path: str) -> None:
    response = client.get(path, follow_redirects=False)
    for name, value in EXPECTED_HEADERS.items():
        assert response.headers[name] == value
    assert "camera=()" in response.headers["permissions-policy"]
    csp = response.headers["content-security-policy"]
    directives = dict(part.strip().split(" ", 1) for part in csp.split(";"))
    # Scripts from the site, and the one inline boot script by its hash.
    assert re.fullmatch(r"'self' 'sha256-[A-Za-z0-9+/]+={0,2}'", directives["script-src"])
    assert "unsafe" not in directives["script-src"] + directives["default-src"]
    assert directives["frame-src"] == "https://www.youtube-nocookie.com"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["img-src"] == (
        "'self' https://firebasestorage.googleapis.com https://storage.googleapis.com"
    )


def test_refusals_carry_the_security_headers_too(client: TestClient) -> None:
    response = client.post("/")
    assert response.headers["x-content-type-options"] == "nosniff"
    assert "content-security-policy" in response.headers


def test_the_only_inline_script_a_page_runs_is_the_one_its_policy_names(
    client: TestClient,
) -> None:
    response = client.get("/")
    allowed = response.headers["content-security-policy"].split("script-src ")[1].split(";")[0]
    executable = [
        body
        for attributes, body in re.findall(r"<script([^>]*)>(.*?)</script>", response.text, re.S)
        # Data blocks (page data, JSON-LD) never run.
        if not re.search(r'type="application/(ld\+)?json"', attributes)
    ]
    assert len(executable) == 1
    assert allowed.split() == ["'self'", sha256_source(executable[0])]


def test_unknown_hosts_are_refused_when_hosts_are_configured(tmp_path: Path) -> None:
    settings = Settings(
        content_dir=write_content(tmp_path), render_pool_size=1, allowed_hosts=("stone.example",)
    )
    with TestClient(create_app(settings), base_url="http://stone.example") as client:
        assert client.get("/").status_code == 200
        assert client.get("/", headers={"Host": "evil.example"}).status_code == 400


def raw_request(url: str, request: bytes) -> bytes:
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as connection:
        connection.sendall(request)
        return connection.recv(65536)


def test_oversized_paths_and_headers_are_refused_by_the_server_without_a_traceback(
    tmp_path: Path,
) -> None:
    with LiveServer(log_path=tmp_path / "uvicorn.log") as site:
        long_path = raw_request(
            site.url, b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"
        )
        long_header = raw_request(
            site.url, b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 200_000 + b"\r\n\r\n"
        )
        still_fine = httpx.get(site.url + "/")
        log = site.log()
    assert long_path.startswith(b"HTTP/1.1 4")
    assert long_header.startswith(b"HTTP/1.1 4")
    assert still_fine.status_code == 200
    assert "Traceback" not in log


@pytest.mark.parametrize(
    ("trusted", "logged_client"), [("127.0.0.1", "203.0.113.9"), ("10.9.9.9", "127.0.0.1")]
)
def test_forwarded_headers_are_honoured_only_from_trusted_proxies(
    tmp_path: Path, trusted: str, logged_client: str
) -> None:
    env = {"FORWARDED_ALLOW_IPS": trusted, "LOG_FORMAT": "json"}
    with LiveServer(env=env, log_path=tmp_path / "uvicorn.log") as site:
        httpx.get(site.url + "/projects", headers={"X-Forwarded-For": "203.0.113.9"})
        access = site.log_lines(logger="server.access", path="/projects", at_least=1)
    assert [line["client"] for line in access] == [logged_client]
