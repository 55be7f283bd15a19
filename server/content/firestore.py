"""The Firestore content store: google-cloud-firestore over gRPC.

The client honours GOOGLE_CLOUD_PROJECT, FIRESTORE_EMULATOR_HOST and the
standard Google credentials. Its default retry policy keeps retrying an
unavailable server for minutes; a page must not wait that long, so every read
carries a retry policy and a deadline of `timeout_seconds` in all.
"""

from __future__ import annotations

from typing import Any

import anyio
from google.api_core import exceptions as google_errors
from google.api_core import retry as retries
from google.cloud import firestore

from server.content.models import Collection, ContentItem, parse_documents
from server.content.photo_urls import PhotoUrlPolicy
from server.content.store import ContentUnavailableError

# Everything the client can raise for a failed read: API errors (unavailable,
# permission denied, deadline exceeded, ...) and the retry policy giving up.
_READ_ERRORS = (google_errors.GoogleAPIError, google_errors.RetryError)


class FirestoreContentStore:
    def __init__(
        self,
        client: firestore.Client,
        *,
        timeout_seconds: float,
        photo_urls: PhotoUrlPolicy | None = None,
    ) -> None:
        self._client = client
        self._timeout = timeout_seconds
        self._photo_urls = photo_urls or PhotoUrlPolicy()
        self._retry = retries.Retry(
            predicate=retries.if_transient_error,
            initial=0.1,
            maximum=1.0,
            multiplier=2.0,
            timeout=timeout_seconds,
        )

    @classmethod
    def connect(
        cls, *, project: str, timeout_seconds: float, photo_urls: PhotoUrlPolicy | None = None
    ) -> FirestoreContentStore:
        # Creating the client opens no connection, so a database that is down
        # at start-up does not stop the site from starting.
        return cls(
            firestore.Client(project=project),
            timeout_seconds=timeout_seconds,
            photo_urls=photo_urls,
        )

    async def fetch(self, collection: Collection) -> list[ContentItem]:
        try:
            # The client is synchronous; a worker thread keeps the event loop
            # free. If the deadline passes the thread is abandoned, and gRPC's
            # own timeout ends it soon after.
            with anyio.fail_after(self._timeout + 0.5):
                documents = await anyio.to_thread.run_sync(
                    self._read_all, collection, abandon_on_cancel=True
                )
        except TimeoutError as error:
            raise ContentUnavailableError(
                f"{collection.firestore_name}: no answer within {self._timeout:g} s"
            ) from error
        except _READ_ERRORS as error:
            raise ContentUnavailableError(f"{collection.firestore_name}: {error}") from error
        return parse_documents(collection, documents, self._photo_urls)

    def _read_all(self, collection: Collection) -> list[tuple[str, dict[str, Any]]]:
        # The whole collection, no filter, paging or ordering (the spec's one call).
        stream = self._client.collection(collection.firestore_name).stream(
            retry=self._retry, timeout=self._timeout
        )
        return [(snapshot.id, snapshot.to_dict() or {}) for snapshot in stream]

    async def close(self) -> None:
        self._client.close()  # type: ignore[no-untyped-call]  # untyped in the library
