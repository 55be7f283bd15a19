"""The Firestore content store: google-cloud-firestore's public GAPIC client over gRPC. One
connection carries every read, probe and listener, so a probe that answers vouches for the
listeners; one with no answer replaces it (docs/operating.md, "Silent streams")."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
import grpc
from google.api_core import exceptions as google_errors
from google.api_core import retry as retries
from google.cloud.firestore_v1.services.firestore import FirestoreClient
from google.cloud.firestore_v1.services.firestore.transports import FirestoreGrpcTransport
from google.cloud.firestore_v1.types import (
    ListCollectionIdsRequest,
    RunQueryRequest,
    RunQueryResponse,
)

from server.content.cache import ContentUnavailableError
from server.content.listener import (
    CollectionListener,
    ListenPosition,
    OnDocuments,
    OnStopped,
    decode_fields,
    whole_collection,
)
from server.content.models import Collection, ContentItem, parse_documents
from server.content.photo_policy import PhotoUrlPolicy

logger = logging.getLogger(__name__)

T = TypeVar("T")

MAX_ATTEMPTS_PER_READ = 4  # attempts per collection read, first try and retries together

_CHANNEL_OPTIONS = [
    # A connection of its own: gRPC otherwise shares one between channels to the
    # same address, and a new channel would go on using the one found dead.
    ("grpc.use_local_subchannel_pool", 1),
    ("grpc.max_receive_message_length", -1),  # as the library's: a document may be large
]
_KEEPALIVE = [("grpc.keepalive_time_ms", 30_000)]  # the emulator refuses pings this frequent


def open_api(emulator_host: str | None) -> FirestoreClient:
    """A GAPIC client on a channel of its own, to the emulator or to Firestore."""
    if emulator_host:
        channel = grpc.insecure_channel(emulator_host, options=_CHANNEL_OPTIONS)
    else:
        # Credentials from the environment (GOOGLE_APPLICATION_CREDENTIALS, the platform's).
        channel = FirestoreGrpcTransport.create_channel(options=[*_CHANNEL_OPTIONS, *_KEEPALIVE])
    return FirestoreClient(transport=FirestoreGrpcTransport(channel=channel))


class FirestoreContentStore:
    def __init__(
        self,
        *,
        project: str,
        timeout_seconds: float,
        photo_urls: PhotoUrlPolicy | None = None,
        emulator_host: str | None = None,
    ) -> None:
        self._emulator_host = emulator_host or os.environ.get("FIRESTORE_EMULATOR_HOST")
        # Creating the channel opens no connection, so a database that is down
        # at start-up does not stop the site from starting.
        self._api = open_api(self._emulator_host)
        self._database = f"projects/{project}/databases/(default)"
        self._metadata = [("google-cloud-resource-prefix", self._database)]
        if self._emulator_host:
            self._metadata.append(("authorization", "Bearer owner"))  # as the library does
        self._timeout = timeout_seconds
        self.photo_urls = photo_urls or PhotoUrlPolicy()
        # Each collection's latest listener: the next one resumes where it got to.
        self._listeners: dict[Collection, CollectionListener] = {}

    def listen(
        self, collection: Collection, *, on_documents: OnDocuments, on_stopped: OnStopped
    ) -> CollectionListener:
        """A real-time listener on the collection; its callbacks run on its own thread."""
        previous = self._listeners.get(collection)
        listener = CollectionListener(
            self._api,
            database=self._database,
            collection_id=collection.firestore_name,
            metadata=self._metadata,
            position=previous.position if previous is not None else ListenPosition(),
            on_documents=on_documents,
            on_stopped=on_stopped,
        )
        self._listeners[collection] = listener
        return listener

    async def fetch(self, collection: Collection) -> list[ContentItem]:
        documents = await self._ask(
            lambda api: self._read_all(api, collection), what=collection.firestore_name
        )
        return parse_documents(collection, documents, self.photo_urls)

    async def probe(self) -> None:
        """A call on the listeners' connection that reads no document; fails if unanswered."""
        request = ListCollectionIdsRequest(parent=f"{self._database}/documents", page_size=1)
        await self._ask(
            lambda api: api.list_collection_ids(
                request=request, retry=None, timeout=self._timeout, metadata=self._metadata
            ),
            what="Firestore",
        )

    async def _ask(self, call: Callable[[FirestoreClient], T], *, what: str) -> T:
        api = self._api
        try:
            # The client is synchronous; a worker thread keeps the event loop
            # free. If the deadline passes the thread is abandoned, and gRPC's
            # own timeout and the attempt budget end it soon after.
            with anyio.fail_after(self._timeout):
                return await anyio.to_thread.run_sync(call, api, abandon_on_cancel=True)
        except (TimeoutError, google_errors.GoogleAPIError) as error:  # RetryError is one too
            if not _no_answer(error):
                raise ContentUnavailableError(f"{what}: {error}") from error
            if self._api is api:  # else another call already replaced it
                self._api = open_api(self._emulator_host)
                logger.warning(
                    "Firestore gave no answer within %g s: opening a new connection"
                    " (the old one may have been dropped silently) and ending its listeners",
                    self._timeout,
                )
                await anyio.to_thread.run_sync(api.transport.close)
            detail = f" ({error})" if str(error) else ""
            raise ContentUnavailableError(
                f"{what}: no answer within {self._timeout:g} s{detail}"
            ) from error

    def _read_all(
        self, api: FirestoreClient, collection: Collection
    ) -> list[tuple[str, dict[str, Any]]]:
        request = RunQueryRequest(
            parent=f"{self._database}/documents",
            structured_query=whole_collection(collection.firestore_name),
        )

        def attempt() -> list[tuple[str, dict[str, Any]]]:
            documents = []
            responses = api.run_query(
                request=request, retry=None, timeout=self._timeout, metadata=self._metadata
            )
            for response in responses:
                raw = RunQueryResponse.pb(response)
                if raw.HasField("document"):
                    name = raw.document.name.rpartition("/")[2]
                    documents.append((name, decode_fields(raw.document.fields)))
            return documents

        # The library's default retries for minutes: here a few attempts within the deadline.
        retries_left = iter(range(MAX_ATTEMPTS_PER_READ - 1))
        retry = retries.Retry(
            predicate=lambda error: (
                retries.if_transient_error(error) and next(retries_left, None) is not None
            ),
            initial=0.1,
            maximum=1.0,
            multiplier=2.0,
            timeout=self._timeout,
        )
        return retry(attempt)()

    async def close(self) -> None:
        await anyio.to_thread.run_sync(self._api.transport.close)


def _no_answer(error: Exception) -> bool:
    # The deadline passed with no answer; gRPC's own can end the call just before ours.
    if isinstance(error, google_errors.RetryError):
        return error.cause is None or isinstance(error.cause, google_errors.DeadlineExceeded)
    return isinstance(error, TimeoutError | google_errors.DeadlineExceeded)
