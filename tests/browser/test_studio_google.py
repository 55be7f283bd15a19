"""Sign in with Google on the studio's sign-in page, in Chromium, on the Firebase emulators.

Offline, the SDK's popup cannot run to the end: before it opens the popup it loads
Google's iframe library from https://apis.google.com/js/api.js, which the Auth
emulator's own helper iframe needs too. So these tests drive each real part
that runs offline: the page's script and its CSP up to that request; the
emulator's Google widget (add an account, sign in), whose result goes to the
emulator's token API as the SDK sends it; and the page's form that hands the
ID token to the server, which makes the session of a staff account only.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from urllib.parse import urlencode

import httpx2 as httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from harness.firebase_emulators import AuthEmulator, StorageEmulator, firebase_studio_env
from harness.firestore_emulator import FirestoreEmulator
from harness.live_server import LiveServer
from server.settings import REPO_ROOT
from server.site.company import load_company
from server.studio.sessions import COOKIE_NAME

pytestmark = pytest.mark.emulator

STAFF_GOOGLE = "layla.staff@example.com"
APP_NAME = "studio"  # ui/studio/googleSignIn.ts names its Firebase app so


@pytest.fixture(scope="module")
def site(
    firestore_emulator: FirestoreEmulator,
    auth_emulator: AuthEmulator,
    storage_emulator: StorageEmulator,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("studio-google")
    env = firebase_studio_env(firestore_emulator, auth_emulator, storage_emulator, folder)
    env["STUDIO_STAFF_EMAILS"] = STAFF_GOOGLE
    with LiveServer(env=env, log_path=folder / "uvicorn.log") as server:
        yield server


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    yield context
    context.close()


def google_id_token_from_widget(page: Page, auth: AuthEmulator, email: str) -> str:
    """A Google account made in the Auth emulator's own widget, signed in: its Firebase ID token.

    The widget runs as it does for signInWithRedirect: it keeps its result in its
    origin's sessionStorage, where the SDK's helper iframe would read it, and the
    result goes to accounts:signInWithIdp as the SDK sends it.
    """
    api_key = load_company(REPO_ROOT / "company.toml").firebase_api_key
    assert api_key is not None
    landing = f"http://{auth.host}/emulator/landing"
    widget = f"http://{auth.host}/emulator/auth/handler?" + urlencode(
        {
            "apiKey": api_key,
            "appName": APP_NAME,
            "authType": "signInViaRedirect",
            "providerId": "google.com",
            "redirectUrl": landing,
            "eventId": "1",
        }
    )
    page.goto(widget)
    expect(page.get_by_text("Sign-in with Google.com")).to_be_visible()
    page.get_by_role("button", name="Add new account").click()
    page.locator("#email-input").fill(email)
    page.locator("#display-name-input").fill("Layla")
    page.locator("#sign-in").click()
    page.wait_for_url(landing)
    stored = page.evaluate(f"sessionStorage['firebase:redirectEvent:{api_key}:{APP_NAME}']")
    event = json.loads(stored)
    assert event["error"] is None
    signed_in = httpx.post(
        f"http://{auth.host}/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp",
        params={"key": api_key},
        json={
            "requestUri": event["urlResponse"],
            "postBody": event["postBody"],
            "returnSecureToken": True,
        },
    )
    signed_in.raise_for_status()
    assert signed_in.json()["providerId"] == "google.com"
    return str(signed_in.json()["idToken"])


def hand_token_to_server(page: Page, id_token: str) -> None:
    # What ui/studio/googleSignIn.ts does once the popup gives the token.
    page.locator("#google-token input[name=id_token]").evaluate(
        "(input, token) => { input.value = token; input.form.submit(); }", id_token
    )


def test_the_google_button_starts_firebase_sign_in_within_the_pages_csp(
    context: BrowserContext, site: LiveServer
) -> None:
    asked: list[str] = []

    def offline(route: Route) -> None:
        asked.append(route.request.url)
        route.abort("internetdisconnected")

    context.route("https://apis.google.com/**", offline)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    response = page.goto(site.url + "/studio")
    assert response is not None
    assert response.headers["cross-origin-opener-policy"] == "same-origin-allow-popups"

    button = page.get_by_role("button", name="Sign in with Google")
    expect(button).to_be_visible()
    button.click()
    # The SDK asked for Google's iframe library (the CSP let it), and says so when it cannot.
    expect(page.get_by_role("alert")).to_have_text(
        "Google sign-in did not finish. Try again, or use your email and password."
    )
    assert any(url.startswith("https://apis.google.com/js/api.js") for url in asked)
    assert not [text for text in problems if "Content Security Policy" in text]
    expect(button).to_be_enabled()


def test_a_staff_google_account_lands_in_the_studio(
    context: BrowserContext, site: LiveServer, auth_emulator: AuthEmulator
) -> None:
    page = context.new_page()
    id_token = google_id_token_from_widget(page, auth_emulator, STAFF_GOOGLE)
    page.goto(site.url + "/studio")
    hand_token_to_server(page, id_token)
    expect(page).to_have_url(site.url + "/studio/projects")
    expect(page.get_by_role("heading", level=1)).to_have_text("Projects")
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()


def test_a_google_account_that_is_not_staff_is_told_it_has_no_access(
    context: BrowserContext, site: LiveServer, auth_emulator: AuthEmulator
) -> None:
    page = context.new_page()
    id_token = google_id_token_from_widget(page, auth_emulator, "guest.google@example.com")
    page.goto(site.url + "/studio")
    hand_token_to_server(page, id_token)
    expect(page.get_by_role("alert")).to_have_text("You have no access to the studio.")
    assert COOKIE_NAME not in {cookie["name"] for cookie in context.cookies()}
    page.goto(site.url + "/studio/projects")
    expect(page.get_by_role("alert")).to_have_text("Your session has ended. Please sign in again.")


def test_without_javascript_email_and_password_is_the_only_way_in(
    browser: Browser, site: LiveServer
) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(site.url + "/studio")
        expect(page.get_by_role("button", name="Sign in with Google")).to_be_hidden()
        expect(page.get_by_label("Email")).to_be_visible()
        expect(page.get_by_role("button", name="Sign in", exact=True)).to_be_visible()
    finally:
        context.close()
