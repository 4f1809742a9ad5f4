"""The SQLite backend: the library's SQLite recorder, with plain-tuple cursors on its
own datastore (so reads and writes share its lock handling and busy timeout)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, closing, contextmanager, nullcontext
from itertools import chain
from typing import Any

from events.backends.checkpoints import Checkpoints
from events.backends.locks import TakeLock, unlocked

__all__ = ["ROWS_A_STATEMENT", "SQLiteBackend", "table_names_of"]

ROWS_A_STATEMENT = 100
"""The rows one INSERT of a bulk write carries: 400 values, under the 999 a statement may
bind in the oldest SQLite releases."""

BULK_CACHE_KIB = 65536
"""The page cache (KiB) a connection keeps once it writes in bulk: a pairing of 10,000
players inserts 10,001 rows whose 5,000 random game ids touch most leaves of the primary
key's index, some 14 MB of dirty pages that SQLite's default 2 MB cache spilled to the WAL
before the commit and read back (10 M instructions of the pairing). As the read models'
connections keep (``projections.tables``); pages are only taken as used."""


class SQLiteBackend:
    """``events.backends.Backend`` over ``eventsourcing.sqlite``'s application recorder."""

    kind = "sqlite"
    position = "rowid"
    mark = "?"

    def __init__(self, recorder: Any) -> None:
        self.recorder = recorder
        self.datastore = recorder.datastore
        self.events_table: str = recorder.events_table_name
        self.checkpoints = Checkpoints(
            lambda: sqlite3.connect(recorder.datastore.pool.db_name, uri=True)
        )
        """A bulk write's checkpoint, run apart (``insert_numbered``)."""

    @contextmanager
    def transaction(self, *, write: bool = False) -> Iterator[Any]:
        with self.datastore.transaction(commit=write) as cursor:
            cursor.row_factory = None  # plain tuples
            yield cursor

    def cursor(self) -> AbstractContextManager[Any]:
        return self.transaction()  # a local file: a transaction costs no round trip

    def qualified(self, table: str) -> str:
        return table

    def has_table(self, table: str) -> bool:
        with self.cursor() as cursor:
            cursor.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
            )
            return cursor.fetchone() is not None

    def ensure_tables(self) -> bool:
        """Nothing to do: the library creates SQLite's tables when it opens the file
        (a local file, so the check costs no round trip)."""
        return False

    def analyze(self) -> None:
        """Nothing to do: SQLite's plans follow the indexes."""

    def watch(self, heard: Callable[[], None]) -> Callable[[], None] | None:
        """Nothing: SQLite announces no writes (``Backend.watch``)."""
        return None

    def stream_lock(self, stream: str) -> AbstractContextManager[None]:
        """None needed: a SQLite store's server is one process, writing on one thread."""
        return nullcontext()

    def stream_locks(self) -> AbstractContextManager[TakeLock]:
        """None needed either (``stream_lock``)."""
        return unlocked()

    def bulk_insert(self, rows: Sequence[tuple[str, int, str, bytes]]) -> None:
        # The rows as they are, with the library's own statement (its recorder inserts
        # row by row to return notification ids, which an import does not need).
        with self.datastore.transaction(commit=True) as cursor:
            self._insert(cursor, rows)

    def _insert(self, cursor: Any, rows: Sequence[tuple[str, int, str, bytes]]) -> None:
        """Insert ``rows`` in their order: ``ROWS_A_STATEMENT`` a statement (the library's
        statement with that many rows of values), the rest by ``executemany`` of the
        library's own. ``executemany`` runs the statement once a row (bound, stepped, reset,
        halted): a pairing's 10,001 rows cost 216 M instructions that way, 170 M so."""
        statement = self.recorder.insert_events_statement
        head, values, group = statement.rpartition(" VALUES ")
        if len(rows) >= ROWS_A_STATEMENT:  # a bulk write's dirty pages kept, not spilled
            cursor.execute(f"PRAGMA cache_size=-{BULK_CACHE_KIB}")
        whole = len(rows) - len(rows) % ROWS_A_STATEMENT
        if values and group.strip() == "(?,?,?,?)" and whole and head.startswith("INSERT INTO "):
            # OR ROLLBACK: a row already stored ends the whole transaction at once, as its
            # error ends the write anyway (all or nothing). With the default (ABORT) SQLite
            # must undo a failed statement alone, so it journals every page a statement of
            # 100 rows changes until it ends, past 64 KB in a temporary file: a pairing's
            # 10,001 rows wrote some 24 MB there in 12,000 system calls (the insert alone:
            # system time median 11 ms, 1 ms without; BENCHMARKS.md, sixteenth pass)
            rolling = f"INSERT OR ROLLBACK INTO {head.removeprefix('INSERT INTO ')}"
            many = f"{rolling} VALUES {','.join([group.strip()] * ROWS_A_STATEMENT)}"
            flat: list[Any] = list(chain.from_iterable(rows[:whole]))
            # the states bound from ``bytearray``s: the same blobs, where each ``bytes``
            # is first offered to the module's adapters (``__adapt__``, ``__conform__``:
            # two failed lookups and an error formatted for each: 22 M for 10,001 rows)
            flat[3::4] = map(bytearray, flat[3::4])
            step = 4 * ROWS_A_STATEMENT
            for start in range(0, len(flat), step):
                cursor.execute(many, flat[start : start + step])
            rows = rows[whole:]
        if rows:
            cursor.executemany(statement, rows)

    def insert_numbered(self, rows: Sequence[tuple[str, int, str, bytes]]) -> list[int]:
        """``bulk_insert``, answering the rows' positions in the log (their rowids), as the
        recorder's row-by-row insert does: the write transaction holds SQLite's lock, so
        the rows after the largest rowid before it are these: when they are as many as the
        rowids between it and the largest after, they are those (not read back one by one:
        a pairing's 10,001).

        A write of ``ROWS_A_STATEMENT`` rows or more to a file commits without SQLite's
        checkpoint (``wal_autocheckpoint`` off for its commit alone, then as it was): the
        commit is durable once its log is (synchronous FULL), and copying the log into the
        database is upkeep, which a thread of its own does meanwhile (``Checkpoints``;
        ``settle`` waits for it). A pairing of 10,000 players commits some 3,000 pages, and
        waited for their copy and the database file's sync before folding and keeping its
        snapshot."""
        behind = len(rows) >= ROWS_A_STATEMENT and not self.datastore.pool.is_sqlite_memory_mode
        with self.datastore.get_connection(commit=True) as conn:
            auto = 0
            if behind:
                found = conn.cursor()
                found.execute("PRAGMA wal_autocheckpoint")
                (auto,) = found.fetchone()
                found.execute("PRAGMA wal_autocheckpoint=0")
            try:
                with conn.transaction(commit=True) as cursor:
                    numbered = self._numbered(cursor, rows)
            finally:
                if behind:
                    conn.cursor().execute(f"PRAGMA wal_autocheckpoint={int(auto)}")
        if behind:
            self.checkpoints.start()
        return numbered

    def _numbered(self, cursor: Any, rows: Sequence[tuple[str, int, str, bytes]]) -> list[int]:
        """``insert_numbered``'s work in its transaction (``cursor``)."""
        cursor.row_factory = None
        largest = f"SELECT coalesce(max(rowid), 0) FROM {self.events_table}"
        cursor.execute(largest)
        (before,) = cursor.fetchone()
        self._insert(cursor, rows)
        cursor.execute(largest)
        (after,) = cursor.fetchone()
        if after - before == len(rows):
            return list(range(before + 1, after + 1))
        cursor.execute(
            f"SELECT rowid FROM {self.events_table} WHERE rowid > ? ORDER BY rowid",
            (before,),
        )
        return [row[0] for row in cursor.fetchall()]

    def settle(self) -> None:
        """Wait for the checkpoint a bulk write left running (``insert_numbered``): the
        store closes after it, so the last connection's close finds the log copied and
        removes it, as before."""
        self.checkpoints.settle()


def table_names_of(path: str) -> set[str] | None:
    """The tables of the SQLite file at ``path``, opened read-only, or None when the file
    is not a SQLite database (a text file, a damaged one): what ``export --sqlite`` asks
    before it replaces a file, so that it never writes over a store or a stranger's file."""
    from pathlib import Path

    try:
        uri = f"{Path(path).resolve().as_uri()}?mode=ro"
        with closing(sqlite3.connect(uri, uri=True)) as con:
            found = con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            return {str(row[0]) for row in found}
    except sqlite3.Error:
        return None
