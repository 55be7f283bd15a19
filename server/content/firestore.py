"""The Firestore content store: google-cloud-firestore over gRPC.

The client honours GOOGLE_CLOUD_PROJECT, FIRESTORE_EMULATOR_HOST and the
standard Google credentials. Its default retry policy keeps retrying an
unavailable server for minutes; a page must not wait that long, so every read
carries a retry policy and a deadline of `timeout_seconds` in all.

A read that gets no answer at all within its deadline may be talking into a
connection dropped silently on the way (a NAT, a load balancer): gRPC keeps
using it, and every later read and listener would hang the same way. So the
store then opens a new client, on a new connection, for what follows, and
closes the old one's channel, which ends the listeners on it (their
supervisor subscribes them again, on the new connection).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import anyio
from google.api_core import exceptions as google_errors
from google.api_core import retry as retries
from google.cloud import firestore

from server.content.firestore_client import OwnConnectionClient
from server.content.listener import CollectionListener, OnDocuments, OnStopped
from server.content.models import Collection, ContentItem, parse_documents
from server.content.photo_urls import PhotoUrlPolicy
from server.content.store import ContentUnavailableError

# Everything the client can raise for a failed read: API errors (unavailable,
# permission denied, deadline exceeded, ...) and the retry policy giving up.
_READ_ERRORS = (google_errors.GoogleAPIError, google_errors.RetryError)

logger = logging.getLogger(__name__)


# Attempts per collection read, first try, retries and stream resumes together.
MAX_ATTEMPTS_PER_READ = 4


class _AttemptBudget:
    """A retry predicate: transient errors are retried until the budget is spent."""

    def __init__(self, attempts: int) -> None:
        self._retries_left = attempts - 1

    def __call__(self, error: Exception) -> bool:
        if not retries.if_transient_error(error) or self._retries_left <= 0:
            return False
        self._retries_left -= 1
        return True


class FirestoreContentStore:
    def __init__(
        self,
        client: firestore.Client,
        *,
        timeout_seconds: float,
        photo_urls: PhotoUrlPolicy | None = None,
        reconnect: Callable[[], firestore.Client] | None = None,
    ) -> None:
        self._client = client
        # Makes a new client (a new connection) after a read with no answer.
        self._reconnect = reconnect
        self._timeout = timeout_seconds
        self._photo_urls = photo_urls or PhotoUrlPolicy()

    @classmethod
    def connect(
        cls, *, project: str, timeout_seconds: float, photo_urls: PhotoUrlPolicy | None = None
    ) -> FirestoreContentStore:
        # Creating the client opens no connection, so a database that is down
        # at start-up does not stop the site from starting.
        return cls(
            OwnConnectionClient(project=project),
            timeout_seconds=timeout_seconds,
            photo_urls=photo_urls,
            reconnect=lambda: OwnConnectionClient(project=project),
        )

    @property
    def photo_urls(self) -> PhotoUrlPolicy:
        return self._photo_urls

    def listen(
        self,
        collection: Collection,
        *,
        on_documents: OnDocuments,
        on_stopped: OnStopped,
    ) -> CollectionListener:
        """A real-time listener on the collection; its callbacks run on the client's threads."""
        return CollectionListener(
            self._client,
            collection.firestore_name,
            on_documents=on_documents,
            on_stopped=on_stopped,
        )

    async def fetch(self, collection: Collection) -> list[ContentItem]:
        client = self._client
        try:
            # The client is synchronous; a worker thread keeps the event loop
            # free. If the deadline passes the thread is abandoned, and gRPC's
            # own timeout and the attempt budget end it soon after.
            with anyio.fail_after(self._timeout):
                documents = await anyio.to_thread.run_sync(
                    self._read_all, client, collection, abandon_on_cancel=True
                )
        except TimeoutError as error:
            await self._replace_client(client)
            raise ContentUnavailableError(
                f"{collection.firestore_name}: no answer within {self._timeout:g} s"
            ) from error
        except _READ_ERRORS as error:
            if not _no_answer(error):
                raise ContentUnavailableError(f"{collection.firestore_name}: {error}") from error
            # gRPC's own deadline can end the read just before ours: the same silence.
            await self._replace_client(client)
            raise ContentUnavailableError(
                f"{collection.firestore_name}: no answer within {self._timeout:g} s ({error})"
            ) from error
        return parse_documents(collection, documents, self._photo_urls)

    async def _replace_client(self, failed: firestore.Client) -> None:
        if self._reconnect is None or self._client is not failed:
            return  # no way to, or another read already did
        self._client = self._reconnect()
        logger.warning(
            "Firestore gave no answer within %g s: opening a new connection"
            " (the old one may have been dropped silently) and ending its listeners",
            self._timeout,
        )
        if isinstance(failed, OwnConnectionClient):
            await anyio.to_thread.run_sync(failed.close_connection)

    def _read_all(
        self, client: firestore.Client, collection: Collection
    ) -> list[tuple[str, dict[str, Any]]]:
        # The whole collection, no filter, paging or ordering (the spec's one call).
        stream = client.collection(collection.firestore_name).stream(
            retry=self._new_retry(), timeout=self._timeout
        )
        return [(snapshot.id, snapshot.to_dict() or {}) for snapshot in stream]

    def _new_retry(self) -> retries.Retry:
        # The client also resumes a stream that breaks half-way, at once and
        # for as long as this predicate says yes: without a budget that is a
        # tight loop against a failing database. One budget per read.
        return retries.Retry(
            predicate=_AttemptBudget(MAX_ATTEMPTS_PER_READ),
            initial=0.1,
            maximum=1.0,
            multiplier=2.0,
            timeout=self._timeout,
        )

    async def close(self) -> None:
        self._client.close()  # type: ignore[no-untyped-call]  # untyped in the library


def _no_answer(error: Exception) -> bool:
    """The read's deadline passed with no answer (not an error the database sent)."""
    if isinstance(error, google_errors.RetryError):
        return error.cause is None or isinstance(error.cause, google_errors.DeadlineExceeded)
    return isinstance(error, google_errors.DeadlineExceeded)
