from pathlib import Path

import pytest

from server.settings import ContentSource, LogFormat, Settings, SettingsError


def test_defaults_serve_the_embedded_local_content() -> None:
    settings = Settings.from_environment({})
    assert settings.content_source is ContentSource.LOCAL
    assert settings.content_dir.name == "content"
    assert settings.google_cloud_project is None
    assert settings.firestore_timeout_seconds == 2.5
    assert settings.log_format is LogFormat.TEXT
    assert settings.web_vitals is False


def test_environment_overrides_every_setting(tmp_path: Path) -> None:
    settings = Settings.from_environment(
        {
            "CONTENT_SOURCE": "Firestore",
            "CONTENT_DIR": str(tmp_path),
            "GOOGLE_CLOUD_PROJECT": "demo-x",
            "FIRESTORE_TIMEOUT_SECONDS": "1.5",
            "RENDER_POOL_SIZE": "3",
            "RENDER_TIMEOUT_SECONDS": "0.5",
            "LOG_LEVEL": "debug",
            "LOG_FORMAT": "JSON",
            "WEB_VITALS": "on",
            "IMAGE_ROUTE": "off",
            "IMAGE_CACHE_DIR": str(tmp_path / "images"),
            "IMAGE_CACHE_MB": "64",
            "IMAGE_FETCH_TIMEOUT_SECONDS": "3",
            "IMAGE_FETCH_MAX_MB": "8",
        }
    )
    assert settings.content_source is ContentSource.FIRESTORE
    assert settings.content_dir == tmp_path
    assert settings.google_cloud_project == "demo-x"
    assert settings.firestore_timeout_seconds == 1.5
    assert settings.render_pool_size == 3
    assert settings.render_timeout_seconds == 0.5
    assert settings.log_level == "DEBUG"
    assert settings.log_format is LogFormat.JSON
    assert settings.web_vitals is True
    assert settings.image_route is False
    assert settings.image_cache_dir == tmp_path / "images"
    assert settings.image_cache_mb == 64
    assert settings.image_fetch_timeout_seconds == 3
    assert settings.image_fetch_max_mb == 8


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("CONTENT_SOURCE", "mongodb", "expected one of local, firestore"),
        ("FIRESTORE_TIMEOUT_SECONDS", "soon", "expected a number"),
        ("RENDER_POOL_SIZE", "0", "above zero"),
        ("LOG_FORMAT", "xml", "expected one of text, json"),
        ("WEB_VITALS", "sometimes", "expected on or off"),
        ("STUDIO_SESSION_HOURS", "400", "Firebase's limits"),
        ("STUDIO_SESSION_HOURS", "0.05", "Firebase's limits"),
    ],
)
def test_a_bad_value_is_refused_with_its_name(name: str, value: str, message: str) -> None:
    with pytest.raises(SettingsError, match=message) as error:
        Settings.from_environment({name: value})
    assert name in str(error.value)
