"""Enquiries in Firestore, with SqliteEnquiries' promises (docs/architecture.md, "The stores"):
the library's synchronous client, in threads of its own."""

from __future__ import annotations

import asyncio
import math
import secrets
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from functools import partial
from typing import Any, Concatenate, ParamSpec, TypeVar

from google.api_core import exceptions as google_errors
from google.cloud import firestore

from server.enquiries.fields import Enquiry, State
from server.enquiries.store import Added, SqliteEnquiries, StoreUnavailable

P = ParamSpec("P")
T = TypeVar("T")


def _answered(
    method: Callable[Concatenate[FirestoreEnquiries, P], T],
) -> Callable[Concatenate[FirestoreEnquiries, P], Coroutine[Any, Any, T]]:
    """An awaitable call that Firestore answers within the store's deadline, else
    StoreUnavailable at once; a late call is left to its thread, which gives up after its
    own timeout (a transaction cut short never commits: nothing is half-written)."""

    async def answered(self: FirestoreEnquiries, /, *args: P.args, **kwargs: P.kwargs) -> T:
        loop = asyncio.get_running_loop()
        call = loop.run_in_executor(self.threads, partial(method, self, *args, **kwargs))
        call.add_done_callback(lambda done: done.cancelled() or done.exception())
        finished, _ = await asyncio.wait({call}, timeout=self.timeout_seconds)
        if not finished:
            raise StoreUnavailable(f"Firestore did not answer in {self.timeout_seconds:g} s")
        try:
            return call.result()
        # A transaction that could not begin or commit says so with ValueError.
        except (google_errors.GoogleAPIError, ValueError) as error:
            raise StoreUnavailable(f"Firestore: {error!r}") from error

    return answered


class FirestoreEnquiries:
    def __init__(self, project: str, *, timeout_seconds: float) -> None:
        # FIRESTORE_EMULATOR_HOST, when set, points the client at the emulator.
        self._client = firestore.Client(project=project)
        self._enquiries = self._client.collection("Enquiries")
        self._senders = self._client.collection("EnquiryLimits")
        # Longer than a page's read: a transaction is a few calls.
        self.timeout_seconds = 2 * timeout_seconds
        self.threads = ThreadPoolExecutor(4, thread_name_prefix="enquiries")

    @_answered
    def add(
        self, enquiry: Enquiry, *, address_key: str, limit: int, window_seconds: float
    ) -> Added:
        reference = self._enquiries.document(enquiry.id)
        sender = self._senders.document(address_key)

        @firestore.transactional
        def add(transaction: firestore.Transaction) -> Added:
            if reference.get(transaction=transaction, timeout=self.timeout_seconds).exists:
                return Added.DUPLICATE
            record = (
                sender.get(transaction=transaction, timeout=self.timeout_seconds).to_dict() or {}
            )
            recent = [t for t in record.get("times", []) if t > enquiry.created - window_seconds]
            if len(recent) >= limit:
                return Added.LIMITED
            transaction.create(reference, enquiry.record() | {"claimedUntil": 0})
            # `until`: when the record no longer counts, and delete_older_than removes it.
            until = enquiry.created + window_seconds
            transaction.set(sender, {"times": [*recent, enquiry.created], "until": until})
            return Added.ADDED

        result: Added = add(self._client.transaction())
        return result

    @_answered
    def get(self, enquiry_id: str) -> Enquiry | None:
        data = self._enquiries.document(enquiry_id).get(timeout=self.timeout_seconds).to_dict()
        return None if data is None else Enquiry.from_record(enquiry_id, data)

    @_answered
    def newest_first(
        self, *, branch: str | None = None, state: State | None = None
    ) -> list[Enquiry]:
        query: Any = self._enquiries
        for name, value in (("branch", branch), ("state", state)):
            if value is not None:
                query = query.where(filter=firestore.FieldFilter(name, "==", str(value)))
        found = [
            Enquiry.from_record(s.id, s.to_dict() or {})
            for s in query.stream(timeout=self.timeout_seconds)
        ]
        # Sorted here: ordered by another field than the filters', the query would need a
        # composite index; a year of enquiries is a few thousand at most.
        return sorted(found, key=lambda enquiry: enquiry.created, reverse=True)

    @_answered
    def update(
        self, enquiry_id: str, *, state: State | None = None, read: bool | None = None
    ) -> bool:
        changes = {k: v for k, v in (("state", state), ("read", read)) if v is not None}
        try:
            self._enquiries.document(enquiry_id).update(changes, timeout=self.timeout_seconds)
        except google_errors.NotFound:
            return False
        return True

    @_answered
    def delete(self, enquiry_id: str) -> bool:
        reference = self._enquiries.document(enquiry_id)
        found = reference.get(timeout=self.timeout_seconds).exists
        reference.delete(timeout=self.timeout_seconds)
        return found

    @_answered
    def claim(self, enquiry_id: str, *, now: float, until: float) -> Enquiry | None:
        return self._while_new(enquiry_id, {"claimedUntil": until}, unclaimed_at=now)

    @_answered
    def mailed(self, enquiry_id: str, *, accepted: bool) -> None:
        state = State.EMAILED if accepted else State.NEW
        self._while_new(enquiry_id, {"claimedUntil": 0, "state": state.value})

    @_answered
    def delete_older_than(self, cutoff: float) -> int:
        old = self._enquiries.where(filter=firestore.FieldFilter("created", "<", cutoff))
        spent = self._senders.where(filter=firestore.FieldFilter("until", "<", time.time()))
        deleted = 0
        for query in (old, spent):
            for snapshot in query.stream(timeout=self.timeout_seconds):
                snapshot.reference.delete(timeout=self.timeout_seconds)
                deleted += query is old
        return deleted

    @_answered
    def secret(self) -> bytes:
        reference = self._client.collection("EnquirySecrets").document("form")
        # Another worker, or an earlier start, may have made it: then it stays.
        with suppress(google_errors.AlreadyExists):
            reference.create({"value": secrets.token_hex(32)}, timeout=self.timeout_seconds)
        return str((reference.get(timeout=self.timeout_seconds).to_dict() or {})["value"]).encode()

    def _while_new(
        self, enquiry_id: str, changes: dict[str, Any], *, unclaimed_at: float = math.inf
    ) -> Enquiry | None:
        """In one transaction: the enquiry changed, if it is not yet e-mailed (nor claimed at
        `unclaimed_at`); as it was, else None."""
        reference = self._enquiries.document(enquiry_id)

        @firestore.transactional
        def change(transaction: firestore.Transaction) -> Enquiry | None:
            data = reference.get(transaction=transaction, timeout=self.timeout_seconds).to_dict()
            if data is None or data["state"] != State.NEW or data["claimedUntil"] >= unclaimed_at:
                return None
            transaction.update(reference, changes)
            return Enquiry.from_record(enquiry_id, data)

        changed: Enquiry | None = change(self._client.transaction())
        return changed

    async def close(self) -> None:
        self.threads.shutdown(wait=False, cancel_futures=True)
        self._client.close()  # type: ignore[no-untyped-call]  # untyped in the library


# Either keeps the same promises (tests/test_enquiry_store.py holds both to them).
EnquiryStore = SqliteEnquiries | FirestoreEnquiries
