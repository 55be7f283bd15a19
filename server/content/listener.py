"""A Firestore real-time listener on one collection, on the public GAPIC `FirestoreClient.listen`
rather than the library's `on_snapshot` (docs/architecture.md, section 3). Both callbacks run
on the listener's thread."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from google.api_core import exceptions as google_errors
from google.cloud.firestore_v1.services.firestore import FirestoreClient
from google.cloud.firestore_v1.types import (
    ListenRequest,
    ListenResponse,
    StructuredQuery,
    Target,
    TargetChange,
)

logger = logging.getLogger(__name__)

_TARGET_ID = 1
_TargetChangeType = TargetChange.TargetChangeType


@dataclass(frozen=True)
class ListenedDocument:
    """A document as a listener saw it. `update_time` changes with every write."""

    id: str
    fields: dict[str, Any]
    update_time: datetime | None


@dataclass(frozen=True)
class ListenPosition:
    """Where a listen got to: its documents at the last consistent point, and a token to resume."""

    documents: dict[str, ListenedDocument] = field(default_factory=dict)  # by full name
    resume_token: bytes = b""


class _StreamUnusable(Exception):
    """The server said something after which this stream cannot go on."""


OnDocuments = Callable[[Sequence[ListenedDocument]], None]  # the whole collection, by document id
OnStopped = Callable[[str], None]  # why the listener stopped: the gRPC error, or a description


class CollectionListener:
    """One listen stream. `close()` blocks briefly: call it off the event loop."""

    def __init__(
        self,
        api: FirestoreClient,
        *,
        database: str,
        collection_id: str,
        metadata: Sequence[tuple[str, str]],
        position: ListenPosition,
        on_documents: OnDocuments,
        on_stopped: OnStopped,
    ) -> None:
        self._on_documents = on_documents
        self._on_stopped = on_stopped
        self._closed = threading.Event()
        self.position = position
        self._pending: dict[str, ListenedDocument | None] = {}  # None: removed
        self._current = False
        self._delivered = False
        target = Target(
            target_id=_TARGET_ID,
            resume_token=position.resume_token,
            query=Target.QueryTarget(
                parent=f"{database}/documents", structured_query=whole_collection(collection_id)
            ),
        )
        # The request stream stays open (the server ends the call if it closes)
        # until close() puts the None that ends it.
        self._requests: queue.Queue[ListenRequest | None] = queue.Queue()
        self._requests.put(ListenRequest(database=database, add_target=target))
        self._responses: Any = None  # the call, once the thread has started it
        self._thread = threading.Thread(
            target=self._read, args=(api, metadata), name=f"listen {collection_id}", daemon=True
        )
        self._thread.start()

    def close(self) -> None:
        self._closed.set()
        self._requests.put(None)
        if self._responses is not None:
            self._responses.cancel()
        self._thread.join(timeout=5)

    def _read(self, api: FirestoreClient, metadata: Sequence[tuple[str, str]]) -> None:
        try:
            # Started here, not in __init__: the call waits for the server's first answer.
            self._responses = api.listen(
                requests=iter(self._requests.get, None), retry=None, timeout=None, metadata=metadata
            )
            if self._closed.is_set():  # closed while it started: close() may not have seen it
                self._responses.cancel()
            for response in self._responses:
                if self._closed.is_set():
                    return
                self._handle(ListenResponse.pb(response))
            reason = "the server ended the stream"
        except (google_errors.GoogleAPICallError, _StreamUnusable) as error:
            reason = str(error)
        except Exception as error:  # a bug here must still be reported, not end the thread silently
            logger.exception("Listening failed")
            reason = repr(error)
        if not self._closed.is_set():
            self._on_stopped(f"listener stopped: {reason}")

    def _handle(self, response: Any) -> None:  # noqa: ANN401 - a raw ListenResponse message
        kind = response.WhichOneof("response_type")
        if kind == "target_change":
            self._target_change(response.target_change)
        elif kind == "document_change":
            change = response.document_change
            if _TARGET_ID in change.target_ids:
                self._pending[change.document.name] = ListenedDocument(
                    id=change.document.name.rpartition("/")[2],
                    fields=decode_fields(change.document.fields),
                    update_time=change.document.update_time.ToDatetime(tzinfo=UTC),
                )
            elif _TARGET_ID in change.removed_target_ids:
                self._pending[change.document.name] = None
        elif kind in ("document_delete", "document_remove"):
            self._pending[getattr(response, kind).document] = None
        elif kind == "filter" and response.filter.count != len(self._documents_after_pending()):
            # The server counts differently: what we hold is wrong. Start over.
            self.position = ListenPosition()
            raise _StreamUnusable("the listener's documents differ from the server's count")

    def _target_change(self, change: Any) -> None:  # noqa: ANN401 - a raw TargetChange message
        kind = change.target_change_type
        if kind == _TargetChangeType.REMOVE:
            raise _StreamUnusable(f"the server removed the listen target: {change.cause.message}")
        if kind == _TargetChangeType.RESET:
            # Every document is sent again; those that are not have gone.
            self._pending = dict.fromkeys(self.position.documents)
            self._current = False
        elif kind == _TargetChangeType.CURRENT:
            self._current = True
        elif (
            kind == _TargetChangeType.NO_CHANGE
            and not change.target_ids
            and change.HasField("read_time")
            and self._current
        ):
            self._consistent(change.resume_token)

    def _documents_after_pending(self) -> dict[str, ListenedDocument]:
        documents = {**self.position.documents, **self._pending}
        return {name: document for name, document in documents.items() if document is not None}

    def _consistent(self, resume_token: bytes) -> None:
        changed = bool(self._pending)
        documents = self._documents_after_pending()
        self._pending = {}
        self.position = ListenPosition(documents, resume_token)
        if changed or not self._delivered:
            self._delivered = True
            self._on_documents([documents[name] for name in sorted(documents)])


def whole_collection(collection_id: str) -> StructuredQuery:
    # No filter, paging or ordering: the spec's one call, for reads and listeners alike.
    return StructuredQuery(from_=[StructuredQuery.CollectionSelector(collection_id=collection_id)])


def decode_fields(fields: Any) -> dict[str, Any]:  # noqa: ANN401 - a raw map of Values
    """A document's fields as plain Python values."""
    return {name: _plain(value) for name, value in fields.items()}


def _plain(value: Any) -> Any:  # noqa: ANN401 - a raw Value message in, any JSON-like value out
    kind = value.WhichOneof("value_type")
    if kind == "map_value":
        return decode_fields(value.map_value.fields)
    if kind == "array_value":
        return [_plain(item) for item in value.array_value.values]
    if kind == "timestamp_value":
        return value.timestamp_value.ToDatetime(tzinfo=UTC)
    if kind in (None, "null_value"):
        return None
    if kind == "geo_point_value":
        return (value.geo_point_value.latitude, value.geo_point_value.longitude)
    return getattr(value, kind)
