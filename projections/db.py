"""Where the read models live: a SQLite file beside a SQLite store, or tables beside the
events in the store's own PostgreSQL database.

Both speak the same SQL here (``?`` placeholders, ``ON CONFLICT`` upserts); tables
are named through ``t(name)``, which adds ``referee_`` on PostgreSQL so the read
models never collide with other tables of a shared schema. ``locked`` opens the
one transaction a catch-up runs in, holding a lock that keeps every other runner
out until it commits (``BEGIN IMMEDIATE`` on SQLite, a transaction-scoped
advisory lock on PostgreSQL): position and data change together, exactly once.
"""

from __future__ import annotations

import os
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

__all__ = ["Cursor", "PostgresProjectionDB", "ProjectionDB", "SQLiteProjectionDB"]

LOCK_KEY = 0x5245_4650  # "REFP": the projection's advisory lock on PostgreSQL


class Cursor(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ...) -> Any: ...

    def executemany(self, sql: str, params: Sequence[Sequence[Any]]) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def fetchone(self) -> Any: ...


class ProjectionDB(ABC):
    """A connection to the read models, with the SQL dialect it needs."""

    prefix = ""
    kind = ""
    blob = "BLOB"
    """The column type for bytes."""

    def absent(self) -> bool:
        """Whether there is certainly nothing here to read (so a reader need not connect)."""
        return False

    def t(self, name: str) -> str:
        return self.prefix + name

    @abstractmethod
    def sql(self, text: str) -> str:
        """``text`` with this database's placeholders."""

    @abstractmethod
    @contextmanager
    def locked(self) -> Iterator[Cursor]:
        """A write transaction no other runner can enter until it ends."""

    @abstractmethod
    @contextmanager
    def reading(self) -> Iterator[Cursor]:
        """A read-only cursor."""

    @abstractmethod
    def exists(self) -> bool:
        """Whether the read models were ever built here."""

    @abstractmethod
    def drop(self) -> None:
        """Remove every read model (for a rebuild)."""

    def close(self) -> None:
        return None

    @property
    def where(self) -> str:
        return ""


class SQLiteProjectionDB(ProjectionDB):
    """Read models in their own SQLite file (``referee.db`` -> ``referee.projections.db``)."""

    kind = "sqlite"

    def absent(self) -> bool:
        return not self.path.exists()  # (connecting would create the file)

    def __init__(
        self, path: str | os.PathLike[str], *, timeout: float = 60.0, read_only: bool = False
    ) -> None:
        self.path = Path(path)
        self.timeout = timeout
        self.read_only = read_only
        self._conn: sqlite3.Connection | None = None

    @property
    def where(self) -> str:
        return str(self.path)

    def sql(self, text: str) -> str:
        return text

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            if self.read_only:
                conn = sqlite3.connect(
                    f"file:{self.path}?immutable=1",
                    uri=True,
                    isolation_level=None,
                    check_same_thread=False,
                )
            else:
                conn = sqlite3.connect(
                    self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False
                )
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
                # A catch-up page touches rows all over the games, players and heads tables:
                # a 64 MB page cache keeps them, and checkpointing every 200 MB of WAL rather
                # than every 4 MB let a full build run 1.6 times as fast (BENCHMARKS.md).
                conn.execute("PRAGMA cache_size=-65536")
                conn.execute("PRAGMA wal_autocheckpoint=50000")
                conn.execute("PRAGMA journal_size_limit=67108864")
            self._conn = conn
        return self._conn

    @contextmanager
    def locked(self) -> Iterator[Cursor]:
        cursor = self.conn.cursor()
        cursor.execute("BEGIN IMMEDIATE")
        try:
            yield cursor
        except BaseException:
            cursor.execute("ROLLBACK")
            raise
        cursor.execute("COMMIT")

    @contextmanager
    def reading(self) -> Iterator[Cursor]:
        yield self.conn.cursor()

    def exists(self) -> bool:
        """Whether the projector's tables are here: the file alone may hold only snapshots
        (the queue's, events'), which do not make the read models built."""
        if not self.path.exists():
            return False
        with self.reading() as cursor:
            cursor.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'projection_state'"
            )
            return cursor.fetchone() is not None

    def drop(self) -> None:
        self.close()
        for suffix in ("", "-wal", "-shm"):
            Path(str(self.path) + suffix).unlink(missing_ok=True)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


class PostgresProjectionDB(ProjectionDB):
    """Read models as ``referee_*`` tables in the store's PostgreSQL schema."""

    kind = "postgres"
    prefix = "referee_"
    blob = "BYTEA"

    def __init__(self, datastore: Any) -> None:
        self.datastore = datastore
        self.schema = datastore.schema

    @property
    def where(self) -> str:
        return f"PostgreSQL schema {self.schema}"

    def t(self, name: str) -> str:
        return f'"{self.schema}".{self.prefix}{name}'

    def sql(self, text: str) -> str:
        return text.replace("?", "%s")

    @contextmanager
    def _cursor(self, *, commit: bool) -> Iterator[Any]:
        from psycopg.rows import tuple_row

        with (
            self.datastore.get_connection() as conn,
            conn.transaction(force_rollback=not commit),
            conn.cursor(row_factory=tuple_row) as cursor,
        ):
            yield _PgCursor(cursor)

    @contextmanager
    def locked(self) -> Iterator[Cursor]:
        with self._cursor(commit=True) as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(?)", (LOCK_KEY,))
            yield cursor

    @contextmanager
    def reading(self) -> Iterator[Cursor]:
        with self._cursor(commit=False) as cursor:
            yield cursor

    def exists(self) -> bool:
        with self.reading() as cursor:
            cursor.execute(
                "SELECT to_regclass(?)", (f'"{self.schema}".{self.prefix}projection_state',)
            )
            row = cursor.fetchone()
        return bool(row and row[0])

    def drop(self) -> None:
        with self.locked() as cursor:
            for name in TABLES:
                cursor.execute(f"DROP TABLE IF EXISTS {self.t(name)}")


def projection_path(store_db: str) -> str:
    """The read models' SQLite file beside a SQLite store (``x.db`` -> ``x.projections.db``)."""
    root, ext = os.path.splitext(store_db)
    return f"{root}.projections{ext or '.db'}"


def projection_db(store: Any, path: str | os.PathLike[str] | None = None) -> ProjectionDB:
    """Where ``store``'s read models are kept: tables in its own schema when the store is
    on a database server (``store.backend`` hands over its connections), else their own
    SQLite file (``path``, or one beside the store's file)."""
    if store.kind == "postgres":
        return PostgresProjectionDB(store.backend.datastore)
    where = path if path is not None else projection_path(store.path or "referee.db")
    return SQLiteProjectionDB(where, read_only=store.read_only)


class _PgCursor:
    """A psycopg cursor that takes ``?`` placeholders like sqlite3."""

    def __init__(self, cursor: Any) -> None:
        self._cursor = cursor

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._cursor.execute(sql.replace("?", "%s"), params)

    def executemany(self, sql: str, params: Sequence[Sequence[Any]]) -> Any:
        if params:
            return self._cursor.executemany(sql.replace("?", "%s"), params)
        return None

    def fetchall(self) -> list[Any]:
        rows: list[Any] = self._cursor.fetchall()
        return rows

    def fetchone(self) -> Any:
        return self._cursor.fetchone()


TABLES = (
    "games",
    "game_players",
    "standings",
    "ratings",
    "rating_history",
    "heads",
    "audit",
    "projection_state",
    "queue_fold",  # the referees' queue's snapshot (service.room): a rebuild drops it too
    "event_state",  # events' folded states (projections.event_state): a rebuild drops them too
)
