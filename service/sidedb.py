"""The service's own small tables beside the event store: access tokens and
idempotency keys.

They live where the games live, so every server process of one store shares
them: in PostgreSQL, tables ``referee_*`` of the same database and schema; with
SQLite, a file beside the store (``referee.db`` -> ``referee.access.db``), like
the projections file, so copying a store never copies anyone's tokens. Events
are never written here.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Sequence
from typing import Any

from service.stores import StoreSpec

__all__ = ["SideDB", "open_side_db", "side_path"]

Row = tuple[Any, ...]


def side_path(store_db: str) -> str:
    """``referee.db`` -> ``referee.access.db``."""
    root, ext = os.path.splitext(store_db)
    return f"{root}.access{ext or '.db'}"


class SideDB:
    """A few SQL statements on SQLite or PostgreSQL, each in its own transaction.

    SQL is written with ``?`` placeholders and portable statements (``INSERT ...
    ON CONFLICT DO NOTHING``); PostgreSQL gets ``%s``."""

    kind: str

    def execute(self, sql: str, params: Sequence[Any] = ()) -> tuple[int, list[Row]]:
        """Run one statement in a transaction: (rows changed, rows returned)."""
        raise NotImplementedError

    def script(self, statements: Sequence[str]) -> None:
        for sql in statements:
            self.execute(sql)

    def watch(self, channel: str, changed: Callable[[], None]) -> bool:
        """Call ``changed`` whenever another process says ``channel`` changed (``tell``),
        promptly and for as long as this is open. ``False``: this backend cannot watch,
        or the watch ended (check ``watching``); the caller then asks every time."""
        return False

    @property
    def watching(self) -> bool:
        """Whether a ``watch`` is still delivering."""
        return False

    def tell(self, channel: str) -> None:
        """Tell every process watching ``channel`` that it changed."""

    def close(self) -> None:
        """Release the connections."""


class SQLiteSide(SideDB):
    """One connection per thread to the access file (WAL, a busy timeout)."""

    kind = "sqlite"

    def __init__(self, path: str) -> None:
        self.path = path
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._lock = threading.Lock()

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(
                self.path, timeout=10.0, isolation_level=None, check_same_thread=False
            )
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            self._local.conn = conn
            with self._lock:
                self._all.append(conn)
        return conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> tuple[int, list[Row]]:
        conn = self._conn()
        cursor = conn.execute(sql, tuple(params))
        rows = cursor.fetchall()
        return cursor.rowcount, rows

    def data_version(self) -> int:
        """SQLite's ``PRAGMA data_version`` on this thread's connection: it changes when
        another connection (another process, or thread) commits to the file. Cheap: no
        read of the tables, so a cache can ask it on every use."""
        (version,) = self._conn().execute("PRAGMA data_version").fetchone()
        return int(version)

    def close(self) -> None:
        with self._lock:
            for conn in self._all:
                conn.close()
            self._all.clear()
        self._local = threading.local()


class PostgresSide(SideDB):
    """A small connection pool on the store's PostgreSQL database and schema."""

    kind = "postgres"

    def __init__(self, env: dict[str, str]) -> None:
        from psycopg.conninfo import make_conninfo
        from psycopg_pool import ConnectionPool

        schema = env.get("POSTGRES_SCHEMA", "")
        options = f"-c search_path={schema}" if schema else ""
        conninfo = make_conninfo(
            host=env.get("POSTGRES_HOST", "127.0.0.1"),
            port=env.get("POSTGRES_PORT", "5432"),
            dbname=env["POSTGRES_DBNAME"],
            user=env.get("POSTGRES_USER", "postgres"),
            password=env.get("POSTGRES_PASSWORD", ""),
            connect_timeout=env.get("POSTGRES_CONNECT_TIMEOUT", "5"),
            options=options,
        )
        self.conninfo = conninfo
        self.pool: Any = ConnectionPool(
            conninfo, min_size=1, max_size=8, open=True, kwargs={"autocommit": True}
        )
        self._listener: threading.Thread | None = None
        self._stop = threading.Event()

    def watch(self, channel: str, changed: Callable[[], None]) -> bool:
        """LISTEN on ``channel`` from a connection of its own, on a daemon thread that
        calls ``changed`` for each NOTIFY; ``False`` when the connection cannot be made."""
        import psycopg

        try:
            conn = psycopg.connect(self.conninfo, autocommit=True)
            conn.execute(f"LISTEN {channel}")
        except psycopg.Error:
            return False

        def listen() -> None:
            try:
                while not self._stop.is_set():
                    for _ in conn.notifies(timeout=0.5):
                        changed()
            except psycopg.Error:
                changed()  # whatever was missed: start over, asking every time
            finally:
                conn.close()

        self._listener = threading.Thread(target=listen, name=f"watch-{channel}", daemon=True)
        self._listener.start()
        return True

    @property
    def watching(self) -> bool:
        return self._listener is not None and self._listener.is_alive()

    def tell(self, channel: str) -> None:
        self.execute("SELECT pg_notify(?, '')", (channel,))

    def script(self, statements: Sequence[str]) -> None:
        """Run ``statements`` (the side tables' ``CREATE TABLE IF NOT EXISTS``, a column
        added) in one transaction under the store's schema lock (issue 31): PostgreSQL's
        ``IF NOT EXISTS`` is no guard against another process creating the same table at
        the same moment (``UniqueViolation`` on ``pg_type``), so first starts of several
        workers at once take turns; later starts find every table and wait for nobody."""
        from events.backends.locks import SCHEMA_LOCK_KEY

        with self.pool.connection() as conn, conn.transaction(), conn.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK_KEY,))
            for sql in statements:
                cursor.execute(sql.replace("?", "%s"))

    def execute(self, sql: str, params: Sequence[Any] = ()) -> tuple[int, list[Row]]:
        with self.pool.connection() as conn, conn.cursor() as cursor:
            cursor.execute(sql.replace("?", "%s"), tuple(params))
            rows = cursor.fetchall() if cursor.description is not None else []
            return cursor.rowcount, [tuple(r) for r in rows]

    def close(self) -> None:
        self._stop.set()
        if self._listener is not None:
            self._listener.join(2)
        self.pool.close()


def open_side_db(spec: StoreSpec) -> SideDB:
    """The side tables of the store ``spec`` names."""
    if spec.is_postgres:
        return PostgresSide(spec.env)
    assert spec.db is not None
    return SQLiteSide(side_path(spec.db))
