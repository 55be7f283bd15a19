from pathlib import Path

import pytest

from server.content.photo_policy import PhotoUrlPolicy


@pytest.fixture
def policy(tmp_path: Path) -> PhotoUrlPolicy:
    (tmp_path / "projects").mkdir()
    (tmp_path / "projects" / "villa.jpg").write_bytes(b"jpeg")
    (tmp_path.parent / "secret.jpg").write_bytes(b"outside")
    return PhotoUrlPolicy(images_dir=tmp_path)


@pytest.mark.parametrize(
    "url",
    [
        "https://firebasestorage.googleapis.com/v0/b/x.appspot.com/o/a.jpg?alt=media&token=1",
        "HTTPS://storage.googleapis.com/bucket/a.jpg",
        "/images/projects/villa.jpg",
        "/images/projects/villa.jpg?v=2",
    ],
)
def test_accepted(policy: PhotoUrlPolicy, url: str) -> None:
    assert policy.problem(url) is None


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("javascript:alert(1)", "https: URL or a path"),
        ("JaVaScRiPt:alert(1)", "https: URL or a path"),
        ("java\tscript:alert(1)", "control characters"),
        ("data:image/svg+xml;base64,PHN2Zz4=", "https: URL or a path"),
        ("//evil.example/a.jpg", "https: URL or a path"),
        ("\\\\evil.example/a.jpg", "backslashes"),
        ("https:///a.jpg", "must name a host"),
        ("https://user:pass@evil.example/a.jpg", "without credentials"),
        ("http://example.com/a.jpg", "only allowed in development"),
        ("images/projects/villa.jpg", "https: URL or a path"),
        ("/images/../secret.jpg", "climb out"),
        ("/images/%2e%2e/secret.jpg", "climb out"),
        ("/images/projects/../../secret.jpg", "climb out"),
        ("/images//evil.example/a.jpg", "climb out"),
        ("/images/projects/missing.jpg", "no image"),
        ("", "https: URL or a path"),
    ],
)
def test_refused_with_a_reason(policy: PhotoUrlPolicy, url: str, reason: str) -> None:
    problem = policy.problem(url)
    assert problem is not None
    assert reason in problem


def test_http_is_accepted_in_development() -> None:
    assert PhotoUrlPolicy(allow_http=True).problem("http://127.0.0.1:9000/a.jpg") is None
