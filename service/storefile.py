"""Whether a SQLite file is a store, told without opening it: not there, a folder, an empty
file, or no SQLite file at all. ``open_service`` refuses what cannot be a store with it;
the commands that work beside a store rather than in it (``referee token``, ``referee
serve``) check with it first, without importing the service (a token command stays as
quick as it was)."""

from __future__ import annotations

import os
from pathlib import Path

from events.backends import is_server_store
from events.store import resolve_db_path
from service.errors import NoStoreError

__all__ = ["SQLITE_HEADER", "check_store_file", "empty_file", "refuse_no_store"]


def refuse_no_store(path: Path, create: bool) -> None:
    """``NoStoreError`` when the SQLite file ``path`` cannot be a store to open (``create``:
    to make): not there, a folder, or (to open) an empty file."""
    if not path.exists():
        if not create:
            raise NoStoreError(
                f"{path}: no store here (a new store is made by 'referee new' or "
                f"'referee import'; --db or REFEREE_DB names another)"
            )
        if not path.parent.exists():
            raise NoStoreError(f"{path}: the folder {path.parent} does not exist")
    elif path.is_dir():
        raise NoStoreError(f"{path}: is a folder, not a store file")
    elif not create and empty_file(path):
        # a read would write the schema into it: a `touch referee.db`, or a copy that
        # failed, is no store, and a read command leaves the file as it was
        raise NoStoreError(
            f"{path}: an empty file, not a store (a store is made by 'referee new' or "
            f"'referee import'; --db or REFEREE_DB names another)"
        )


SQLITE_HEADER = b"SQLite format 3\x00"


def check_store_file(db: str | os.PathLike[str] | None = None) -> None:
    """Refuse, without opening it, a SQLite store named by ``db`` that is not there, is a
    folder, is empty, or is no SQLite file (a database server's URL passes). For what works
    beside a store rather than in it: the access tokens' file (``referee token``) and the
    server (``referee serve``), which made ``x.access.db`` beside a folder or a text file,
    or said it was serving one, before anything noticed there was no store."""
    target = resolve_db_path(db)
    if is_server_store(target, {}):
        return
    path = Path(target)
    refuse_no_store(path, create=False)
    try:
        with path.open("rb") as handle:
            head = handle.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise NoStoreError(f"{path}: cannot be opened ({exc.strerror or exc})") from exc
    if head and head != SQLITE_HEADER:
        raise NoStoreError(f"{path}: cannot be opened (file is not a database)")


def empty_file(path: Path) -> bool:
    """Whether ``path`` is a file of no bytes with no write-ahead log holding any (a
    store in WAL mode can be empty on disk until its first checkpoint)."""
    try:
        if path.stat().st_size:
            return False
        wal = Path(f"{path}-wal")
        return not (wal.exists() and wal.stat().st_size)
    except OSError:
        return False
