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
from events.database import READ_MODELS, database_of, sibling_path

if TYPE_CHECKING:
    from events.store import GameStore

__all__ = ["TABLES", "Cursor", "ProjectionDB", "projection_db", "projection_path"]

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
