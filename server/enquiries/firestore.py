"""Enquiries in Firestore (with CONTENT_SOURCE=firestore), with SqliteEnquiries' promises. Written
by the server only: firestore.rules refuses every client. Enquiries; EnquiryLimits, a document
per sender's address key with its recent times, written in the enquiry's own transaction (so
the rate limit needs no query); EnquirySecrets/form, the key that signs forms. Every query is
an equality or a range on one field, which the automatic single-field indexes serve."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Coroutine
from contextlib import suppress
from typing import Any, Concatenate, ParamSpec, TypeVar

from google.api_core import exceptions as google_errors
from google.cloud import firestore
from google.cloud.firestore_v1.async_transaction import AsyncTransaction, async_transactional

from server.enquiries.fields import Enquiry, State
from server.enquiries.store import Added, StoreUnavailable

P = ParamSpec("P")
T = TypeVar("T")


def _answered(
    method: Callable[Concatenate[FirestoreEnquiries, P], Coroutine[Any, Any, T]],
) -> Callable[Concatenate[FirestoreEnquiries, P], Coroutine[Any, Any, T]]:
    """Firestore answers within the store's deadline, else StoreUnavailable at once. The call
    runs as a task of its own, left behind when late: a transaction cut short rolls back, and
    its rollback, retried against a database that is gone, must not hold the visitor."""

    async def answered(self: FirestoreEnquiries, /, *args: P.args, **kwargs: P.kwargs) -> T:
        call = asyncio.ensure_future(method(self, *args, **kwargs))
        call.add_done_callback(lambda done: done.cancelled() or done.exception())
        finished, _ = await asyncio.wait({call}, timeout=self.timeout_seconds)
        if not finished:
            call.cancel()
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
        self._client = firestore.AsyncClient(project=project)
        self._enquiries = self._client.collection("Enquiries")
        self._senders = self._client.collection("EnquiryLimits")
        # Longer than a page's read: a transaction is a few calls.
        self.timeout_seconds = 2 * timeout_seconds

    @_answered
    async def add(
        self, enquiry: Enquiry, *, address_key: str, limit: int, window_seconds: float
    ) -> Added:
        reference, sender = (
            self._enquiries.document(enquiry.id),
            self._senders.document(address_key),
        )

        @async_transactional
        async def add(transaction: AsyncTransaction) -> Added:
            if (await reference.get(transaction=transaction)).exists:
                return Added.DUPLICATE
            times = ((await sender.get(transaction=transaction)).to_dict() or {}).get("times", [])
            recent = [t for t in times if t > enquiry.created - window_seconds]
            if len(recent) >= limit:
                return Added.LIMITED
            transaction.create(reference, enquiry.record() | {"claimedUntil": 0})
            # `until`: when the record no longer counts, and delete_older_than removes it.
            until = enquiry.created + window_seconds
            transaction.set(sender, {"times": [*recent, enquiry.created], "until": until})
            return Added.ADDED

        return await add(self._client.transaction())

    @_answered
    async def get(self, enquiry_id: str) -> Enquiry | None:
        data = (await self._enquiries.document(enquiry_id).get()).to_dict()
        return None if data is None else Enquiry.from_record(enquiry_id, data)

    @_answered
    async def newest_first(
        self, *, branch: str | None = None, state: State | None = None
    ) -> list[Enquiry]:
        query: Any = self._enquiries
        for name, value in (("branch", branch), ("state", state)):
            if value is not None:
                query = query.where(filter=firestore.FieldFilter(name, "==", str(value)))
        found = [Enquiry.from_record(s.id, s.to_dict() or {}) async for s in query.stream()]
        # Sorted here: ordered by another field than the filters', the query would need a
        # composite index; a year of enquiries is a few thousand at most.
        return sorted(found, key=lambda enquiry: enquiry.created, reverse=True)

    @_answered
    async def update(
        self, enquiry_id: str, *, state: State | None = None, read: bool | None = None
    ) -> bool:
        changes = {k: v for k, v in (("state", state), ("read", read)) if v is not None}
        try:
            await self._enquiries.document(enquiry_id).update(changes)
        except google_errors.NotFound:
            return False
        return True

    @_answered
    async def delete(self, enquiry_id: str) -> bool:
        reference = self._enquiries.document(enquiry_id)
        found = (await reference.get()).exists
        await reference.delete()
        return found

    @_answered
    async def unsent(self) -> list[str]:
        query = self._enquiries.where(filter=firestore.FieldFilter("state", "==", State.NEW.value))
        return [snapshot.id async for snapshot in query.stream()]

    @_answered
    async def claim(self, enquiry_id: str, *, now: float, until: float) -> Enquiry | None:
        reference = self._enquiries.document(enquiry_id)

        @async_transactional
        async def claim(transaction: AsyncTransaction) -> Enquiry | None:
            data = (await reference.get(transaction=transaction)).to_dict()
            if data is None or data["state"] != State.NEW or data["claimedUntil"] >= now:
                return None
            transaction.update(reference, {"claimedUntil": until})
            return Enquiry.from_record(enquiry_id, data)

        return await claim(self._client.transaction())

    @_answered
    async def mailed(self, enquiry_id: str, *, accepted: bool) -> None:
        reference = self._enquiries.document(enquiry_id)

        @async_transactional
        async def mailed(transaction: AsyncTransaction) -> None:
            data = (await reference.get(transaction=transaction)).to_dict()
            if data is not None and data["state"] == State.NEW:
                state = State.EMAILED if accepted else State.NEW
                transaction.update(reference, {"claimedUntil": 0, "state": state.value})

        await mailed(self._client.transaction())

    @_answered
    async def delete_older_than(self, cutoff: float) -> int:
        old = self._enquiries.where(filter=firestore.FieldFilter("created", "<", cutoff))
        spent = self._senders.where(filter=firestore.FieldFilter("until", "<", time.time()))
        deleted = 0
        for query in (old, spent):
            async for snapshot in query.stream():
                await snapshot.reference.delete()
                deleted += query is old
        return deleted

    @_answered
    async def secret(self) -> bytes:
        reference = self._client.collection("EnquirySecrets").document("form")
        # Another worker, or an earlier start, may have made it: then it stays.
        with suppress(google_errors.AlreadyExists):
            await reference.create({"value": secrets.token_hex(32)})
        return str(((await reference.get()).to_dict() or {})["value"]).encode()

    async def close(self) -> None:
        self._client.close()  # type: ignore[no-untyped-call]  # untyped in the library
