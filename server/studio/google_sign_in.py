"""The sign-in page's "Sign in with Google": the Firebase web config its script reads, and
the sources its CSP must allow for Firebase Authentication's popup, and nothing more."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

IDENTITY_TOOLKIT_HOST = "identitytoolkit.googleapis.com"
SECURE_TOKEN_HOST = "securetoken.googleapis.com"  # noqa: S105 - a host name
# The Firebase SDK loads Google's iframe library (gapi) here to talk to the popup.
GAPI_ORIGIN = "https://apis.google.com"


def auth_emulator_host() -> str | None:
    """FIREBASE_AUTH_EMULATOR_HOST (host:port), the Admin SDK's own switch to the Auth emulator."""
    return os.environ.get("FIREBASE_AUTH_EMULATOR_HOST") or None


@dataclass(frozen=True, kw_only=True)
class GoogleSignIn:
    api_key: str
    auth_domain: str
    project_id: str
    script_url: str  # /assets/studio-googleSignIn-<hash>.js, as build.py recorded it
    emulator_host: str | None = None

    @property
    def page_config(self) -> str:
        """The button's data-firebase attribute (escaped by the template): public by design."""
        config = {
            "apiKey": self.api_key,
            "authDomain": self.auth_domain,
            "projectId": self.project_id,
            "emulator": f"http://{self.emulator_host}" if self.emulator_host else None,
        }
        return json.dumps(config, separators=(",", ":"))

    def csp_directives(self) -> dict[str, str]:
        """What the popup sign-in needs beyond the studio's plain forms."""
        if self.emulator_host:
            # The emulator serves the token API, the popup's page and its helper iframe.
            api = frame = f"http://{self.emulator_host}"
        else:
            api = f"https://{IDENTITY_TOOLKIT_HOST} https://{SECURE_TOKEN_HOST}"
            frame = f"https://{self.auth_domain}"
        return {"script-src": f"'self' {GAPI_ORIGIN}", "connect-src": api, "frame-src": frame}
