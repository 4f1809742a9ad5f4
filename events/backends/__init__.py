"""The store's backends behind one small interface.

``events.store.GameStore`` is written once, against ``Backend``; what differs
between SQLite and PostgreSQL (how a cursor is had, how a table is named and
found, which column holds the store-wide order, how rows are bulk-loaded, how
the tables come to exist) lives in one module per backend, ``sqlite`` and
``postgres``, the way the eventsourcing library keeps its ``eventsourcing.sqlite``
and ``eventsourcing.postgres`` persistence modules. The SQL both run is in
``queries``. A new backend is one module that satisfies ``Backend``, and one
line in ``backend_for``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from events.backends.locks import UNLOCKED, TakeLock, unlocked

__all__ = [
    "ONE_SHOT_MODULE",
    "UNLOCKED",
    "Backend",
    "TakeLock",
    "backend_for",
    "is_server_store",
    "is_server_url",
    "server_settings",
    "sqlite_table_names",
    "store_settings",
    "unlocked",
]

SERVER_SCHEMES = ("postgresql://", "postgres://")
ONE_SHOT_MODULE = "events.backends.postgres_oneshot"
"""The persistence module of one-shot commands on PostgreSQL: one psycopg connection,
no pool."""


class Backend(Protocol):
    """What ``GameStore`` needs of a database beyond the eventsourcing recorder."""

    kind: str
    """``"sqlite"`` or ``"postgres"``: for messages and for the read models' column types."""
    events_table: str
    """The events table's name, qualified as a statement needs it."""
    position: str
    """The column that orders the whole store (the notification id)."""
    mark: str
    """The parameter placeholder of the driver (``?`` or ``%s``)."""

    def cursor(self) -> AbstractContextManager[Any]:
        """A cursor giving plain tuples, for reads: on a server each statement stands alone
        (one round trip, no transaction around it)."""
        ...

    def transaction(self, *, write: bool = False) -> AbstractContextManager[Any]:
        """A cursor giving plain tuples in one transaction, committed only when ``write``."""
        ...

    def qualified(self, table: str) -> str:
        """A side table's name (checkpoints, say) as a statement needs it."""
        ...

    def has_table(self, table: str) -> bool:
        """Whether a side table exists (asking never creates anything)."""
        ...

    def ensure_tables(self) -> bool:
        """Create the store's tables when they are missing; True if it created them."""
        ...

    def analyze(self) -> None:
        """Refresh the planner's statistics after a bulk insert (where that matters)."""
        ...

    def settle(self) -> None:
        """Wait for upkeep a write left running (SQLite: a bulk write's checkpoint), before
        the store closes; nothing where a write leaves none."""
        ...

    def bulk_insert(self, rows: Sequence[tuple[str, int, str, bytes]]) -> None:
        """Insert sealed rows (game, number, topic, bytes) in one transaction, all or
        nothing; a row already stored raises the library's ``IntegrityError``."""
        ...

    def insert_numbered(self, rows: Sequence[tuple[str, int, str, bytes]]) -> list[int] | None:
        """``bulk_insert`` answering the rows' positions in the log, as the library's own
        insert does; ``None`` (nothing inserted) where the backend cannot tell them
        cheaply, and the caller inserts through the library's recorder."""
        ...

    def stream_lock(self, stream: str) -> AbstractContextManager[None]:
        """Held while a write reads ``stream``, decides and appends to it, so that writers
        sharing the store take turns on it (PostgreSQL: an advisory lock; a local file,
        written by one process at a time, needs none)."""
        ...

    def stream_locks(self) -> AbstractContextManager[TakeLock]:
        """Locks of several streams held together until leaving (the server's writer holds
        those of a batch of event writes until the batch's commit): ``take(stream, wait)``
        takes one more, waiting (at most the store's lock wait) when ``wait``, else
        answering at once whether it was free. Where no lock is needed, every one is."""
        ...

    def watch(self, heard: Callable[[], None]) -> Callable[[], None] | None:
        """Call ``heard`` (from a thread of its own) whenever any process appends to the
        store, soon after its commit; the answer stops it. ``None`` where the database
        announces nothing (SQLite: a store written by one server, whose other writers are
        the command line's, found by reading the log)."""
        ...


def is_server_url(target: str) -> bool:
    """Whether ``target`` names a database server rather than a file."""
    return target.startswith(SERVER_SCHEMES)


def is_server_store(target: str, settings: Mapping[str, str]) -> bool:
    """Whether the store is on a database server (by URL or by ``PERSISTENCE_MODULE``),
    so there is no file to look for before opening it."""
    module = settings.get("PERSISTENCE_MODULE") or os.environ.get("PERSISTENCE_MODULE", "")
    return is_server_url(target) or "postgres" in module


POSTGRES_DEFAULTS = {
    "POSTGRES_CONNECT_TIMEOUT": "5",
    "POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT": "30",
    "POSTGRES_POOL_SIZE": "1",
    "POSTGRES_MAX_OVERFLOW": "8",
}
"""Every database wait has a bound: a stalled server becomes an error, never a hang. The
pool opens one connection at start (a one-shot command needs no more) and grows to nine
on demand (a server's threads)."""


def store_settings(url: str) -> dict[str, str]:
    """eventsourcing's settings for a ``postgresql://user:password@host:port/dbname?schema=s``
    URL."""
    from urllib.parse import parse_qs, unquote, urlsplit

    parts = urlsplit(url)
    if parts.scheme not in ("postgresql", "postgres"):
        raise ValueError(f"a store URL starts with postgresql://, not {url.split(':', 1)[0]}://")
    query = parse_qs(parts.query)
    settings = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": unquote(parts.path.lstrip("/")) or "postgres",
        "POSTGRES_HOST": parts.hostname or "127.0.0.1",
        "POSTGRES_PORT": str(parts.port or 5432),
        "POSTGRES_USER": unquote(parts.username or "postgres"),
        "POSTGRES_PASSWORD": unquote(parts.password or ""),
    }
    if "schema" in query:
        settings["POSTGRES_SCHEMA"] = query["schema"][0]
    return settings


def server_settings(settings: dict[str, str], lock_timeout: str) -> None:
    """Complete a server store's ``settings`` in place: the bounds above (the process's
    environment may set each), the lock wait, and this project's recorder
    (``events.backends.postgres``); ordinary starts create nothing (the tables are made
    the first time a statement finds them missing)."""
    for key, value in POSTGRES_DEFAULTS.items():
        settings.setdefault(key, os.environ.get(key, value))
    settings.setdefault(
        "POSTGRES_LOCK_TIMEOUT", os.environ.get("POSTGRES_LOCK_TIMEOUT") or lock_timeout
    )
    settings.setdefault("CREATE_TABLE", "no")
    settings.setdefault(
        "APPLICATION_RECORDER_TOPIC", "events.backends.postgres:RefereePostgresRecorder"
    )


def sqlite_table_names(path: str) -> set[str] | None:
    """The tables of the SQLite file at ``path`` (read-only), or None when it is not a
    SQLite database: asked before a file of the project's own is written over it."""
    from events.backends.sqlite import table_names_of

    return table_names_of(path)


def backend_for(recorder: object) -> Backend | None:
    """The backend of an eventsourcing application recorder, or ``None`` for one kept
    elsewhere (the library's in-memory recorder), which ``GameStore`` reads through the
    library's own calls."""
    modules = {cls.__module__ for cls in type(recorder).__mro__}
    if ONE_SHOT_MODULE in modules:
        from events.backends.postgres_oneshot import OneShotBackend

        return OneShotBackend(recorder)  # type: ignore[arg-type]
    if "eventsourcing.sqlite" in modules:
        from events.backends.sqlite import SQLiteBackend

        return SQLiteBackend(recorder)
    if "eventsourcing.postgres" in modules:
        from events.backends.postgres import PostgresBackend

        return PostgresBackend(recorder)
    return None
