"""One factory per database: everything a store's database serves, opened from one place.

A store's database holds four things, and ``Database`` is how each is reached:

- the event store (``store``: ``events.store.GameStore`` on it);
- the side tables (``side_tables``: access tokens, idempotency keys);
- the read models (``read_models``: ``projections``' tables, the queue's and events'
  snapshots);
- a backup of the whole store (``backup_to``, ``restore_from``).

On SQLite they are three files side by side (``referee.db``, ``referee.access.db``,
``referee.projections.db``): a store can be copied without anyone's tokens, and the read
models deleted and rebuilt. On PostgreSQL they are tables of one schema: the library's
``referee_events`` and the service's ``referee_*`` beside them. The SQL itself is in
``events.backends`` (``tables``, ``backup``, and the store's own ``queries``); this
module only chooses.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from events.backends import is_server_store, store_settings
from events.backends.tables import (
    PostgresTables,
    SQLiteTables,
    Tables,
    postgres_pool_tables,
    sibling_path,
)

if TYPE_CHECKING:
    from events.store import GameStore

__all__ = [
    "PROJECTOR_TABLES",
    "READ_MODELS",
    "Database",
    "database_of",
    "open_database",
    "sibling_path",
]

PROJECTOR_TABLES = (
    "games",
    "game_players",
    "standings",
    "ratings",
    "rating_history",
    "heads",
    "audit",
)
"""The tables the projector (``projections.projector``) folds the log into."""

READ_MODELS = (
    *PROJECTOR_TABLES,
    "projection_state",
    "queue_fold",  # the referees' queue's snapshot (projections.queue): a rebuild drops it too
    "event_snapshot",  # events' folded states (projections.event_state): a rebuild drops them too
    "event_snapshot_round",  # and their earlier rounds
    "event_snapshot_standings",  # and their kept standings
    "event_snapshot_players",  # and their players
)
"""Every read model's table (``projections``): what a rebuild drops on PostgreSQL (on
SQLite the whole file goes)."""


class Database:
    """A store's database: a SQLite file (``path``) or a PostgreSQL schema (``env``, the
    library's ``POSTGRES_*`` settings), and, once opened, the store on it (whose
    connection pool the read models share on PostgreSQL)."""

    def __init__(
        self,
        *,
        path: str | None,
        env: Mapping[str, str],
        store: GameStore | None = None,
        read_only: bool = False,
    ) -> None:
        self.path = path
        self.env = dict(env)
        self.kind = "sqlite" if path is not None else "postgres"
        self._store = store
        self.read_only = read_only

    # -- the event store -------------------------------------------------------------
    def store(self, **options: Any) -> GameStore:
        """The event store on this database (the one already open, if any)."""
        if self._store is None:
            from events.store import GameStore

            self._store = GameStore(self.path, env=self.env, **options)
        return self._store

    # -- the side tables -------------------------------------------------------------
    def side_tables(self) -> Tables:
        """The service's own small tables (tokens, idempotency keys): a file beside a SQLite
        store (one connection per thread), a small pool of their own on PostgreSQL (with
        LISTEN/NOTIFY for a token revoked elsewhere). Events are never written there."""
        if self.path is not None:
            return SQLiteTables(
                sibling_path(self.path, "access"),
                marker="referee_tokens",
                timeout=10.0,
                per_thread=True,
            )
        return postgres_pool_tables(self.env, marker="tokens")

    # -- the read models -------------------------------------------------------------
    def read_models(self, path: str | os.PathLike[str] | None = None) -> Tables:
        """The read models' tables: their own SQLite file beside the store (``path``, or
        ``x.projections.db``), or ``referee_*`` tables in the store's PostgreSQL schema on
        the store's own connection pool."""
        if self.path is not None or path is not None:
            where = path if path is not None else sibling_path(self.path or "", "projections")
            return SQLiteTables(
                where,
                marker="projection_state",
                tables=READ_MODELS,
                read_only=self.read_only,
                cache=True,
            )
        backend: Any = self.store().backend
        datastore = backend.datastore
        return PostgresTables(
            datastore.get_connection,
            schema=datastore.schema,
            marker="projection_state",
            tables=READ_MODELS,
        )

    # -- backups ---------------------------------------------------------------------
    def backup_to(self, dest: Path) -> int:
        """Copy the whole store into the new SQLite store file ``dest`` (made empty by the
        caller for a PostgreSQL store; made here for a SQLite one); the number of events."""
        from events.backends.backup import dump_postgres, sqlite_copy

        if self.path is not None:
            return sqlite_copy(Path(self.path), dest)
        events_table, checkpoints = self._tables()
        with self.store().plain_cursor() as cursor:
            return dump_postgres(cursor, events_table, checkpoints, dest)

    def restore_from(self, origin: Path) -> int:
        """Make this (new, empty) store from the backup ``origin``; the number of events.
        ``ValueError`` when this store already holds events."""
        from events.backends.backup import restore_postgres, sqlite_copy

        if self.path is not None:
            if Path(self.path).exists():
                raise ValueError("a store is already there")
            return sqlite_copy(origin, Path(self.path))
        events_table, checkpoints = self._tables()
        with self.store().plain_cursor(write=True) as cursor:
            return restore_postgres(cursor, events_table, checkpoints, origin)

    def _tables(self) -> tuple[str, str]:
        backend: Any = self.store().backend
        return backend.events_table, backend.qualified("referee_checkpoints")

    def unused(self) -> bool:
        """Whether this is a SQLite store file without one event (a refused command that
        made it may delete it); never for a database server."""
        from events.backends.backup import sqlite_unused

        path = Path(self.path) if self.path is not None else None
        return path is not None and path.is_file() and sqlite_unused(path)

    def close(self) -> None:
        if self._store is not None:
            self._store.close()


def open_database(
    target: str | os.PathLike[str] | None, env: Mapping[str, str] | None = None
) -> Database:
    """The database a store target names: a ``postgresql://`` URL, the library's settings
    (``PERSISTENCE_MODULE=eventsourcing.postgres`` with ``POSTGRES_*``), or a SQLite file
    (``None``: ``REFEREE_DB`` or ``./referee.db``)."""
    settings = dict(env or {})
    name = os.fspath(target) if target is not None else None
    if name is not None and name.startswith(("postgresql://", "postgres://")):
        settings = {**store_settings(name), **settings}
        return Database(path=None, env=settings)
    if is_server_store("", settings) and name is None:
        return Database(path=None, env=settings)
    return Database(path=name or os.environ.get("REFEREE_DB") or "referee.db", env=settings)


def database_of(store: GameStore) -> Database:
    """The database of an open ``store`` (its read models on its own pool)."""
    if store.kind == "postgres":
        return Database(path=None, env={}, store=store)
    return Database(path=store.path or "referee.db", env={}, store=store, read_only=store.read_only)
