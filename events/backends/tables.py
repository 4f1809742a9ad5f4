"""Tables beside the events: one SQLite/PostgreSQL pair for everything the service keeps
in a store's database that is not an event (the read models, the side tables).

``Tables`` is a few SQL statements' worth of connection with the dialect they need:
``?`` placeholders everywhere (PostgreSQL gets ``%s``), ``t(name)`` for a table's name
(``referee_`` and the schema added on PostgreSQL where the tables share the events'
schema), ``locked`` for the one transaction a catch-up runs in (``BEGIN IMMEDIATE`` on
SQLite, a transaction-scoped advisory lock on PostgreSQL: position and data change
together, exactly once), ``reading`` for a read, ``execute`` for one statement in a
transaction of its own (the side tables' way), ``watch``/``tell`` for a change another
process announces (PostgreSQL's LISTEN/NOTIFY).

Which tables live where is ``events.database``'s choice (the one factory per database);
what is in them is their owners' (``projections``; the tokens and idempotency keys of
``service.access`` and ``service.idempotency``).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, Protocol

from events.backends.checkpoints import Checkpoints
from events.backends.locks import SCHEMA_LOCK_KEY

__all__ = [
    "LOCK_KEY",
    "Cursor",
    "PostgresTables",
    "Row",
    "SQLiteTables",
    "Tables",
    "postgres_pool_tables",
    "sibling_path",
]

LOCK_KEY = 0x5245_4650  # "REFP": the read models' advisory lock on PostgreSQL

Row = tuple[Any, ...]


def sibling_path(store_db: str, role: str) -> str:
    """A file beside a SQLite store: ``referee.db`` -> ``referee.<role>.db``."""
    root, ext = os.path.splitext(store_db)
    return f"{root}.{role}{ext or '.db'}"


class Cursor(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ...) -> Any: ...

    def executemany(self, sql: str, params: Sequence[Sequence[Any]]) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def fetchone(self) -> Any: ...


class Tables(ABC):
    """A connection to a set of tables, with the SQL dialect it needs."""

    prefix = ""
    kind = ""
    blob = "BLOB"
    """The column type for bytes."""

    def __init__(self, *, marker: str, tables: Sequence[str]) -> None:
        self.marker = marker
        """The table whose presence says the set was ever built (``exists``)."""
        self.tables = tuple(tables)
        """The tables ``drop`` removes."""

    def absent(self) -> bool:
        """Whether there is certainly nothing here to read (so a reader need not connect)."""
        return False

    def t(self, name: str) -> str:
        return self.prefix + name

    @abstractmethod
    def sql(self, text: str) -> str:
        """``text`` with this database's placeholders."""

    @abstractmethod
    def locked(self) -> AbstractContextManager[Cursor]:
        """A write transaction no other runner can enter until it ends."""

    @abstractmethod
    def reading(self) -> AbstractContextManager[Cursor]:
        """A read-only cursor."""

    @abstractmethod
    def execute(self, sql: str, params: Sequence[Any] = ()) -> tuple[int, list[Row]]:
        """Run one statement in a transaction of its own: (rows changed, rows returned)."""

    def script(self, statements: Sequence[str]) -> None:
        """Run ``statements`` (creating tables, adding a column)."""
        for sql in statements:
            self.execute(sql)

    @abstractmethod
    def exists(self) -> bool:
        """Whether the tables were ever built here (their ``marker`` table is)."""

    @abstractmethod
    def drop(self) -> None:
        """Remove every table of the set (for a rebuild)."""

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
        """Tell every process watching ``channel`` that it changed (a backend that cannot
        watch has nobody to tell)."""
        return None

    def checkpoint_apart(self) -> None:
        """After a large write: copy the file's log into it meanwhile (SQLite's
        ``Checkpoints``), not at the close; nothing where the server keeps the log."""
        return None

    def close(self) -> None:
        """Release the connections."""
        return None

    @property
    def where(self) -> str:
        return ""


class SQLiteTables(Tables):
    """Tables in a SQLite file of their own beside the store (``x.projections.db``,
    ``x.access.db``): copying a store never copies them, deleting one loses nothing the
    log cannot give again (read models) or nothing the store holds (tokens).

    ``per_thread``: one connection per thread (the side tables, used by every request
    thread at once); else one connection shared by the threads (the read models, whose
    catch-ups take the file's write lock anyway). ``cache``: the read models' large page
    cache and rare checkpoints."""

    kind = "sqlite"

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        marker: str,
        tables: Sequence[str] = (),
        timeout: float = 60.0,
        read_only: bool = False,
        per_thread: bool = False,
        cache: bool = False,
    ) -> None:
        super().__init__(marker=marker, tables=tables)
        self.path = Path(path)
        self.timeout = timeout
        self.read_only = read_only
        self.per_thread = per_thread
        self.cache = cache
        self._conn: sqlite3.Connection | None = None
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self.checkpoints = Checkpoints(lambda: sqlite3.connect(self.path, timeout=self.timeout))

    def absent(self) -> bool:
        return not self.path.exists()  # (connecting would create the file)

    @property
    def where(self) -> str:
        return str(self.path)

    def sql(self, text: str) -> str:
        return text

    def _connect(self) -> sqlite3.Connection:
        if self.read_only:
            return sqlite3.connect(
                f"file:{self.path}?immutable=1",
                uri=True,
                isolation_level=None,
                check_same_thread=False,
            )
        conn = sqlite3.connect(
            self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False
        )
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        if self.cache:
            # A catch-up page touches rows all over the games, players and heads tables:
            # a 64 MB page cache keeps them, and checkpointing every 200 MB of WAL rather
            # than every 4 MB let a full build run 1.6 times as fast (BENCHMARKS.md).
            conn.execute("PRAGMA cache_size=-65536")
            conn.execute("PRAGMA wal_autocheckpoint=50000")
            conn.execute("PRAGMA journal_size_limit=67108864")
        return conn

    @property
    def conn(self) -> sqlite3.Connection:
        """This thread's connection (``per_thread``), or the one shared connection."""
        if self.per_thread:
            found: sqlite3.Connection | None = getattr(self._local, "conn", None)
            if found is None:
                found = self._local.conn = self._connect()
                with self._lock:
                    self._all.append(found)
            return found
        if self._conn is None:
            self._conn = self._connect()
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

    def execute(self, sql: str, params: Sequence[Any] = ()) -> tuple[int, list[Row]]:
        cursor = self.conn.execute(sql, tuple(params))
        rows = cursor.fetchall()
        return cursor.rowcount, rows

    def data_version(self) -> int:
        """SQLite's ``PRAGMA data_version`` on this thread's connection: it changes when
        another connection (another process, or thread) commits to the file. Cheap: no
        read of the tables, so a cache can ask it on every use."""
        (version,) = self.conn.execute("PRAGMA data_version").fetchone()
        return int(version)

    def exists(self) -> bool:
        """Whether the marker table is here: the file alone may hold other tables (the
        read models' file keeps the queue's and events' snapshots, which do not make the
        read models built)."""
        if not self.path.exists():
            return False
        with self.reading() as cursor:
            cursor.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (self.marker,)
            )
            return cursor.fetchone() is not None

    def drop(self) -> None:
        """Delete the whole file: everything in it is rebuilt from the log."""
        self.close()
        for suffix in ("", "-wal", "-shm"):
            Path(str(self.path) + suffix).unlink(missing_ok=True)

    def checkpoint_apart(self) -> None:
        if not self.read_only:
            self.checkpoints.start()

    def close(self) -> None:
        self.checkpoints.settle()  # the last close then finds the log copied, and removes it
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        with self._lock:
            for conn in self._all:
                conn.close()
            self._all.clear()
        self._local = threading.local()


class PostgresTables(Tables):
    """Tables in the store's own PostgreSQL database and schema, named ``referee_*`` so
    they never collide with other tables of a shared schema.

    ``connection``: where connections come from, each an autocommit psycopg connection
    (the store's own pool for the read models, a small pool of the side tables' own for
    tokens: a burst of requests never waits behind a catch-up). ``conninfo``: given,
    ``watch`` listens on a connection of its own."""

    kind = "postgres"
    prefix = "referee_"
    blob = "BYTEA"

    def __init__(
        self,
        connection: Callable[[], AbstractContextManager[Any]],
        *,
        schema: str,
        marker: str,
        tables: Sequence[str] = (),
        qualify: bool = True,
        conninfo: str | None = None,
        on_close: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(marker=marker, tables=tables)
        self.connection = connection
        self.schema = schema
        self.qualify = qualify
        self.conninfo = conninfo
        self._on_close = on_close
        self._listener: threading.Thread | None = None
        self._stop = threading.Event()

    @property
    def where(self) -> str:
        return f"PostgreSQL schema {self.schema}"

    def t(self, name: str) -> str:
        return f'"{self.schema}".{self.prefix}{name}' if self.qualify else self.prefix + name

    def sql(self, text: str) -> str:
        return text.replace("?", "%s")

    @contextmanager
    def _cursor(self, *, commit: bool) -> Iterator[Cursor]:
        from psycopg.rows import tuple_row

        with (
            self.connection() as conn,
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

    def execute(self, sql: str, params: Sequence[Any] = ()) -> tuple[int, list[Row]]:
        with self.connection() as conn, conn.cursor() as cursor:
            cursor.execute(sql.replace("?", "%s"), tuple(params))
            rows = cursor.fetchall() if cursor.description is not None else []
            return cursor.rowcount, [tuple(r) for r in rows]

    def script(self, statements: Sequence[str]) -> None:
        """Run ``statements`` in one transaction under the store's schema lock (issue 31):
        PostgreSQL's ``IF NOT EXISTS`` is no guard against another process creating the
        same table at the same moment (``UniqueViolation`` on ``pg_type``), so first starts
        of several workers at once take turns; later starts find every table and wait for
        nobody."""
        with self.connection() as conn, conn.transaction(), conn.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK_KEY,))
            for sql in statements:
                cursor.execute(sql.replace("?", "%s"))

    def exists(self) -> bool:
        with self.reading() as cursor:
            cursor.execute("SELECT to_regclass(?)", (self.t(self.marker),))
            row = cursor.fetchone()
        return bool(row and row[0])

    def drop(self) -> None:
        with self.locked() as cursor:
            for name in self.tables:
                cursor.execute(f"DROP TABLE IF EXISTS {self.t(name)}")

    def watch(self, channel: str, changed: Callable[[], None]) -> bool:
        """LISTEN on ``channel`` from a connection of its own, on a daemon thread that
        calls ``changed`` for each NOTIFY; ``False`` when the connection cannot be made."""
        import psycopg

        if self.conninfo is None:
            return False
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

    def close(self) -> None:
        self._stop.set()
        if self._listener is not None:
            self._listener.join(2)
        if self._on_close is not None:
            self._on_close()


def postgres_pool_tables(env: Mapping[str, str], *, marker: str) -> PostgresTables:
    """Tables on a small autocommit connection pool of their own, to the database and schema
    the library's ``POSTGRES_*`` settings ``env`` name (LISTEN/NOTIFY included)."""
    from psycopg.conninfo import make_conninfo
    from psycopg_pool import ConnectionPool

    schema = env.get("POSTGRES_SCHEMA", "")
    conninfo = make_conninfo(
        host=env.get("POSTGRES_HOST", "127.0.0.1"),
        port=env.get("POSTGRES_PORT", "5432"),
        dbname=env["POSTGRES_DBNAME"],
        user=env.get("POSTGRES_USER", "postgres"),
        password=env.get("POSTGRES_PASSWORD", ""),
        connect_timeout=env.get("POSTGRES_CONNECT_TIMEOUT", "5"),
        options=f"-c search_path={schema}" if schema else "",
    )
    pool: Any = ConnectionPool(
        conninfo, min_size=1, max_size=8, open=True, kwargs={"autocommit": True}
    )
    return PostgresTables(
        pool.connection,
        schema=schema or "public",
        marker=marker,
        qualify=False,  # the pool's search path names the schema
        conninfo=conninfo,
        on_close=pool.close,
    )


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
