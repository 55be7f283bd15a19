"""POST /vitals: web vitals from visitors' browsers, checked strictly, rate-limited, logged."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from server.app import create_app
from server.handlers.vitals import MAX_REPORT_BYTES, InvalidReportError, VitalsReport, parse_report
from server.http.rate_limit import TokenBuckets
from server.settings import Settings
from tests.clock import Clock
from tests.content_files import write_content

GOOD = {"name": "LCP", "value": 1834.2, "rating": "good", "path": "/projects"}
PATHS = frozenset({"/", "/projects", "/Collabrations"})


def site(content: Path, *, web_vitals: bool) -> TestClient:
    return TestClient(
        create_app(Settings(content_dir=content, render_pool_size=1, web_vitals=web_vitals))
    )


@pytest.fixture(scope="module")
def content(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_content(tmp_path_factory.mktemp("content"))


@pytest.fixture
def client(content: Path) -> Iterator[TestClient]:
    # A new app per test: each starts with full rate-limit buckets.
    with site(content, web_vitals=True) as client:
        yield client


def beacon(client: TestClient, body: object, **headers: str) -> int:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    response = client.post(
        "/vitals", content=raw, headers={"Content-Type": "text/plain;charset=UTF-8", **headers}
    )
    return response.status_code


def test_a_good_report_is_logged_as_a_structured_line_and_answered_204(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="server.vitals"):
        assert beacon(client, GOOD) == 204
        assert beacon(client, {**GOOD, "name": "CLS", "value": 0, "path": "/"}) == 204
    records = [record for record in caplog.records if record.name == "server.vitals"]
    assert [record.getMessage() for record in records] == [
        "web vital LCP 1834.2 (good) on /projects",
        "web vital CLS 0 (good) on /",
    ]
    fields = {key: getattr(records[0], key) for key in ("metric", "value", "rating", "page")}
    assert fields == {"metric": "LCP", "value": 1834.2, "rating": "good", "page": "/projects"}


def test_a_cards_page_reports_as_its_route_not_one_path_per_card(client: TestClient) -> None:
    # ui/vitals.ts sends /projects/{item_id} from /projects/abdoun-villa-facade.
    assert beacon(client, {**GOOD, "path": "/projects/{item_id}"}) == 204
    assert beacon(client, {**GOOD, "path": "/ar/Collabrations/{item_id}"}) == 204
    assert beacon(client, {**GOOD, "path": "/projects/abdoun-villa-facade"}) == 400


def test_application_json_is_accepted_too(client: TestClient) -> None:
    assert beacon(client, GOOD, **{"Content-Type": "application/json"}) == 204


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"\xff\xfe",
        json.dumps([GOOD]).encode(),
        json.dumps("LCP").encode(),
        {k: v for k, v in GOOD.items() if k != "rating"},
        {**GOOD, "extra": 1},
        {**GOOD, "name": "FID"},
        {**GOOD, "name": "lcp"},
        {**GOOD, "value": -1},
        {**GOOD, "value": 120_001},
        {**GOOD, "name": "CLS", "value": 101},
        {**GOOD, "value": "1834"},
        {**GOOD, "value": True},
        {**GOOD, "value": None},
        b'{"name": "LCP", "value": NaN, "rating": "good", "path": "/projects"}',
        b'{"name": "LCP", "value": Infinity, "rating": "good", "path": "/projects"}',
        b'{"name": "LCP", "value": 1e999, "rating": "good", "path": "/projects"}',
        {**GOOD, "rating": "great"},
        {**GOOD, "path": "/admin"},
        {**GOOD, "path": "/projects?utm=x"},
        {**GOOD, "path": 7},
    ],
    ids=lambda body: repr(body)[:60],
)
def test_anything_but_a_valid_report_is_refused_with_400(
    client: TestClient, caplog: pytest.LogCaptureFixture, body: object
) -> None:
    with caplog.at_level(logging.INFO, logger="server.vitals"):
        assert beacon(client, body) == 400
    assert not [record for record in caplog.records if record.name == "server.vitals"]


@pytest.mark.parametrize("content_type", ["", "text/html", "application/x-www-form-urlencoded"])
def test_other_content_types_are_refused_with_415(client: TestClient, content_type: str) -> None:
    assert beacon(client, GOOD, **{"Content-Type": content_type}) == 415


def test_a_body_over_2_kb_is_refused_with_413(client: TestClient) -> None:
    padded = json.dumps({**GOOD, "path": "/" + "a" * MAX_REPORT_BYTES}).encode()
    assert beacon(client, padded) == 413


def test_a_chunked_body_over_2_kb_is_refused_with_413_as_it_arrives(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(10):
            yield b" " * 512

    response = client.post("/vitals", content=chunks(), headers={"Content-Type": "text/plain"})
    assert response.status_code == 413


def test_a_client_sending_too_many_reports_gets_429(client: TestClient) -> None:
    statuses = [beacon(client, GOOD) for _ in range(40)]
    assert statuses[:30] == [204] * 30
    assert set(statuses[30:]) == {429}


def test_when_vitals_are_off_post_is_refused_with_405_and_pages_do_not_ask(
    content: Path,
) -> None:
    with site(content, web_vitals=False) as client:
        assert beacon(client, GOOD) == 405
        page = client.get("/projects").text
    assert 'name="vitals-endpoint"' not in page


def test_when_vitals_are_on_pages_name_the_endpoint_and_only_post_is_allowed(
    client: TestClient,
) -> None:
    assert '<meta name="vitals-endpoint" content="/vitals">' in client.get("/projects").text
    refused = client.get("/vitals")
    assert refused.status_code == 405
    assert refused.headers["allow"] == "POST"
    assert client.put("/vitals").status_code == 405
    # Every other path still takes GET and HEAD only.
    assert client.post("/projects").status_code == 405


def test_parse_report_returns_the_typed_report() -> None:
    report = parse_report(json.dumps({**GOOD, "value": 80}).encode(), known_paths=PATHS)
    assert report == VitalsReport(name="LCP", value=80.0, rating="good", path="/projects")


def test_parse_report_says_what_is_wrong() -> None:
    with pytest.raises(InvalidReportError, match="rating"):
        parse_report(json.dumps({**GOOD, "rating": "ok"}).encode(), known_paths=PATHS)


def test_a_bucket_allows_a_burst_then_refills_at_its_rate() -> None:
    clock = Clock(now=0.0)
    buckets = TokenBuckets(burst=3, per_second=0.5, clock=clock)
    assert [buckets.allow("a") for _ in range(4)] == [True, True, True, False]
    assert buckets.allow("b")  # each client has a bucket of its own
    clock.now += 1  # half a token
    assert not buckets.allow("a")
    clock.now += 1
    assert buckets.allow("a")
    assert not buckets.allow("a")
    clock.now += 1000  # never more than the burst
    assert [buckets.allow("a") for _ in range(4)] == [True, True, True, False]


def test_buckets_keep_bounded_memory_forgetting_the_longest_unseen() -> None:
    clock = Clock(now=0.0)
    buckets = TokenBuckets(burst=1, per_second=0.001, max_keys=100, clock=clock)
    assert buckets.allow("busy")
    for index in range(1000):
        clock.now += 0.001
        buckets.allow(f"visitor-{index}")
        assert not buckets.allow("busy")  # seen again: kept, still limited
    assert len(buckets) == 100
