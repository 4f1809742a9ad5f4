"""The read models' database: where every table of ``projections`` lives.

This is the one module of ``projections`` that reaches a database. The tables are
opened by the store's database factory (``events.database.Database.read_models``): a
SQLite file of their own beside a SQLite store (``referee.db`` ->
``referee.projections.db``; delete it at any time, it is rebuilt from the log), or
``referee_*`` tables beside the events in the store's PostgreSQL schema, on the store's
own connection pool. The connection (``events.backends.tables.Tables``) speaks one SQL
for both (``?`` placeholders, ``ON CONFLICT`` upserts, ``t(name)`` for a table's name);
``locked`` is the one transaction a catch-up runs in, holding a lock that keeps every
other runner out until it commits: position and data change together, exactly once.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from events.backends.tables import Cursor, Tables
from events.database import PROJECTOR_TABLES, READ_MODELS, database_of, sibling_path

if TYPE_CHECKING:
    from events.store import GameStore

__all__ = [
    "PROJECTOR_TABLES",
    "TABLES",
    "Cursor",
    "ProjectionDB",
    "Snapshots",
    "projection_db",
    "projection_path",
]

ProjectionDB = Tables
"""A connection to the read models, with the SQL dialect it needs."""

TABLES = READ_MODELS
"""Every read model's table."""


def projection_path(store_db: str) -> str:
    """The read models' SQLite file beside a SQLite store (``x.db`` -> ``x.projections.db``)."""
    return sibling_path(store_db, "projections")


def projection_db(store: GameStore, path: str | os.PathLike[str] | None = None) -> ProjectionDB:
    """Where ``store``'s read models are kept: tables in its own schema when the store is
    on a database server, else their own SQLite file (``path``, or one beside the store's
    file)."""
    return database_of(store).read_models(path)


class Snapshots:
    """A table of snapshots beside the read models: ``name`` -> (the log position it
    covers, the schema version it was written with, its bytes). A snapshot is only a
    cache: one missing, unreadable or of another schema is ignored by its reader, which
    folds from the log instead; a rebuild drops the table with the read models."""

    def __init__(self, db: ProjectionDB, table: str) -> None:
        self.db = db
        self.table = db.t(table)
        self.ddl = (
            f"CREATE TABLE IF NOT EXISTS {self.table} (name TEXT PRIMARY KEY, position BIGINT "
            f"NOT NULL, schema_version BIGINT NOT NULL, state {db.blob} NOT NULL)"
        )

    def load(self, name: str) -> tuple[int, int, bytes] | None:
        """(position, schema version, bytes) of the snapshot ``name``, or ``None``."""
        if self.db.absent():
            return None
        try:
            with self.db.reading() as cursor:
                cursor.execute(
                    f"SELECT position, schema_version, state FROM {self.table} WHERE name = ?",
                    (name,),
                )
                row = cursor.fetchone()
        except Exception:
            return None
        return None if row is None else (int(row[0]), int(row[1]), bytes(row[2]))

    def save(self, name: str, position: int, schema_version: int, state: bytes) -> bool:
        """Keep ``state`` as the snapshot ``name`` at ``position``, unless one as far or
        further is there (another process got further); whether it was kept."""
        with self.db.locked() as cursor:
            cursor.execute(self.ddl)
            cursor.execute(f"SELECT position FROM {self.table} WHERE name = ?", (name,))
            row = cursor.fetchone()
            if row is not None and int(row[0]) >= position:
                return False
            cursor.execute(
                f"INSERT INTO {self.table} (name, position, schema_version, state) VALUES "
                "(?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position, "
                "schema_version = excluded.schema_version, state = excluded.state",
                (name, position, schema_version, state),
            )
        return True

    def close(self) -> None:
        self.db.close()
