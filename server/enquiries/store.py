"""Where enquiries are kept with local content: a SQLite file every worker shares (WAL, a busy
timeout)."""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import TypeVar

import anyio

from server.enquiries.fields import Enquiry, State

T = TypeVar("T")


class Added(Enum):
    ADDED = "added"
    DUPLICATE = "duplicate"  # one with this id is kept already (the same form sent again)
    LIMITED = "limited"  # the address sent its limit in the window: nothing written


class StoreUnavailable(Exception):
    """The store could not be read or written; nothing was written."""


class SqliteEnquiries:
    def __init__(self, path: Path) -> None:
        self._path = path
        self._db: sqlite3.Connection | None = None
        # One connection per process, one statement at a time on it; other processes
        # wait for SQLite's write lock (the busy timeout).
        self._lock = threading.Lock()

    async def add(
        self, enquiry: Enquiry, *, address_key: str, limit: int, window_seconds: float
    ) -> Added:
        """Keep it, unless its id is kept or its address sent `limit` in the window: one step."""

        def add(db: sqlite3.Connection) -> Added:
            # BEGIN IMMEDIATE takes the write lock first: no other worker's insert can come
            # between this count and this insert. `with db` commits, or rolls back on an error.
            with db:
                db.execute("BEGIN IMMEDIATE")
                if db.execute("SELECT 1 FROM enquiries WHERE id = ?", (enquiry.id,)).fetchone():
                    return Added.DUPLICATE
                recent = "SELECT COUNT(*) FROM enquiries WHERE address = ? AND created > ?"
                since = enquiry.created - window_seconds
                if db.execute(recent, (address_key, since)).fetchone()[0] >= limit:
                    return Added.LIMITED
                row = (enquiry.id, enquiry.created, enquiry.branch, enquiry.state, address_key)
                record = json.dumps(enquiry.record(), ensure_ascii=False)
                db.execute("INSERT INTO enquiries VALUES (?, ?, ?, ?, 0, ?, 0, ?)", (*row, record))
                return Added.ADDED

        return await self._run(add)

    async def get(self, enquiry_id: str) -> Enquiry | None:
        found = await self._select("WHERE id = ?", enquiry_id)
        return found[0] if found else None

    async def newest_first(
        self, *, branch: str | None = None, state: State | None = None
    ) -> list[Enquiry]:
        """The enquiries of that branch and state (None: any)."""
        where = "WHERE (?1 IS NULL OR branch = ?1) AND (?2 IS NULL OR state = ?2)"
        return await self._select(f"{where} ORDER BY created DESC", branch, state)

    async def update(
        self, enquiry_id: str, *, state: State | None = None, read: bool | None = None
    ) -> bool:
        change = "UPDATE enquiries SET state = coalesce(?, state), read = coalesce(?, read)"
        return await self._change(f"{change} WHERE id = ?", state, read, enquiry_id) > 0

    async def delete(self, enquiry_id: str) -> bool:
        return await self._change("DELETE FROM enquiries WHERE id = ?", enquiry_id) > 0

    async def claim(self, enquiry_id: str, *, now: float, until: float) -> Enquiry | None:
        """The enquiry, if it is not yet e-mailed and no other worker is mailing it: this
        caller's to mail until `until` (a worker that died mid-send lets go then)."""
        claim = "UPDATE enquiries SET claimed_until = ? WHERE id = ? AND state = ?"
        claimed = await self._change(
            f"{claim} AND claimed_until < ?", until, enquiry_id, State.NEW, now
        )
        return await self.get(enquiry_id) if claimed else None

    async def mailed(self, enquiry_id: str, *, accepted: bool) -> None:
        """After a claim: e-mailed when the mail server accepted it, else free to try again."""
        state = State.EMAILED if accepted else State.NEW
        change = "UPDATE enquiries SET claimed_until = 0, state = ? WHERE id = ? AND state = ?"
        await self._change(change, state, enquiry_id, State.NEW)

    async def delete_older_than(self, cutoff: float) -> int:
        return await self._change("DELETE FROM enquiries WHERE created < ?", cutoff)

    async def secret(self) -> bytes:
        """The key that signs forms, made once and shared by every worker."""

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
        query = f"SELECT id, state, read, record FROM enquiries {where}"  # noqa: S608
        rows = await self._run(lambda db: db.execute(query, values).fetchall())
        # The columns hold the state and read as changed since the record was written.
        return [
            Enquiry.from_record(id_, json.loads(record) | {"state": state, "read": bool(read)})
            for id_, state, read, record in rows
        ]

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
        # Autocommit: add() says BEGIN IMMEDIATE itself.
        db = sqlite3.connect(self._path, timeout=10, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode = WAL")
        db.executescript(
            """
            CREATE TABLE IF NOT EXISTS enquiries (
                id TEXT PRIMARY KEY, created REAL, branch TEXT, state TEXT, read INTEGER,
                address TEXT, claimed_until REAL, record TEXT);
            CREATE INDEX IF NOT EXISTS by_address ON enquiries (address, created);
            CREATE INDEX IF NOT EXISTS by_created ON enquiries (created);
            CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value TEXT);
            """
        )
        return db
