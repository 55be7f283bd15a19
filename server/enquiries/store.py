"""Where enquiries are kept: the interface, and the SQLite file of the embedded default (every
worker shares it: WAL and a busy timeout). Firestore's is firestore.py."""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Any, Protocol, TypeVar

import anyio

from server.enquiries.fields import Enquiry, State

T = TypeVar("T")


class Added(Enum):
    ADDED = "added"
    DUPLICATE = "duplicate"  # one with this id is kept already (the same form sent again)
    LIMITED = "limited"  # the address sent its limit in the window: nothing written


class StoreUnavailable(Exception):
    """The store could not be read or written; nothing was written."""


class EnquiryStore(Protocol):
    async def add(
        self, enquiry: Enquiry, *, address_key: str, limit: int, window_seconds: float
    ) -> Added:
        """Keep it, unless its id is kept or its address sent `limit` in the window: one
        step, whatever other workers do at the same time."""

    async def get(self, enquiry_id: str) -> Enquiry | None: ...

    async def newest_first(
        self, *, branch: str | None = None, state: State | None = None
    ) -> list[Enquiry]:
        """The enquiries of that branch and state (None: any), newest first."""

    async def update(
        self, enquiry_id: str, *, state: State | None = None, read: bool | None = None
    ) -> bool: ...

    async def delete(self, enquiry_id: str) -> bool: ...

    async def unsent(self) -> list[str]:
        """The ids of the enquiries not yet e-mailed."""

    async def claim(self, enquiry_id: str, *, now: float, until: float) -> Enquiry | None:
        """The enquiry, if it is not yet e-mailed and no one else is mailing it; it is this
        caller's to mail until `until` (a worker that died mid-send lets go then)."""

    async def mailed(self, enquiry_id: str, *, accepted: bool) -> None:
        """After a claim: e-mailed when the mail server accepted it, else free to try again."""

    async def delete_older_than(self, cutoff: float) -> int: ...

    async def secret(self) -> bytes:
        """The key that signs forms, made once and shared by every worker."""

    async def close(self) -> None: ...


class SqliteEnquiries:
    def __init__(self, path: Path) -> None:
        self._path = path
        self._db: sqlite3.Connection | None = None
        # One connection per process, one statement at a time on it; other processes
        # wait for SQLite's write lock (busy timeout).
        self._lock = threading.Lock()

    async def add(
        self, enquiry: Enquiry, *, address_key: str, limit: int, window_seconds: float
    ) -> Added:
        def add(db: sqlite3.Connection) -> Added:
            with _immediate(db):
                if db.execute("SELECT 1 FROM enquiries WHERE id = ?", (enquiry.id,)).fetchone():
                    return Added.DUPLICATE
                recent = "SELECT COUNT(*) FROM enquiries WHERE address = ? AND created > ?"
                since = enquiry.created - window_seconds
                if db.execute(recent, (address_key, since)).fetchone()[0] >= limit:
                    return Added.LIMITED
                db.execute(
                    "INSERT INTO enquiries VALUES (?, ?, ?, ?, ?, ?, 0, ?)",
                    (*_row(enquiry), address_key, _record(enquiry)),
                )
                return Added.ADDED

        return await self._run(add)

    async def get(self, enquiry_id: str) -> Enquiry | None:
        found = await self._select("WHERE id = ?", enquiry_id)
        return found[0] if found else None

    async def newest_first(
        self, *, branch: str | None = None, state: State | None = None
    ) -> list[Enquiry]:
        where = "WHERE (?1 IS NULL OR branch = ?1) AND (?2 IS NULL OR state = ?2)"
        return await self._select(f"{where} ORDER BY created DESC", branch, state)

    async def update(
        self, enquiry_id: str, *, state: State | None = None, read: bool | None = None
    ) -> bool:
        change = "UPDATE enquiries SET state = coalesce(?, state), read = coalesce(?, read)"
        return await self._change(f"{change} WHERE id = ?", state, read, enquiry_id) > 0

    async def delete(self, enquiry_id: str) -> bool:
        return await self._change("DELETE FROM enquiries WHERE id = ?", enquiry_id) > 0

    async def unsent(self) -> list[str]:
        return [e.id for e in await self._select("WHERE state = ?", State.NEW)]

    async def claim(self, enquiry_id: str, *, now: float, until: float) -> Enquiry | None:
        claim = "UPDATE enquiries SET claimed_until = ? WHERE id = ? AND state = ?"
        claimed = await self._change(
            f"{claim} AND claimed_until < ?", until, enquiry_id, State.NEW, now
        )
        return await self.get(enquiry_id) if claimed else None

    async def mailed(self, enquiry_id: str, *, accepted: bool) -> None:
        state = State.EMAILED if accepted else State.NEW
        change = "UPDATE enquiries SET claimed_until = 0, state = ? WHERE id = ? AND state = ?"
        await self._change(change, state, enquiry_id, State.NEW)

    async def delete_older_than(self, cutoff: float) -> int:
        return await self._change("DELETE FROM enquiries WHERE created < ?", cutoff)

    async def secret(self) -> bytes:
        def secret(db: sqlite3.Connection) -> bytes:
            made = secrets.token_hex(32)
            db.execute("INSERT OR IGNORE INTO secrets VALUES ('form', ?)", (made,))
            value: str = db.execute("SELECT value FROM secrets WHERE name = 'form'").fetchone()[0]
            return value.encode()

        return await self._run(secret)

    async def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    async def _select(self, where: str, *values: object) -> list[Enquiry]:
        # `where` is one of this class's own clauses; the values are parameters.
        query = f"SELECT id, created, branch, state, read, record FROM enquiries {where}"  # noqa: S608
        rows = await self._run(lambda db: db.execute(query, values).fetchall())
        return [_enquiry(*row) for row in rows]

    async def _change(self, statement: str, *values: object) -> int:
        return await self._run(lambda db: db.execute(statement, values).rowcount)

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        def run() -> T:
            with self._lock:
                try:
                    if self._db is None:
                        self._db = self._open()
                    return work(self._db)
                except sqlite3.Error as error:
                    raise StoreUnavailable(f"{self._path}: {error}") from error

        return await anyio.to_thread.run_sync(run)

    def _open(self) -> sqlite3.Connection:
        self._path.parent.mkdir(parents=True, exist_ok=True)
        # Autocommit; a change of more than one statement says BEGIN IMMEDIATE itself.
        db = sqlite3.connect(self._path, timeout=10, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode = WAL")
        db.executescript(_SCHEMA)
        return db


_SCHEMA = """
CREATE TABLE IF NOT EXISTS enquiries (
    id TEXT PRIMARY KEY, created REAL NOT NULL, branch TEXT NOT NULL, state TEXT NOT NULL,
    read INTEGER NOT NULL, address TEXT NOT NULL, claimed_until REAL NOT NULL,
    record TEXT NOT NULL  -- JSON: language, page, topic and the visitor's fields
);
CREATE INDEX IF NOT EXISTS enquiries_by_address ON enquiries (address, created);
CREATE INDEX IF NOT EXISTS enquiries_by_created ON enquiries (created);
CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


@contextmanager
def _immediate(db: sqlite3.Connection) -> Iterator[None]:
    """A transaction holding the write lock from its first read: a count and the insert it
    allows cannot interleave with another worker's."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _row(enquiry: Enquiry) -> tuple[object, ...]:
    return (enquiry.id, enquiry.created, enquiry.branch, enquiry.state, enquiry.read)


def _record(enquiry: Enquiry) -> str:
    record = {"language": enquiry.language, "page": enquiry.page, "topic": enquiry.topic}
    return json.dumps({**record, "fields": enquiry.fields}, ensure_ascii=False)


def _enquiry(
    enquiry_id: str, created: float, branch: str, state: str, read: int, record: str
) -> Enquiry:
    data: dict[str, Any] = json.loads(record)
    return Enquiry(
        id=enquiry_id,
        created=created,
        branch=branch,
        state=State(state),
        read=bool(read),
        **data,
    )
