"""Backing up and restoring a whole store, keeping its order and its checkpoints.

A SQLite store is copied with SQLite's online backup API: a consistent snapshot of
the live file, page by page, while other processes keep writing. The copy keeps
every row id (the store order the store-wide chain follows) and the recorded
checkpoints, so a restored store verifies against the last published checkpoint.

A PostgreSQL store is dumped, in one snapshot (``REPEATABLE READ``), into the same
kind of file: a SQLite store whose row ids are the events' ``notification_id``, with
the recorded checkpoints. The dump is itself a store (``referee --db DUMP verify
--checkpoint ...`` works on it); ``restore`` puts its events back into an empty
PostgreSQL schema with their own ``notification_id`` (or copies it to a new SQLite
file), so the chain, its positions and the checkpoints come back as they were.
``pg_dump`` (docs/storage.md, "Backups") remains the database administrator's way.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

from events.backends import is_server_url
from events.store import GameStore, resolve_db_path
from service.errors import RefusedError

__all__ = ["backup_store", "restore_store"]

_CHECKPOINTS = (
    "CREATE TABLE IF NOT EXISTS referee_checkpoints (position BIGINT NOT NULL, size BIGINT "
    "NOT NULL, head TEXT NOT NULL, text TEXT NOT NULL)"
)
_PAGE = 5_000


def _sqlite_path(store: str | None) -> Path:
    return Path(resolve_db_path(store))


def _pg_tables(store: GameStore) -> tuple[str, str]:
    """The quoted events table and checkpoints table of a database server's store."""
    backend = store.backend
    assert backend is not None  # a server store always has its tables' backend
    return backend.events_table, backend.qualified("referee_checkpoints")


def _dump_postgres(url: str, dest: Path) -> int:
    """Dump the PostgreSQL store at ``url`` into a new SQLite store ``dest`` (through a
    temporary file): every event with its ``notification_id`` as row id, in one
    snapshot, and the recorded checkpoints; the number of events."""
    from service.app import open_service

    _check_dest(dest)
    temp = dest.with_name(f".{dest.name}.partial")
    temp.unlink(missing_ok=True)
    open_service(temp, create=True).close()  # the SQLite store's own tables
    out = sqlite3.connect(temp)
    svc = open_service(url)
    try:
        events_table, checkpoints = _pg_tables(svc.store)
        count = 0
        with svc.store.plain_cursor() as cursor:
            # One snapshot for every page and the checkpoints: appends made meanwhile
            # are not half in the dump.
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
            sealed: list[Any] = []
            if found and found[0]:
                cursor.execute(f"SELECT position, size, head, text FROM {checkpoints}")
                sealed = cursor.fetchall()
        out.execute(_CHECKPOINTS)
        out.executemany("INSERT INTO referee_checkpoints VALUES (?, ?, ?, ?)", sealed)
        out.commit()
    except BaseException:
        out.close()
        temp.unlink(missing_ok=True)
        raise
    finally:
        svc.close()
    out.close()
    os.replace(temp, dest)
    return count


def _restore_postgres(url: str, origin: Path) -> int:
    """Put the events and checkpoints of the SQLite store ``origin`` (a backup of either
    backend) into the empty PostgreSQL store at ``url``, each event with its row id as
    its ``notification_id``, in one transaction; the number of events."""
    from service.app import open_service

    src = sqlite3.connect(f"file:{origin}?mode=ro", uri=True)
    svc = open_service(url)
    try:
        try:
            src.execute("SELECT count(*) FROM stored_events").fetchone()
        except sqlite3.DatabaseError as exc:
            raise RefusedError(f"{origin}: not a referee store ({exc})") from None
        events_table, checkpoints = _pg_tables(svc.store)
        count = 0
        with svc.store.plain_cursor(write=True) as cursor:
            cursor.execute(f"LOCK TABLE {events_table} IN EXCLUSIVE MODE")
            cursor.execute(f"SELECT 1 FROM {events_table} LIMIT 1")
            if cursor.fetchone() is not None:
                raise RefusedError(
                    "the store already holds events; restore into a new, empty schema "
                    "(?schema=NAME) and point the service at it"
                )
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
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'referee_checkpoints'"
            ).fetchone()
            if has:
                cursor.execute(_CHECKPOINTS.replace("referee_checkpoints", checkpoints))
                cursor.executemany(
                    f"INSERT INTO {checkpoints} (position, size, head, text) VALUES "
                    "(%s, %s, %s, %s)",
                    src.execute("SELECT position, size, head, text FROM referee_checkpoints"),
                )
    finally:
        svc.close()
        src.close()
    return count


def _check_dest(dest: Path) -> None:
    if dest.exists():
        raise RefusedError(f"{dest}: a file is already there; a backup never overwrites one")
    if not dest.parent.is_dir():
        raise RefusedError(f"{dest}: the folder {dest.parent} does not exist")


def _copy(source: Path, dest: Path) -> int:
    """Copy ``source`` to ``dest`` with the online backup API, through a temporary file
    beside ``dest`` (so a failure leaves no half copy); the number of events copied."""
    _check_dest(dest)
    temp = dest.with_name(f".{dest.name}.partial")
    temp.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        try:
            (events,) = src.execute("SELECT count(*) FROM stored_events").fetchone()
        except sqlite3.DatabaseError as exc:
            raise RefusedError(f"{source}: not a referee store ({exc})") from None
        out = sqlite3.connect(temp)
        try:
            src.backup(out)
        finally:
            out.close()
    finally:
        src.close()
    os.replace(temp, dest)
    return int(events)


def backup_store(store: str | None, dest: str | os.PathLike[str]) -> int:
    """Copy the live store named by ``store`` to ``dest``; the number of events copied."""
    if is_server_url(resolve_db_path(store)):
        return _dump_postgres(resolve_db_path(store), Path(dest))
    source = _sqlite_path(store)
    if not source.is_file():
        raise RefusedError(f"{source}: no store here")
    return _copy(source, Path(dest))


def restore_store(store: str | None, source: str | os.PathLike[str]) -> int:
    """Make the store named by ``store`` (which must not exist yet) from the backup
    ``source``; the number of events restored."""
    origin = Path(source)
    if not origin.is_file():
        raise RefusedError(f"{origin}: no backup here")
    if is_server_url(resolve_db_path(store)):
        return _restore_postgres(resolve_db_path(store), origin)
    target = _sqlite_path(store)
    if target.exists():
        raise RefusedError(
            f"{target}: a store is already there; restore into a new name (--db) and move it"
        )
    return _copy(origin, target)
