"""What both PostgreSQL backends share (psycopg's, ``events.backends.postgres``, and the
one-shot command's, ``events.backends.postgres_oneshot``): how a recorder appends (the
stored function's name and its arguments, arrays of plain types made from the events),
and how a backend names a table of its schema and asks whether it exists. A leaf: the
one-shot backend imports it without psycopg."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from eventsourcing.persistence import StoredEvent

__all__ = ["APPEND_FUNCTION", "PostgresNaming", "append_params"]

APPEND_FUNCTION = "referee_append_rows"  # events.backends.postgres makes it


def append_params(stored_events: Sequence[StoredEvent], lock_wait: str) -> tuple[Any, ...]:
    """The arguments of one call of ``referee_append_rows``: the events' ids, versions,
    topics and states as arrays, and how long to wait for the table's lock."""
    return (
        [str(e.originator_id) for e in stored_events],
        [e.originator_version for e in stored_events],
        [e.topic for e in stored_events],
        [e.state for e in stored_events],
        lock_wait,
    )


class PostgresNaming:
    """A PostgreSQL backend's names: its kind, the log's position column and the statements'
    parameter mark; a table of its schema, quoted; whether that table exists (read through
    the backend's own ``cursor``)."""

    kind = "postgres"
    position = "notification_id"
    mark = "%s"
    schema: str

    def cursor(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def qualified(self, table: str) -> str:
        return f'"{self.schema}"."{table}"'

    def has_table(self, table: str) -> bool:
        with self.cursor() as cursor:
            cursor.execute("SELECT to_regclass(%s)", (self.qualified(table),))
            row = cursor.fetchone()
        return bool(row and row[0])
