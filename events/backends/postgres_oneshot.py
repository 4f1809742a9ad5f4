"""The PostgreSQL backend of one-shot commands: the same tables, one plain connection.

A one-shot ``referee act`` or ``show`` on PostgreSQL reads a game and (``act``) calls
the server function ``referee_append_rows``: two statements. The psycopg store of every
other command opens a connection pool (``psycopg_pool``, a thread that fills it) through
eventsourcing's postgres module; this persistence module
(``PERSISTENCE_MODULE=events.backends.postgres_oneshot``) opens one plain psycopg
connection instead, and reads and appends exactly as ``events.backends.postgres`` does:
the same table, the same function (so the same lock, notification and ordering), a
racing append failing on the same primary key as the library's ``IntegrityError``, a
lock wait past the bound as its ``OperationalError``. A server that cannot be reached,
or refuses us, is libpq's one line at once (the pool retries until its timeout).

What a one-game command never does is handed to the pooled backend, made on first use
from the same settings: creating the tables and the function when a statement finds
them missing, bulk inserts (COPY), the read models' connections (``datastore``).
``GameStore(one_shot=True)`` chooses this module for a ``postgresql://`` URL.

Importing psycopg is most of what such a command costs beyond SQLite (BENCHMARKS.md):
at a hall, a referee's laptop enters through the server (``referee --server URL act``),
which imports no driver at all.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from eventsourcing.persistence import (
    AggregateRecorder,
    ApplicationRecorder,
    DatabaseError,
    DataError,
    InfrastructureFactory,
    IntegrityError,
    InternalError,
    Notification,
    NotSupportedError,
    OperationalError,
    PersistenceError,
    ProcessRecorder,
    ProgrammingError,
    StoredEvent,
    TrackingRecorder,
)

from events.backends.locks import TakeLock, unlocked
from events.backends.pgcommon import APPEND_FUNCTION, PostgresNaming, append_params

__all__ = [
    "OneShotApplicationRecorder",
    "OneShotBackend",
    "OneShotDatastore",
    "OneShotFactory",
]

MISSING = ("42P01", "42883")  # undefined_table, undefined_function


def sqlstate(exc: BaseException) -> str:
    """The SQLSTATE of a psycopg error (empty for one the server did not send)."""
    return str(getattr(exc, "sqlstate", "") or "")


def _error(exc: BaseException) -> PersistenceError:
    """A server error as the library's persistence error of the same DB-API class
    (the classes psycopg gives by SQLSTATE, mapped as eventsourcing's datastore maps
    psycopg's)."""
    code = sqlstate(exc)
    text = str(exc)
    kind: type[PersistenceError]
    if code.startswith("23"):
        kind = IntegrityError
    elif code.startswith("22"):
        kind = DataError
    elif code[:2] in ("08", "28", "40", "53", "54", "55", "57", "58", "F0", "HV"):
        kind = OperationalError
    elif code[:2] in ("42", "21", "2F", "34", "3D", "3F", "44"):
        kind = ProgrammingError
    elif code.startswith("0A"):
        kind = NotSupportedError
    elif code[:2] in ("XX", "25", "26", "27", "2B", "2D", "39", "3B", "P0"):
        kind = InternalError
    else:
        kind = DatabaseError
    return kind(text)


class OneShotDatastore:
    """Connections to the server for one process: made on first use, kept for reuse
    (one at a time per thread; a one-shot command opens one)."""

    def __init__(self, env: Any) -> None:
        get = env.get
        self.host = get("POSTGRES_HOST") or "127.0.0.1"
        self.port = int(get("POSTGRES_PORT") or 5432)
        self.user = get("POSTGRES_USER") or "postgres"
        self.password = get("POSTGRES_PASSWORD") or None
        self.dbname = get("POSTGRES_DBNAME") or "postgres"
        self.schema = (get("POSTGRES_SCHEMA") or "").strip() or "public"
        self.connect_timeout = float(get("POSTGRES_CONNECT_TIMEOUT") or 30)
        idle = int(get("POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT") or 5)
        self.options = f"-c idle_in_transaction_session_timeout={idle * 1000}"
        self.lock_timeout = int(get("POSTGRES_LOCK_TIMEOUT") or 0)
        self._idle: list[Any] = []
        self._lock = threading.Lock()

    def connect(self) -> Any:
        """A new autocommit connection, its session's idle bound given at connect (no
        ``SET`` round trip); a server that cannot be reached, or that refuses us, is the
        library's ``OperationalError`` in libpq's words."""
        import psycopg

        try:
            return psycopg.connect(
                host=self.host,
                port=self.port,
                user=self.user,
                password=self.password,
                dbname=self.dbname,
                connect_timeout=int(self.connect_timeout),
                options=self.options,
                autocommit=True,
            )
        except psycopg.Error as exc:
            raise OperationalError(str(exc).strip()) from None

    @contextmanager
    def connection(self) -> Iterator[Any]:
        """A connection for one statement or one transaction; server errors come out as
        the library's persistence errors."""
        import psycopg

        with self._lock:
            conn = self._idle.pop() if self._idle else None
        if conn is None:
            conn = self.connect()
        healthy = False
        try:
            yield conn
            healthy = True
        except psycopg.Error as exc:
            healthy = not conn.closed  # autocommit, or rolled back by ``transaction``
            if isinstance(exc, psycopg.OperationalError) and not sqlstate(exc):
                raise OperationalError(f"the connection to the server was lost: {exc}") from None
            raise _error(exc) from None
        finally:
            if healthy:
                with self._lock:
                    self._idle.append(conn)
            else:
                _close(conn)

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            _close(conn)


def _close(conn: Any) -> None:
    """Close a connection whose socket may already be gone."""
    with contextlib.suppress(Exception):  # a broken connection has nothing left to close
        conn.close()


def _run(conn: Any, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """One statement on an autocommit connection: its rows (none for a command)."""
    cursor = conn.cursor()
    cursor.execute(sql, tuple(params) or None)
    rows = cursor.fetchall() if cursor.description else ()
    return [tuple(row) for row in rows]


class OneShotApplicationRecorder(ApplicationRecorder):
    """The application recorder's reads and appends over one psycopg connection, statement for
    statement those of ``events.backends.postgres.RefereePostgresRecorder``."""

    def __init__(self, datastore: OneShotDatastore, env: Any, events_table_name: str) -> None:
        self.datastore = datastore
        self.env = env
        self.events_table_name = events_table_name
        self.table = f'"{datastore.schema}"."{events_table_name}"'
        self.call_append = (
            f'SELECT * FROM "{datastore.schema}"."{APPEND_FUNCTION}"(%s::text[], '
            "%s::bigint[], %s::text[], %s::bytea[], %s)"
        )
        self.lock_wait = f"{datastore.lock_timeout}s"
        self._library: Any = None
        self._factory: Any = None

    def library_backend(self) -> Any:
        """The psycopg backend over the same store (made once, on first use)."""
        if self._library is None:
            from events.backends.postgres import PostgresBackend

            env = type(self.env)(
                self.env.name,
                {**self.env, "PERSISTENCE_MODULE": "eventsourcing.postgres", "CREATE_TABLE": "no"},
            )
            self._factory = InfrastructureFactory.construct(env)
            self._library = PostgresBackend(self._factory.application_recorder())
        return self._library

    def ensure_tables(self) -> bool:
        return bool(self.library_backend().ensure_tables())

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        """One call of ``referee_append_rows`` (one round trip, one transaction); a store
        whose tables or function are missing is set up first, as the psycopg recorder does."""
        if not stored_events:
            return []
        params = append_params(stored_events, self.lock_wait)
        for attempt in (1, 2):
            with self.datastore.connection() as conn:
                rows = _missing_as_none(conn, self.call_append, params, last=attempt == 2)
            if rows is not None:
                return [int(row[0]) for row in rows]
            self.ensure_tables()
        return None  # not reached

    def select_events(
        self,
        originator_id: Any,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        sql = (
            "SELECT originator_id, originator_version, topic, state FROM "
            f"{self.table} WHERE originator_id = %s"
        )
        params: list[Any] = [str(originator_id)]
        if gt is not None:
            params.append(gt)
            sql += " AND originator_version > %s"
        if lte is not None:
            params.append(lte)
            sql += " AND originator_version <= %s"
        sql += " ORDER BY originator_version DESC" if desc else " ORDER BY originator_version ASC"
        if limit is not None:
            params.append(limit)
            sql += " LIMIT %s"
        with self.datastore.connection() as conn:
            rows = _run(conn, sql, params)
        return [StoredEvent(g, v, t, s) for g, v, t, s in rows]

    def select_notifications(
        self,
        start: int | None,
        limit: int,
        stop: int | None = None,
        topics: Sequence[str] = (),
        *,
        inclusive_of_start: bool = True,
    ) -> Sequence[Notification]:
        where: list[str] = []
        params: list[Any] = []
        if start is not None:
            where.append("notification_id >= %s" if inclusive_of_start else "notification_id > %s")
            params.append(start)
        if stop is not None:
            where.append("notification_id <= %s")
            params.append(stop)
        if topics:
            where.append("topic = ANY(%s::text[])")
            params.append(list(topics))
        sql = (
            "SELECT notification_id, originator_id, originator_version, topic, state "
            f"FROM {self.table}"
            + (" WHERE " + " AND ".join(where) if where else "")
            + " ORDER BY notification_id LIMIT %s"
        )
        params.append(limit)
        with self.datastore.connection() as conn:
            rows = _run(conn, sql, params)
        return [
            Notification(id=i, originator_id=g, originator_version=v, topic=t, state=s)
            for i, g, v, t, s in rows
        ]

    def max_notification_id(self) -> int | None:
        with self.datastore.connection() as conn:
            rows = _run(conn, f"SELECT MAX(notification_id) FROM {self.table}")
        return int(rows[0][0]) if rows and rows[0][0] is not None else None

    def subscribe(self, gt: int | None = None, topics: Sequence[str] = ()) -> Any:
        raise NotImplementedError("subscriptions are the psycopg store's (referee serve)")

    def close(self) -> None:
        if self._library is not None:
            self._factory.close()
            self._library = None
        self.datastore.close()


def _missing_as_none(
    conn: Any, sql: str, params: Sequence[Any], *, last: bool
) -> list[tuple[Any, ...]] | None:
    """Run a statement; ``None`` rows when the store's tables (or its append function)
    are missing and another attempt follows."""
    try:
        return _run(conn, sql, params)
    except Exception as exc:
        if sqlstate(exc) in MISSING and not last:
            return None
        raise


class OneShotFactory(InfrastructureFactory[TrackingRecorder]):
    """eventsourcing's factory for ``PERSISTENCE_MODULE=events.backends.postgres_oneshot``:
    an application recorder only (a one-shot command needs no other)."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.datastore = OneShotDatastore(self.env)
        self._recorders: list[OneShotApplicationRecorder] = []

    def application_recorder(self) -> ApplicationRecorder:
        recorder = OneShotApplicationRecorder(
            self.datastore, self.env, (self.env.name.lower() or "stored") + "_events"
        )
        self._recorders.append(recorder)
        return recorder

    def aggregate_recorder(self, purpose: str = "events") -> AggregateRecorder:
        raise NotImplementedError("only an application recorder (events.backends.postgres_oneshot)")

    def tracking_recorder(
        self, tracking_recorder_class: type[TrackingRecorder] | None = None
    ) -> TrackingRecorder:
        raise NotImplementedError("only an application recorder (events.backends.postgres_oneshot)")

    def process_recorder(self) -> ProcessRecorder:
        raise NotImplementedError("only an application recorder (events.backends.postgres_oneshot)")

    def close(self) -> None:
        for recorder in self._recorders:
            recorder.close()
        self.datastore.close()
        super().close()


class OneShotBackend(PostgresNaming):
    """``events.backends.Backend`` over ``OneShotApplicationRecorder``: reads and side
    tables over one psycopg connection; creating tables, bulk inserts and the read models'
    connections through the psycopg backend of the same store."""

    def __init__(self, recorder: OneShotApplicationRecorder) -> None:
        self.recorder = recorder
        self.schema = recorder.datastore.schema
        self.events_table = self.qualified(recorder.events_table_name)

    @property
    def datastore(self) -> Any:
        """The library's psycopg datastore (the read models use its connections)."""
        return self.recorder.library_backend().datastore

    @contextmanager
    def cursor(self) -> Iterator[Any]:
        with self.recorder.datastore.connection() as conn:
            yield _Cursor(conn, self)

    @contextmanager
    def transaction(self, *, write: bool = False) -> Iterator[Any]:
        with self.recorder.datastore.connection() as conn:
            _run(conn, "BEGIN")
            try:
                yield _Cursor(conn, None)
            except BaseException:
                _run(conn, "ROLLBACK")
                raise
            _run(conn, "COMMIT" if write else "ROLLBACK")

    def ensure_tables(self) -> bool:
        return self.recorder.ensure_tables()

    def settle(self) -> None:
        """Nothing to wait for: the server keeps its own log (``Backend.settle``)."""

    def analyze(self) -> None:
        with self.recorder.datastore.connection() as conn:
            _run(conn, f"ANALYZE {self.events_table}")

    def watch(self, heard: Callable[[], None]) -> Callable[[], None] | None:
        """Nothing: a one-shot command follows no live stream (``Backend.watch``)."""
        return None

    def stream_lock(self, stream: str) -> contextlib.nullcontext[None]:
        """None taken: a one-shot command writes once over its one connection; a race it
        loses to a server is judged again (``Tournaments._raced``)."""
        return contextlib.nullcontext()

    def stream_locks(self) -> contextlib.AbstractContextManager[TakeLock]:
        """None taken either (``stream_lock``)."""
        return unlocked()

    def insert_numbered(self, rows: Sequence[tuple[str, int, str, bytes]]) -> list[int] | None:
        """None: COPY tells no positions; the store inserts through the recorder's append
        function, which does (and takes the log's lock and notifies)."""
        return None

    def bulk_insert(self, rows: Sequence[tuple[str, int, str, bytes]]) -> None:
        self.recorder.library_backend().bulk_insert(rows)


class _Cursor:
    """A DB-API-like cursor over one psycopg connection: ``execute``, then ``fetchone``
    or ``fetchall``. A reading cursor (``backend`` given) that finds the store's tables
    missing creates them and runs the statement again, as the psycopg backend's does."""

    def __init__(self, conn: Any, backend: OneShotBackend | None) -> None:
        self._conn = conn
        self._backend = backend
        self._rows: list[tuple[Any, ...]] = []

    def execute(self, sql: str, params: Sequence[Any] | None = None) -> None:
        try:
            self._rows = _run(self._conn, sql, params or ())
        except Exception as exc:
            if self._backend is None or sqlstate(exc) != "42P01":
                raise
            if not self._backend.ensure_tables():
                raise  # the tables were there: the statement names another one
            self._rows = _run(self._conn, sql, params or ())
        self._rows.reverse()

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """The statement once per row (one round trip each), as psycopg runs it."""
        for params in rows:
            self.execute(sql, params)

    def fetchone(self) -> Any:
        return self._rows.pop() if self._rows else None

    def fetchall(self) -> list[Any]:
        rows, self._rows = self._rows[::-1], []
        return rows
