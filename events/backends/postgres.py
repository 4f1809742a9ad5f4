"""The PostgreSQL backend: the library's recorder, made cheap to start and to append to.

eventsourcing's recorder keeps notification ids in commit order by taking an
EXCLUSIVE lock on the events table for every insert and holding it until the
transaction commits; its insert runs in a pipeline (lock, notify, insert, then a
sync and a commit), so the lock is held across two round trips. Here an append is
one call of a server-side function, ``referee_append_rows``, that takes the same
lock, notifies the same channel and inserts the rows, on an autocommit
connection: one statement, one round trip, and the commit that ends it releases
the lock. Ordering, uniqueness (a racing append still fails on the primary key)
and the notification channel are exactly the library's.

Starting costs no round trip either. A connection is opened with its session
settings in the connection string (the library sends a ``SET`` after each
connect), the function takes plain arrays (so no composite type is looked up at
start), and nothing is checked or created on an ordinary start: the tables and
the function are created the first time a statement finds them missing
(``ensure_tables``, under an advisory lock, so any number of first starts at
once succeed), which is also how a store made before this function gains it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from eventsourcing.persistence import OperationalError, PersistenceError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Composed, Identifier, Literal

from events.backends.locks import SCHEMA_LOCK_KEY, STREAM_LOCK_KEY, TakeLock
from events.backends.pgcommon import APPEND_FUNCTION, PostgresNaming, append_params

__all__ = ["APPEND_FUNCTION", "PostgresBackend", "RefereePostgresRecorder"]

MISSING = (psycopg.errors.UndefinedTable, psycopg.errors.UndefinedFunction)
"""What a statement raises on a store whose tables (or append function) are not made yet."""


class RefereePostgresRecorder(PostgresApplicationRecorder):
    """``PostgresApplicationRecorder`` whose inserts call ``referee_append_rows``, on
    connections configured when they are opened."""

    def __init__(
        self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events"
    ) -> None:
        _configure_at_connect(datastore)
        # The library looks up its composite row type when a recorder is made (a round
        # trip at every start) for its own insert; this one sends plain arrays instead.
        vars(datastore)["register_type_adapters"] = _no_type_adapters
        super().__init__(datastore, events_table_name=events_table_name)
        schema = Identifier(datastore.schema)
        self.append_function = APPEND_FUNCTION
        self.create_append_function: Composed = SQL(
            "CREATE OR REPLACE FUNCTION {schema}.{function}(ids text[], versions bigint[], "
            "topics text[], states bytea[], lock_wait text) RETURNS SETOF bigint "
            "LANGUAGE plpgsql AS $body$ BEGIN PERFORM set_config('lock_timeout', lock_wait, "
            "true); LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE; NOTIFY {channel}; RETURN "
            "QUERY INSERT INTO {schema}.{table} (originator_id, originator_version, topic, "
            "state) SELECT * FROM unnest(ids, versions, topics, states) RETURNING "
            "notification_id; END $body$"
        ).format(
            schema=schema,
            function=Identifier(APPEND_FUNCTION),
            table=Identifier(self.events_table_name),
            channel=Identifier(self.channel_name),
        )
        self.sql_create_statements.append(self.create_append_function)
        self.call_append: Composed = SQL(
            "SELECT * FROM {schema}.{function}(%s::text[], %s::bigint[], %s::text[], %s::bytea[], "
            "%s)"
        ).format(schema=schema, function=Identifier(APPEND_FUNCTION))
        self.lock_wait = (
            f"{int(datastore.lock_timeout)}s"  # this process's bound (0: wait without one)
        )

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        """Insert the events in one statement (one transaction, one round trip).

        Not retried after it was sent: an append whose commit went unanswered may have
        been stored, and a retry would then fail as a concurrent write; the caller hears
        the error. Only a store whose tables are missing is set up, and the append made."""
        if not stored_events:
            return []
        params = append_params(stored_events, self.lock_wait)
        for attempt in (1, 2):
            with self.datastore.get_connection() as conn, conn.cursor() as cursor:
                try:
                    cursor.execute(self.call_append, params, prepare=True)
                except MISSING:
                    if attempt == 2:
                        raise
                else:
                    return [row[APPEND_FUNCTION] for row in cursor.fetchall()]
            ensure_tables(self)
        return None  # not reached


def _no_type_adapters() -> None:
    """Nothing to look up: ``referee_append_rows`` takes arrays of plain types."""


def _configure_at_connect(datastore: PostgresDatastore) -> None:
    """Open the pool's connections in autocommit mode with the session's idle timeout
    given in the connection string, instead of the library's ``SET`` after each connect
    (a round trip on every connection). The pool is not open yet when this runs.

    The first use waits for the pool's first connection: a client that finds the pool
    empty would otherwise have it open a second one at once (a one-shot command opened
    two connections and used one)."""
    pool: Any = datastore.pool
    library_get_connection = datastore.get_connection
    opened = threading.Event()
    failed: list[str] = []  # why the pool could not open: every later use says the same

    @contextmanager
    def get_connection() -> Iterator[Any]:
        if not opened.is_set():
            opened.set()
            try:
                pool.open(wait=True, timeout=pool.timeout)  # POSTGRES_CONNECT_TIMEOUT
            except psycopg.OperationalError as exc:  # no server, or it refused us
                failed.append(_why_not(pool, exc))
        if failed:
            raise OperationalError(failed[0])
        with library_get_connection() as conn:
            yield conn

    vars(datastore)["get_connection"] = get_connection
    idle_ms = int(datastore.idle_in_transaction_session_timeout * 1000)
    pool.kwargs = {
        **pool.kwargs,
        "autocommit": True,
        "options": f"-c idle_in_transaction_session_timeout={idle_ms}",
    }
    pool._configure = None  # what the library's configure did is done by the kwargs above


def _why_not(pool: Any, exc: Exception) -> str:
    """Why the pool could not open, in one line. The pool's own error says only that it
    gave up waiting ("pool initialization incomplete after 5 sec"), for a server not
    listening, a database or a role that does not exist alike: one direct connection
    brings the server's reason (only on this failure: a store that opens pays nothing)."""
    params = {k: pool.kwargs[k] for k in ("dbname", "host", "port", "user", "password")}
    try:
        psycopg.connect(**params, connect_timeout=max(1, int(pool.timeout))).close()
    except psycopg.Error as direct:
        return " ".join(str(direct).split())
    return " ".join(str(exc).split())


def ensure_tables(recorder: Any) -> bool:
    """Create the store's tables (and the append function) if they are missing, once:
    under an advisory lock, so any number of first starts at once succeed. True if it
    created the tables."""
    datastore = recorder.datastore
    table = f'"{datastore.schema}"."{recorder.events_table_name}"'
    function = getattr(recorder, "append_function", None)
    if function is None:  # the library's own recorder: only its tables
        present_sql = "SELECT to_regclass(%s) IS NOT NULL, %s = %s"
        args: tuple[str, ...] = (table, "", "")
    else:
        present_sql = (
            "SELECT to_regclass(%s) IS NOT NULL, EXISTS (SELECT 1 FROM pg_proc p JOIN "
            "pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = %s AND p.proname = %s)"
        )
        args = (table, datastore.schema, function)
    with datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as cursor:
        cursor.execute(present_sql, args)
        present, has_function = cursor.fetchone() or (False, False)
        if present and has_function:
            return False
        cursor.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK_KEY,))
        try:
            cursor.execute(present_sql, args)  # another process may have made them meanwhile
            present, has_function = cursor.fetchone() or (False, False)
            if not present:
                recorder.create_table()
            elif not has_function:
                cursor.execute(recorder.create_append_function)
            return not present
        finally:
            cursor.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK_KEY,))


class PostgresBackend(PostgresNaming):
    """``events.backends.Backend`` over the PostgreSQL recorder. Reads run on the pool's
    autocommit connections, one statement one round trip; a read that finds the tables
    missing creates them and runs again (a new store reads as empty)."""

    def __init__(self, recorder: Any) -> None:
        self.recorder = recorder
        self.datastore = recorder.datastore
        self.schema: str = self.datastore.schema
        self.events_table = self.qualified(recorder.events_table_name)
        if not isinstance(recorder, RefereePostgresRecorder):
            # The library's own recorder creates nothing when its statements find the
            # tables missing: they are made (when missing) before it is used.
            ensure_tables(recorder)

    @contextmanager
    def cursor(self) -> Iterator[Any]:
        with (
            self.datastore.get_connection() as conn,
            conn.cursor(row_factory=tuple_row) as cursor,
        ):
            yield _Reading(cursor, self)

    @contextmanager
    def transaction(self, *, write: bool = False) -> Iterator[Any]:
        with (
            self.datastore.get_connection() as conn,
            conn.transaction(force_rollback=not write),
            conn.cursor(row_factory=tuple_row) as cursor,
        ):
            yield cursor

    def ensure_tables(self) -> bool:
        return ensure_tables(self.recorder)

    def settle(self) -> None:
        """Nothing to wait for: the server keeps its own log (``Backend.settle``)."""

    def analyze(self) -> None:
        """After a bulk insert, let the planner see the events table as it now is.

        Until autovacuum comes by, a table filled in bulk has stale statistics, and the
        plans chosen meanwhile made the next result's read-model catch-up take twice as
        long (4.6 -> 7-9 ms on 20,000 games, benchmarks/bench_scale.py)."""
        with self.datastore.get_connection() as conn, conn.cursor() as cursor:
            cursor.execute(f"ANALYZE {self.events_table}")

    @contextmanager
    def stream_lock(self, stream: str) -> Iterator[None]:
        """``stream``'s write lock, held until leaving: an advisory lock of a transaction
        on a connection of its own (the append commits on another), waited for at most the
        store's lock wait, and let go when that transaction ends, even if this process
        dies. Two server processes writing one event then take turns: the second reads
        what the first stored and decides on it, instead of losing the race."""
        with self.stream_locks() as take:
            take(stream, True)
            yield

    @contextmanager
    def stream_locks(self) -> Iterator[TakeLock]:
        """Streams' write locks (``stream_lock``) held together until leaving, all on one
        connection in one transaction: the server's writer keeps those of a batch of event
        writes until the batch is stored. ``take(stream, wait=False)`` waits for nothing
        (a writer holding locks that waited for another could deadlock with another
        process doing the same): it answers whether the lock was free."""
        # Two round trips, not four: the transaction's start, its lock wait and the first
        # lock go as one simple query (no parameters: the values are literals), the rollback
        # that lets go as the other. Every event write of two server processes pays them.
        seconds = int(self.datastore.lock_timeout or 0)
        begin = SQL("BEGIN; {wait}").format(
            wait=SQL("SET LOCAL lock_timeout = {}; ").format(Literal(f"{seconds}s"))
            if seconds
            else SQL("")
        )
        status = psycopg.pq.TransactionStatus
        with (
            self.datastore.get_connection() as conn,
            conn.cursor(row_factory=tuple_row) as cursor,
        ):

            def take(stream: str, wait: bool) -> bool:
                lock = SQL("SELECT pg_{}advisory_xact_lock({}, hashtext({}))").format(
                    SQL("" if wait else "try_"),
                    Literal(STREAM_LOCK_KEY),
                    Literal(f"{self.schema}.{stream}"),
                )
                if conn.info.transaction_status == status.IDLE:
                    lock = begin + lock
                try:
                    cursor.execute(lock)
                    if wait:
                        return True
                    while cursor.nextset():
                        pass
                    row = cursor.fetchone()
                except psycopg.OperationalError as exc:  # a wait past the bound, a lost server
                    raise OperationalError(str(exc)) from exc
                except psycopg.Error as exc:
                    raise PersistenceError(str(exc)) from exc
                return bool(row and row[0])

            try:
                yield take
            finally:
                if conn.info.transaction_status in (status.INTRANS, status.INERROR):
                    cursor.execute("ROLLBACK")

    def insert_numbered(self, rows: Sequence[tuple[str, int, str, bytes]]) -> list[int] | None:
        """None: COPY tells no positions; the store inserts through the recorder's append
        function, which does (and takes the log's lock and notifies)."""
        return None

    def watch(self, heard: Callable[[], None]) -> Callable[[], None] | None:
        """LISTEN on the store's channel (every append NOTIFYs it as it commits: the
        library's inserts, ``referee_append_rows`` and ``bulk_insert``) from a connection
        of its own, on a daemon thread that calls ``heard`` for each notification it
        reads; ``None`` when that connection cannot be made. If the connection is lost,
        ``heard`` is called (what was missed is found by reading the log) and it connects
        again. The answer stops the thread."""
        pool: Any = getattr(self.datastore, "pool", None)
        if pool is None:
            return None
        params = {k: pool.kwargs[k] for k in ("dbname", "host", "port", "user", "password")}
        channel = SQL("LISTEN {}").format(Identifier(self.recorder.channel_name))
        timeout = max(1, int(getattr(pool, "timeout", 5)))

        def connect() -> psycopg.Connection[Any]:
            conn = psycopg.connect(**params, autocommit=True, connect_timeout=timeout)
            conn.execute(channel)
            return conn

        try:
            first = connect()
        except psycopg.Error:
            return None
        stopping = threading.Event()

        def listen() -> None:
            conn: psycopg.Connection[Any] | None = first
            while not stopping.is_set():
                try:
                    if conn is None:
                        conn = connect()
                        heard()  # anything appended while it was away
                    for _ in conn.notifies(timeout=0.5):
                        heard()
                except psycopg.Error:
                    if conn is not None:
                        conn.close()
                    conn = None
                    heard()
                    stopping.wait(1.0)
            if conn is not None:
                conn.close()

        thread = threading.Thread(target=listen, name="store-watch", daemon=True)
        thread.start()

        def stop() -> None:
            stopping.set()
            thread.join(2)

        return stop

    def bulk_insert(self, rows: Sequence[tuple[str, int, str, bytes]]) -> None:
        """Rows into the events table with COPY, in one transaction under the library's
        own table lock (so notification ids follow commit order, as its inserts ensure).

        The library's insert sends every event as one array parameter of one statement
        in psycopg's pipeline mode; past a few megabytes that message stalls half-sent
        (the server waits in ClientRead, the client in ``Pipeline.sync``). COPY streams
        the rows with flow control instead."""
        from eventsourcing.persistence import IntegrityError

        self.ensure_tables()
        copy = SQL("COPY {} (originator_id, originator_version, topic, state) FROM STDIN").format(
            Identifier(self.schema, self.recorder.events_table_name)
        )
        try:
            with (
                self.datastore.get_connection() as conn,
                conn.transaction(),
                conn.cursor() as cursor,
            ):
                for statement in self.recorder.lock_table_statements:
                    cursor.execute(statement)
                cursor.execute(SQL("NOTIFY {}").format(Identifier(self.recorder.channel_name)))
                with cursor.copy(copy) as stream:
                    for row in rows:
                        stream.write_row(row)
        except psycopg.errors.UniqueViolation:
            raise IntegrityError("a game of this batch is already in the store") from None


class _Reading:
    """A reading cursor that, when the store's tables do not exist yet, creates them and
    runs the statement again (on an autocommit connection a failed statement leaves
    nothing to roll back)."""

    def __init__(self, cursor: Any, backend: PostgresBackend) -> None:
        self._cursor = cursor
        self._backend = backend

    def execute(self, sql: Any, params: Any = None) -> Any:
        try:
            return self._cursor.execute(sql, params)
        except psycopg.errors.UndefinedTable:
            if not self._backend.ensure_tables():
                raise  # the tables were there: the statement names another one
            return self._cursor.execute(sql, params)

    def fetchone(self) -> Any:
        return self._cursor.fetchone()

    def fetchall(self) -> list[Any]:
        rows: list[Any] = self._cursor.fetchall()
        return rows
