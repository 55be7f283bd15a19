"""The Firestore side of push and pull: which project, the collections read whole, the writes. A
push sets each document under its own id, so a push repeated or resumed converges and never
duplicates one; documents already equal are not written (nor their update time)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field

from google.api_core import exceptions as google_errors
from google.api_core import retry as retries
from google.auth import exceptions as auth_errors
from google.cloud import firestore

from server.content.models import Collection
from server.content_cli.validate import Documents
from server.settings import Settings, SettingsError
from server.site.company import CompanyFileError, load_company

# "Firestore could not be used": API errors (the retry policy giving up is one), no credentials.
FIRESTORE_ERRORS = (google_errors.GoogleAPIError, auth_errors.GoogleAuthError)


def target_project(settings: Settings) -> str:
    try:
        return (
            settings.google_cloud_project or load_company(settings.company_file).firebase_project_id
        )
    except CompanyFileError as error:
        raise SettingsError(f"no GOOGLE_CLOUD_PROJECT and {error}") from error


@contextmanager
def open_target(doing: str) -> Iterator[tuple[str, firestore.Client]]:
    """The project and a client, the project named before any write so a wrong one is caught."""
    project = target_project(Settings.from_environment())
    emulator = os.environ.get("FIRESTORE_EMULATOR_HOST")
    where = f"the emulator at {emulator}" if emulator else "Google Cloud"
    print(f"{doing} Firestore project {project} ({where})")
    with closing(firestore.Client(project=project)) as client:
        yield project, client


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


MAX_BATCH_WRITES = 500  # Firestore's limit on writes in one batch
_ABSENT = object()


@dataclass
class CollectionChanges:
    collection: Collection
    prune: bool
    added: list[str] = field(default_factory=list)
    changed: dict[str, list[str]] = field(default_factory=dict)  # id -> fields that differ
    removed: list[str] = field(default_factory=list)  # only with --prune
    kept: list[str] = field(default_factory=list)  # only in Firestore, left alone
    unchanged: int = 0

    def lines(self) -> Iterator[str]:
        name = self.collection.firestore_name
        for doc_id in self.added:
            yield f"  add     {name}/{doc_id}"
        for doc_id, fields in self.changed.items():
            yield f"  change  {name}/{doc_id}: {', '.join(fields)}"
        for doc_id in self.removed:
            yield f"  remove  {name}/{doc_id}"
        counts = [f"{len(self.added)} to add", f"{len(self.changed)} to change"]
        if self.prune:
            counts.append(f"{len(self.removed)} to remove")
        counts.append(f"{self.unchanged} unchanged")
        if self.kept:
            counts.append(f"{len(self.kept)} only in Firestore (kept; --prune deletes them)")
        yield f"{name}: {', '.join(counts)}"

    @property
    def write_count(self) -> int:
        return len(self.added) + len(self.changed) + len(self.removed)


def plan_push(
    local: dict[Collection, Documents], remote: dict[Collection, Documents], *, prune: bool
) -> list[CollectionChanges]:
    plans = []
    for collection in Collection:
        ours, theirs = local.get(collection, {}), remote.get(collection, {})
        changes = CollectionChanges(collection, prune)
        for doc_id, fields in ours.items():
            if doc_id not in theirs:
                changes.added.append(doc_id)
            elif differing := [
                # set() replaces the whole document: a field only in Firestore is removed.
                name
                for name in sorted(fields.keys() | theirs[doc_id].keys())
                if fields.get(name, _ABSENT) != theirs[doc_id].get(name, _ABSENT)
            ]:
                changes.changed[doc_id] = differing
            else:
                changes.unchanged += 1
        extras = sorted(doc_id for doc_id in theirs if doc_id not in ours)
        (changes.removed if prune else changes.kept).extend(extras)
        plans.append(changes)
    return plans


def apply_plan(
    client: firestore.Client,
    plan: list[CollectionChanges],
    local: dict[Collection, Documents],
    *,
    timeout_seconds: float,
) -> int:
    """Make the plan's writes in batches; returns how many were made."""
    writes = [  # fields None: a removed document, deleted
        (changes.collection, doc_id, local.get(changes.collection, {}).get(doc_id))
        for changes in plan
        for doc_id in [*changes.added, *changes.changed, *changes.removed]
    ]
    for start in range(0, len(writes), MAX_BATCH_WRITES):
        batch_writes = writes[start : start + MAX_BATCH_WRITES]
        batch = client.batch()
        for collection, doc_id, fields in batch_writes:
            ref = client.collection(collection.firestore_name).document(doc_id)
            if fields is None:
                batch.delete(ref)
            else:
                batch.set(ref, fields)
        try:
            batch.commit(retry=retry_policy(timeout_seconds), timeout=timeout_seconds)
        except FIRESTORE_ERRORS:
            # A batch is atomic; the push as a whole is not. Say how far it
            # got: the next push writes only what is still missing.
            print(f"Stopped after {start} of {len(writes)} writes.", file=sys.stderr)
            raise
        if len(writes) > MAX_BATCH_WRITES:  # a long push says how far it got, batch by batch
            print(f"Wrote {start + len(batch_writes)} of {len(writes)}", flush=True)
    return len(writes)
