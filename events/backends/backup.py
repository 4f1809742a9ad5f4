"""A whole store's copy, in SQL: SQLite's online backup, a PostgreSQL store dumped into
a SQLite store and put back, and whether a SQLite file holds any event.

Every copy keeps the store order (row ids, ``notification_id``) and the recorded
checkpoints, so a restored store verifies against the last published checkpoint.
``events.database`` chooses which of these a store's database runs; the service
words the refusals (``service.backup``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

__all__ = ["NotAStoreError", "dump_postgres", "restore_postgres", "sqlite_copy", "sqlite_unused"]

CHECKPOINTS = "referee_checkpoints"
_CHECKPOINTS_DDL = (
    "CREATE TABLE IF NOT EXISTS {} (position BIGINT NOT NULL, size BIGINT NOT NULL, head "
    "TEXT NOT NULL, text TEXT NOT NULL)"
)
_PAGE = 5_000


class NotAStoreError(Exception):
    """A file that is no referee store (the service refuses, naming it)."""


def sqlite_copy(source: Path, dest: Path) -> int:
    """Copy the SQLite store ``source`` to the new file ``dest`` with the online backup API
    (a consistent snapshot of the live file, page by page, while others keep writing);
    the number of events copied."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        try:
            (events,) = src.execute("SELECT count(*) FROM stored_events").fetchone()
        except sqlite3.DatabaseError as exc:
            raise NotAStoreError(f"{source}: not a referee store ({exc})") from None
        out = sqlite3.connect(dest)
        try:
            src.backup(out)
        finally:
            out.close()
    finally:
        src.close()
    return int(events)


def sqlite_unused(path: Path) -> bool:
    """Whether the SQLite file ``path`` is a store with no event and no table but the
    events' (so a refused command that made it may delete it); a file that cannot be
    read counts as used."""
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            tables = {
                row[0]
                for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            if tables - {"stored_events"}:
                return False
            return not (tables and conn.execute("SELECT 1 FROM stored_events LIMIT 1").fetchone())
    except sqlite3.Error:
        return False


def dump_postgres(cursor: Any, events_table: str, checkpoints: str, dest: Path) -> int:
    """Copy a PostgreSQL store, read through ``cursor`` (a transaction on it), into the
    SQLite store ``dest`` (made, empty, by the caller): every event with its
    ``notification_id`` as row id, in one snapshot, and the recorded checkpoints; the
    number of events."""
    out = sqlite3.connect(dest)
    try:
        count = 0
        # One snapshot for every page and the checkpoints: appends made meanwhile are
        # not half in the dump.
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        after = 0
        while True:
            cursor.execute(
                "SELECT notification_id, originator_id, originator_version, topic, state "
                f"FROM {events_table} WHERE notification_id > %s ORDER BY notification_id "
                "LIMIT %s",
                (after, _PAGE),
            )
            rows = cursor.fetchall()
            out.executemany(
                "INSERT INTO stored_events (rowid, originator_id, originator_version, "
                "topic, state) VALUES (?, ?, ?, ?, ?)",
                [(int(i), str(g), int(v), str(t), bytes(b)) for i, g, v, t, b in rows],
            )
            count += len(rows)
            if len(rows) < _PAGE:
                break
            after = int(rows[-1][0])
        cursor.execute("SELECT to_regclass(%s)", (checkpoints,))
        found = cursor.fetchone()
        sealed: Sequence[Any] = []
        if found and found[0]:
            cursor.execute(f"SELECT position, size, head, text FROM {checkpoints}")
            sealed = cursor.fetchall()
        out.execute(_CHECKPOINTS_DDL.format(CHECKPOINTS))
        out.executemany(f"INSERT INTO {CHECKPOINTS} VALUES (?, ?, ?, ?)", sealed)
        out.commit()
    finally:
        out.close()
    return count


def restore_postgres(cursor: Any, events_table: str, checkpoints: str, origin: Path) -> int:
    """Put the events and checkpoints of the SQLite store ``origin`` into the empty
    PostgreSQL store written through ``cursor`` (one transaction), each event with its row
    id as its ``notification_id``; the number of events. ``ValueError`` when the store
    already holds events."""
    src = sqlite3.connect(f"file:{origin}?mode=ro", uri=True)
    try:
        try:
            src.execute("SELECT count(*) FROM stored_events").fetchone()
        except sqlite3.DatabaseError as exc:
            raise NotAStoreError(f"{origin}: not a referee store ({exc})") from None
        cursor.execute(f"LOCK TABLE {events_table} IN EXCLUSIVE MODE")
        cursor.execute(f"SELECT 1 FROM {events_table} LIMIT 1")
        if cursor.fetchone() is not None:
            raise ValueError("the store already holds events")
        count = 0
        after = 0
        while True:
            rows = src.execute(
                "SELECT rowid, originator_id, originator_version, topic, state FROM "
                "stored_events WHERE rowid > ? ORDER BY rowid LIMIT ?",
                (after, _PAGE),
            ).fetchall()
            cursor.executemany(
                f"INSERT INTO {events_table} (notification_id, originator_id, "
                "originator_version, topic, state) VALUES (%s, %s, %s, %s, %s)",
                [(i, g, v, t, bytes(b)) for i, g, v, t, b in rows],
            )
            count += len(rows)
            if len(rows) < _PAGE:
                break
            after = int(rows[-1][0])
        # New appends number on from the last restored event.
        cursor.execute(
            f"SELECT setval(pg_get_serial_sequence(%s, 'notification_id'), "
            f"GREATEST((SELECT max(notification_id) FROM {events_table}), 1), "
            f"(SELECT count(*) > 0 FROM {events_table}))",
            (events_table,),
        )
        has = src.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (CHECKPOINTS,)
        ).fetchone()
        if has:
            cursor.execute(_CHECKPOINTS_DDL.format(checkpoints))
            cursor.executemany(
                f"INSERT INTO {checkpoints} (position, size, head, text) VALUES (%s, %s, %s, %s)",
                src.execute(f"SELECT position, size, head, text FROM {CHECKPOINTS}").fetchall(),
            )
    finally:
        src.close()
    return count
