"""Backing up and restoring a whole store, keeping its order and its checkpoints.

A SQLite store is copied with SQLite's online backup API: a consistent snapshot of
the live file, page by page, while other processes keep writing. The copy keeps
every row id (the store order the store-wide chain follows) and the recorded
checkpoints, so a restored store verifies against the last published checkpoint.
A PostgreSQL store is backed up with ``pg_dump`` (README, "Backups"), which keeps
``notification_id`` and the checkpoint table the same way.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from events.store import resolve_db_path
from service.errors import RefusedError

__all__ = ["backup_store", "restore_store"]

PG_RECIPE = (
    "a PostgreSQL store is backed up with pg_dump and restored with pg_restore "
    "(README, 'Backups'); 'referee store' copies SQLite stores"
)


def _sqlite_path(store: str | None) -> Path:
    target = resolve_db_path(store)
    if target.startswith(("postgresql://", "postgres://")):
        raise RefusedError(PG_RECIPE)
    return Path(target)


def _copy(source: Path, dest: Path) -> int:
    """Copy ``source`` to ``dest`` with the online backup API, through a temporary file
    beside ``dest`` (so a failure leaves no half copy); the number of events copied."""
    if dest.exists():
        raise RefusedError(f"{dest}: a file is already there; a backup never overwrites one")
    if not dest.parent.is_dir():
        raise RefusedError(f"{dest}: the folder {dest.parent} does not exist")
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
    source = _sqlite_path(store)
    if not source.is_file():
        raise RefusedError(f"{source}: no store here")
    return _copy(source, Path(dest))


def restore_store(store: str | None, source: str | os.PathLike[str]) -> int:
    """Make the store named by ``store`` (which must not exist yet) from the backup
    ``source``; the number of events restored."""
    target = _sqlite_path(store)
    origin = Path(source)
    if not origin.is_file():
        raise RefusedError(f"{origin}: no backup here")
    if target.exists():
        raise RefusedError(
            f"{target}: a store is already there; restore into a new name (--db) and move it"
        )
    return _copy(origin, target)
