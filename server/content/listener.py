# The library's watch and bidi modules have no type hints.
# mypy: disable-error-code="no-untyped-call"
"""A Firestore real-time listener on one collection, that says when it stops.

google-cloud-firestore's `on_snapshot` runs a `Watch`: a gRPC `Listen` stream
read by a thread of its own. Two of its habits do not suit a server:
- when the stream breaks it reopens it at once, and again, for as long as the
  error looks transient: against a database that is down that is thousands of
  reopens a second, with no error ever reaching the caller;
- when it does give up, it raises the error in a thread of its own (a stray
  traceback) and the listener just stops: `is_active` turns false, silently.

So the `Watch` here (a subclass; `on_snapshot` builds the same one) reopens a
broken stream once, resuming where it was, as the library means to for the
hourly stream resets, but only when the stream had answered since it last
opened. A stream that breaks again before answering is ended, and the error is
handed to `on_stopped`. Reopening later, with backoff, is the caller's job
(server/content/live.py).

Both callbacks run on the client's threads, never on the event loop.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from google.api_core.bidi import BackgroundConsumer, ResumableBidiRpc
from google.cloud import firestore
from google.cloud.firestore_v1 import watch as watch_module
from google.cloud.firestore_v1.base_document import DocumentSnapshot

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ListenedDocument:
    """A document as a listener saw it. `update_time` changes with every write."""

    id: str
    fields: dict[str, Any]
    update_time: datetime | None


# The whole collection, in the order Firestore keeps it (by document id).
OnDocuments = Callable[[Sequence[ListenedDocument]], None]
# Why the listener stopped: the gRPC error, or a description.
OnStopped = Callable[[str], None]


class CollectionListener:
    """One listener. `close()` blocks for up to about a second: call it off the event loop."""

    def __init__(
        self,
        client: firestore.Client,
        collection_name: str,
        *,
        on_documents: OnDocuments,
        on_stopped: OnStopped,
    ) -> None:
        self._on_documents = on_documents
        self._on_stopped = on_stopped
        self._closed_by_us = False
        # What CollectionReference.on_snapshot does, with the Watch below.
        self._watch = _watch_class(self).for_query(
            client.collection(collection_name)._query(), self._snapshot, DocumentSnapshot
        )

    @property
    def alive(self) -> bool:
        """The stream's thread still runs (false once it ended, for whatever reason)."""
        return bool(self._watch.is_active)

    def close(self) -> None:
        self._closed_by_us = True
        self._watch.close()

    def _snapshot(
        self, documents: list[DocumentSnapshot[Any]], _changes: object, _read_time: object
    ) -> None:
        # On the stream's thread. Plain values only cross to the event loop.
        try:
            self._on_documents(
                [
                    ListenedDocument(
                        id=document.id,
                        fields=document.to_dict() or {},
                        update_time=document.update_time,
                    )
                    for document in documents
                ]
            )
        except Exception:
            # Raised here it would end the stream's thread without a word.
            logger.exception("Handing a snapshot of %s over failed", self)

    def _stopped(self, error: object) -> None:
        if self._closed_by_us:
            return
        wrapped = watch_module._maybe_wrap_exception(error)
        reason = str(wrapped) if isinstance(wrapped, Exception) else repr(error)
        self._on_stopped(f"listener stopped: {reason}")


def _watch_class(owner: CollectionListener) -> type[watch_module.Watch]:
    """A `Watch` that reports to `owner` (a class per listener: the stream starts in __init__)."""

    class ReportingWatch(watch_module.Watch):
        _answered = False  # a response arrived since the stream last (re)opened
        _last_error: object = None
        _last_verdict = False

        def _init_stream(self) -> None:
            # As the library's, but with this class's recovery decision.
            self._rpc = ResumableBidiRpc(
                start_rpc=self._api._transport.listen,
                should_recover=self._reopen_after,
                should_terminate=self._end_after,
                initial_request=self._get_rpc_request,
                metadata=self._firestore._rpc_metadata,
            )
            self._rpc.add_done_callback(self._on_rpc_done)
            self._consumer = BackgroundConsumer(self._rpc, self.on_snapshot)
            self._consumer.start()

        def _reopen_after(self, error: object) -> bool:
            # Asked twice per failure (by gRPC's thread and by the reading
            # thread), about the same error object: one answer for both.
            if error is not self._last_error:
                self._last_error = error
                self._last_verdict = (
                    self._answered
                    and not watch_module._should_terminate(error)  # cancelled: closing
                    and watch_module._should_recover(error)
                )
                self._answered = False
            return self._last_verdict

        def _end_after(self, error: object) -> bool:
            # "Terminate" rather than "do not recover": the library then ends
            # the stream quietly instead of raising in its reading thread.
            return not self._reopen_after(error)

        def on_snapshot(self, proto: object) -> None:
            if proto is None:
                # The stream ended; _on_rpc_done closes. Closing here, on the
                # reading thread, would make it join itself.
                return
            self._answered = True
            super().on_snapshot(proto)

        def _on_rpc_done(self, future: object) -> None:
            if future is None:
                return  # closed on purpose (by us, or by the library to restart)
            owner._stopped(future)
            # Closing joins the reading thread: never from that thread itself.
            threading.Thread(name="listener-close", target=self.close, daemon=True).start()

    return ReportingWatch
