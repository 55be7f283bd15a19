"""The README stays true: every setting the server reads is documented there."""

import re

from server.settings import REPO_ROOT

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")


def test_every_environment_variable_the_settings_read_is_in_the_readme() -> None:
    source = (REPO_ROOT / "server" / "settings.py").read_text(encoding="utf-8")
    names = set(re.findall(r'"([A-Z][A-Z0-9_]{2,})"', source))
    assert {"CONTENT_SOURCE", "FIRESTORE_TIMEOUT_SECONDS"} <= names  # the scan finds them
    undocumented = sorted(name for name in names if f"`{name}`" not in README)
    assert undocumented == []


def test_the_readme_names_the_two_commands_and_ci_runs_the_test_one() -> None:
    assert "./dev serve" in README
    assert "./dev test" in README
    ci = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "exec ./dev test" in ci
