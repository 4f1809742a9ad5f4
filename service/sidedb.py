"""The service's own small tables beside the event store: access tokens and
idempotency keys.

They live where the games live, so every server process of one store shares them: in
PostgreSQL, tables ``referee_*`` of the same database and schema; with SQLite, a file
beside the store (``referee.db`` -> ``referee.access.db``), like the read models'
file, so copying a store never copies anyone's tokens. Events are never written here.
The store's database factory opens them (``events.database.Database.side_tables``):
this module names them for the faces, which never import the event layer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from events.backends.tables import PostgresTables, Row, SQLiteTables, Tables, sibling_path

if TYPE_CHECKING:
    from service.stores import StoreSpec

__all__ = ["PostgresSide", "Row", "SQLiteSide", "SideDB", "open_side_db", "side_path"]

SideDB = Tables
"""A few SQL statements on SQLite or PostgreSQL, each in its own transaction (``execute``),
with ``watch``/``tell`` for a change another process announces."""
SQLiteSide = SQLiteTables
PostgresSide = PostgresTables


def side_path(store_db: str) -> str:
    """``referee.db`` -> ``referee.access.db``."""
    return sibling_path(store_db, "access")


def open_side_db(spec: StoreSpec) -> SideDB:
    """The side tables of the store ``spec`` names."""
    from events.database import open_database  # on use: naming the tables opens nothing

    return open_database(spec.db, spec.env).side_tables()
