"""What the Google sign-in asks of the browser in production: its CSP sources, its config."""

from __future__ import annotations

import json

from server.studio.sessions import GoogleSignIn

PRODUCTION = GoogleSignIn(
    api_key="AIzaSy-EXAMPLE",
    auth_domain="fine-stone.firebaseapp.com",
    project_id="fine-stone",
    script_url="/assets/studio-googleSignIn-ABC.js",
)


def test_production_allows_googles_token_apis_and_the_projects_auth_domain_only() -> None:
    assert PRODUCTION.csp_directives() == {
        "script-src": "'self' https://apis.google.com",
        "connect-src": "https://identitytoolkit.googleapis.com https://securetoken.googleapis.com",
        "frame-src": "https://fine-stone.firebaseapp.com",
    }


def test_the_page_config_names_the_emulator_only_when_there_is_one() -> None:
    assert json.loads(PRODUCTION.page_config) == {
        "apiKey": "AIzaSy-EXAMPLE",
        "authDomain": "fine-stone.firebaseapp.com",
        "projectId": "fine-stone",
        "emulator": None,
    }
    emulated = GoogleSignIn(
        api_key="k",
        auth_domain="d",
        project_id="p",
        script_url="/s.js",
        emulator_host="127.0.0.1:9099",
    )
    assert json.loads(emulated.page_config)["emulator"] == "http://127.0.0.1:9099"
    assert emulated.csp_directives()["frame-src"] == "http://127.0.0.1:9099"
