"""How both PostgreSQL recorders append (psycopg's, ``events.backends.postgres``, and the
one-shot command's, ``events.backends.postgres_oneshot``): the stored function's name and
its arguments, arrays of plain types made from the events. A leaf: the one-shot recorder
imports it without psycopg."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from eventsourcing.persistence import StoredEvent

__all__ = ["APPEND_FUNCTION", "append_params"]

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
