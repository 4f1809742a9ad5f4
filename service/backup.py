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

The copying is the store's database's (``events.database.Database.backup_to`` and
``restore_from``, whose SQL is in ``events.backends.backup``); this module checks the
files and words the refusals.
"""

from __future__ import annotations

import os
from pathlib import Path

from events.backends import is_server_url
from events.backends.backup import NotAStoreError
from events.database import database_of, open_database
from events.store import resolve_db_path
from service.errors import RefusedError

__all__ = ["backup_store", "restore_store"]


def _check_dest(dest: Path) -> None:
    if dest.is_dir():  # was "a file is already there"
        raise RefusedError(f"{dest}: is a folder; name the backup file to make (in it, say)")
    if dest.exists():
        raise RefusedError(f"{dest}: a file is already there; a backup never overwrites one")
    if not dest.parent.is_dir():
        raise RefusedError(f"{dest}: the folder {dest.parent} does not exist")


def _temp(dest: Path) -> Path:
    """The temporary file beside ``dest`` a copy is made in (so a failure leaves no half
    copy), emptied of any earlier attempt's."""
    temp = dest.with_name(f".{dest.name}.partial")
    try:
        temp.unlink(missing_ok=True)
        temp.touch(exist_ok=False)  # a folder that cannot be written: said of ``dest``, not
        temp.unlink()  # "the store cannot be used: unable to open database file"
    except OSError as exc:
        raise RefusedError(f"{dest}: cannot be written ({exc.strerror or exc})") from None
    return temp


def _dump_postgres(url: str, dest: Path) -> int:
    """Dump the PostgreSQL store at ``url`` into a new SQLite store ``dest`` (through a
    temporary file); the number of events."""
    from service.app import open_service

    _check_dest(dest)
    temp = _temp(dest)
    open_service(temp, create=True).close()  # the SQLite store's own tables
    svc = open_service(url)
    try:
        count = database_of(svc.store).backup_to(temp)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    finally:
        svc.close()
    os.replace(temp, dest)
    return count


def _restore_postgres(url: str, origin: Path) -> int:
    """Put the events and checkpoints of the SQLite store ``origin`` (a backup of either
    backend) into the empty PostgreSQL store at ``url``; the number of events."""
    from service.app import open_service

    svc = open_service(url)
    try:
        return database_of(svc.store).restore_from(origin)
    except NotAStoreError as exc:
        raise RefusedError(str(exc)) from None
    except ValueError:
        raise RefusedError(
            "the store already holds events; restore into a new, empty schema "
            "(?schema=NAME) and point the service at it"
        ) from None
    finally:
        svc.close()


def _copy(source: Path, dest: Path) -> int:
    """Copy the SQLite store ``source`` to ``dest`` through a temporary file beside it;
    the number of events copied."""
    _check_dest(dest)
    temp = _temp(dest)
    try:
        count = open_database(str(source)).backup_to(temp)
    except NotAStoreError as exc:
        temp.unlink(missing_ok=True)
        raise RefusedError(str(exc)) from None
    os.replace(temp, dest)
    return count


def backup_store(store: str | None, dest: str | os.PathLike[str]) -> int:
    """Copy the live store named by ``store`` to ``dest``; the number of events copied."""
    if is_server_url(resolve_db_path(store)):
        return _dump_postgres(resolve_db_path(store), Path(dest))
    source = Path(resolve_db_path(store))
    if not source.is_file():
        raise RefusedError(f"{source}: no store here")
    return _copy(source, Path(dest))


def restore_store(store: str | None, source: str | os.PathLike[str]) -> int:
    """Make the store named by ``store`` (which must not exist yet) from the backup
    ``source``; the number of events restored."""
    origin = Path(source)
    if origin.is_dir():
        raise RefusedError(f"{origin}: is a folder, not a backup file")
    if not origin.is_file():
        raise RefusedError(f"{origin}: no backup here")
    if is_server_url(resolve_db_path(store)):
        return _restore_postgres(resolve_db_path(store), origin)
    target = Path(resolve_db_path(store))
    if target.exists():
        raise RefusedError(
            f"{target}: a store is already there; restore into a new name (--db) and move it"
        )
    return _copy(origin, target)
