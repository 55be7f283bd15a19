"""GET /healthz (the process answers) and GET /readyz (this instance can serve visitors)."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from harness.firestore_standin import Fault, FirestoreStandIn
from server.app import create_app
from server.rendering.manifest import AssetManifest
from server.settings import REPO_ROOT, ContentSource, Settings
from tests.content_files import write_content

PHOTO = "https://firebasestorage.googleapis.com/v0/b/demo/o/a.jpg?alt=media"
COLLECTIONS = {
    "Projects": {"p1": {"name": "Project 1", "description": "d", "photoUrl": PHOTO}},
    "Collabrations": {"c1": {"name": "Partner 1", "description": "d", "photoUrl": PHOTO}},
    "Slider": {"s1": {"photoUrl": PHOTO}},
}


@pytest.fixture
def standin(monkeypatch: pytest.MonkeyPatch) -> Iterator[FirestoreStandIn]:
    with FirestoreStandIn(collections={k: dict(v) for k, v in COLLECTIONS.items()}) as standin:
        monkeypatch.setenv("FIRESTORE_EMULATOR_HOST", standin.host)
        yield standin


def firestore_site(standin: FirestoreStandIn, *, cache_seconds: float) -> TestClient:
    settings = Settings(
        content_source=ContentSource.FIRESTORE,
        google_cloud_project=standin.project,
        content_cache_seconds=cache_seconds,
        # These tests count reads every CONTENT_CACHE_SECONDS; the stand-in
        # speaks no Listen (tests/test_live_content.py has the listeners).
        content_live=False,
        render_pool_size=2,
        # A probe that finds no content read yet waits for the read; keep it short.
        firestore_timeout_seconds=1.0,
    )
    return TestClient(create_app(settings))


def test_healthz_answers_ok_and_is_never_cached(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(content_dir=write_content(tmp_path)))) as client:
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert response.headers["cache-control"] == "no-store"


def test_readyz_reports_each_check_and_200_when_all_pass(standin: FirestoreStandIn) -> None:
    with firestore_site(standin, cache_seconds=60) as site:
        response = site.get("/readyz")
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    assert response.json() == {
        "status": "ready",
        "failing": [],
        "checks": {
            "bundles": {"ok": True},
            "render_pool": {"ok": True, "contexts": 2, "size": 2},
            "content": {
                "ok": True,
                "collections": {
                    "projects": "fresh",
                    "collabrations": "fresh",
                    "slider": "fresh",
                    "stones": "fresh",
                },
            },
        },
    }


def test_not_ready_while_nothing_was_ever_read_and_the_store_is_down_then_ready(
    standin: FirestoreStandIn,
) -> None:
    standin.fault = Fault.UNAVAILABLE
    with firestore_site(standin, cache_seconds=0.3) as site:
        down = site.get("/readyz")
        # Pages are still served (with empty lists) while the instance is not ready.
        assert site.get("/projects").status_code == 200
        standin.fault = Fault.NONE
        time.sleep(0.4)  # the cache tries a failed collection again after its period
        up = site.get("/readyz")
    assert down.status_code == 503
    assert down.json()["status"] == "not ready"
    assert down.json()["failing"] == ["content"]
    assert down.json()["checks"]["content"]["collections"] == {
        "projects": "unavailable",
        "collabrations": "unavailable",
        "slider": "unavailable",
        "stones": "unavailable",
    }
    assert down.json()["checks"]["render_pool"]["ok"] is True
    # The store's error text stays in the server's log, not on a public endpoint.
    assert "stand-in" not in down.text
    assert up.status_code == 200
    assert up.json()["status"] == "ready"


def test_content_read_once_keeps_the_instance_ready_when_the_store_goes_down(
    standin: FirestoreStandIn,
) -> None:
    with firestore_site(standin, cache_seconds=0) as site:
        assert site.get("/readyz").status_code == 200
        standin.fault = Fault.UNAVAILABLE
        assert "Project 1" in site.get("/projects").text  # served stale; the refresh failed
        response = site.get("/readyz")
    assert response.status_code == 200
    assert response.json()["checks"]["content"]["collections"]["projects"] == "stale"


def test_probes_read_nothing_once_content_is_read(standin: FirestoreStandIn) -> None:
    with firestore_site(standin, cache_seconds=0) as site:
        site.get("/readyz")
        reads = standin.reads
        for _ in range(20):
            assert site.get("/readyz").status_code == 200
    assert reads == 4  # one read per collection
    assert standin.reads == reads


def test_probes_against_a_down_store_start_no_more_reads_than_the_cache_allows(
    standin: FirestoreStandIn,
) -> None:
    standin.fault = Fault.UNAVAILABLE
    with firestore_site(standin, cache_seconds=60) as site:
        assert site.get("/readyz").status_code == 503
        reads = standin.reads
        for _ in range(20):
            assert site.get("/readyz").status_code == 503
    assert reads > 0
    assert standin.reads == reads  # the failed reads are not retried before 60 s


def test_not_ready_when_a_client_bundle_file_is_missing(tmp_path: Path) -> None:
    bundles = tmp_path / "bundles"
    shutil.copytree(REPO_ROOT / "bundles", bundles)
    manifest = AssetManifest.load(bundles)
    (bundles / "client" / manifest.script.removeprefix("/assets/")).unlink()
    settings = Settings(content_dir=write_content(tmp_path / "content"), bundles_dir=bundles)
    with TestClient(create_app(settings)) as client:
        response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["failing"] == ["bundles"]
    assert response.json()["checks"]["bundles"] == {"ok": False, "missing": 1}


@pytest.mark.parametrize("path", ["/healthz", "/readyz"])
def test_probes_answer_whatever_the_host_header_while_pages_keep_the_host_check(
    tmp_path: Path, path: str
) -> None:
    # Platforms probe an instance at its own address, not at the site's name.
    settings = Settings(content_dir=write_content(tmp_path), allowed_hosts=("www.example.com",))
    with TestClient(create_app(settings), base_url="http://10.0.3.7:8000") as client:
        assert client.get(path).status_code == 200
        assert client.get("/").status_code == 400
