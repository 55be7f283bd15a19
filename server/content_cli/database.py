"""The Firestore side of push and pull: which project, and the collections read whole.

Same configuration as the site (server/settings.py): GOOGLE_CLOUD_PROJECT, else
company.toml's [firebase] project_id; FIRESTORE_EMULATOR_HOST and the standard
Google credentials are read by the client library itself.
"""

from __future__ import annotations

import os

from google.api_core import exceptions as google_errors
from google.api_core import retry as retries
from google.auth import exceptions as auth_errors
from google.cloud import firestore

from server.company import CompanyFileError, load_company
from server.content.models import Collection
from server.content_cli.validate import Documents
from server.settings import Settings

# Everything that means "Firestore could not be used": API errors, the retry
# policy giving up, no credentials found. Caught once, in main.
FIRESTORE_ERRORS = (
    google_errors.GoogleAPIError,
    google_errors.RetryError,
    auth_errors.GoogleAuthError,
)


class ConfigurationError(Exception):
    """The settings or company.toml do not say which project to use."""


def target_project(settings: Settings) -> str:
    if settings.google_cloud_project:
        return settings.google_cloud_project
    try:
        return load_company(settings.company_file).firebase_project_id
    except CompanyFileError as error:
        raise ConfigurationError(f"no GOOGLE_CLOUD_PROJECT and {error}") from error


def describe_target(project: str) -> str:
    """Where writes go, said before any is made, so a wrong project is caught by eye."""
    emulator = os.environ.get("FIRESTORE_EMULATOR_HOST")
    where = f"the emulator at {emulator}" if emulator else "Google Cloud"
    return f"Firestore project {project} ({where})"


def retry_policy(timeout_seconds: float) -> retries.Retry:
    # The library's default keeps retrying an unreachable server for minutes;
    # someone at a terminal should hear about a wrong host much sooner.
    return retries.Retry(
        predicate=retries.if_transient_error,
        initial=0.2,
        maximum=2.0,
        multiplier=2.0,
        timeout=timeout_seconds,
    )


def read_content(
    client: firestore.Client, *, timeout_seconds: float
) -> dict[Collection, Documents]:
    """Every document of every collection, by id."""
    retry = retry_policy(timeout_seconds)
    return {
        collection: {
            snapshot.id: snapshot.to_dict() or {}
            for snapshot in client.collection(collection.firestore_name).stream(
                retry=retry, timeout=timeout_seconds
            )
        }
        for collection in Collection
    }
