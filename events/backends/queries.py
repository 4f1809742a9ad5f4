"""The SQL every backend runs, written once against ``events.backends.Backend``.

The statements differ between backends only in the events table's name, the
column that orders the store and the driver's placeholder, which the backend
supplies. Rows come back as plain tuples: (number, topic, the event's JSON bytes
as stored), or with the store-wide position in front where the caller needs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from events.backends import Backend

__all__ = [
    "existing",
    "game_ids",
    "last_row",
    "log_heads",
    "log_page",
    "log_rows",
    "positions",
    "rows",
    "rows_page",
]

Row = tuple[int, str, bytes]


def _bytes(value: Any) -> bytes:
    """A stored state as bytes (a row edited by hand in SQL may come back as text)."""
    return value.encode() if isinstance(value, str) else bytes(value)


def rows(backend: Backend, game_id: str, *, after: int = 0, upto: int | None = None) -> list[Row]:
    """A stream's events numbered above ``after`` and up to ``upto``, in order."""
    m = backend.mark
    with backend.cursor() as cursor:
        cursor.execute(
            f"SELECT originator_version, topic, state FROM {backend.events_table} "
            f"WHERE originator_id = {m} AND originator_version > {m} AND originator_version <= {m} "
            "ORDER BY originator_version",
            (game_id, after, upto if upto is not None else 2**62),
        )
        found: list[Row] = cursor.fetchall()  # both drivers give int, str, bytes here
        return found


def rows_page(backend: Backend, game_id: str, after: int, upto: int, limit: int) -> list[Row]:
    """At most ``limit`` of a stream's events numbered above ``after`` up to ``upto``."""
    m = backend.mark
    with backend.cursor() as cursor:
        cursor.execute(
            f"SELECT originator_version, topic, state FROM {backend.events_table} WHERE "
            f"originator_id = {m} AND originator_version > {m} AND originator_version <= {m} "
            f"ORDER BY originator_version LIMIT {m}",
            (game_id, after, upto, limit),
        )
        found: list[Row] = cursor.fetchall()
        return found


def last_row(backend: Backend, game_id: str) -> Row | None:
    """A stream's newest event, or ``None``."""
    with backend.cursor() as cursor:
        cursor.execute(
            f"SELECT originator_version, topic, state FROM {backend.events_table} "
            f"WHERE originator_id = {backend.mark} ORDER BY originator_version DESC LIMIT 1",
            (game_id,),
        )
        found = cursor.fetchone()
    return (int(found[0]), str(found[1]), _bytes(found[2])) if found else None


def existing(backend: Backend, game_ids: Sequence[str]) -> set[str]:
    """Which of ``game_ids`` have a first event (one query per 500)."""
    found: set[str] = set()
    with backend.cursor() as cursor:
        for start in range(0, len(game_ids), 500):
            chunk = list(game_ids[start : start + 500])
            cursor.execute(
                f"SELECT originator_id FROM {backend.events_table} WHERE originator_version = 1 "
                f"AND originator_id IN ({', '.join([backend.mark] * len(chunk))})",
                chunk,
            )
            found.update(str(row[0]) for row in cursor.fetchall())
    return found


def game_ids(backend: Backend) -> list[str]:
    """Every stream with at least one event, in order of first appearance (one pass)."""
    with backend.cursor() as cursor:
        cursor.execute(
            f"SELECT originator_id FROM {backend.events_table} "
            f"GROUP BY originator_id ORDER BY MIN({backend.position})"
        )
        return [str(row[0]) for row in cursor.fetchall()]


def positions(backend: Backend, stream_id: str) -> dict[int, int]:
    """Each event's number in a stream -> its position in the whole store."""
    with backend.cursor() as cursor:
        cursor.execute(
            f"SELECT originator_version, {backend.position} FROM {backend.events_table} "
            f"WHERE originator_id = {backend.mark}",
            (stream_id,),
        )
        return {int(v): int(i) for v, i in cursor.fetchall()}


def newest_at(backend: Backend, stream_id: str, upto: int) -> tuple[int, int] | None:
    """The number and store position of a stream's newest event at or before position
    ``upto`` (one walk down the stream's index from its newest event), or ``None``."""
    p, m = backend.position, backend.mark
    newest = (
        f"SELECT originator_version, {p} FROM {backend.events_table} "
        f"WHERE originator_id = {m} AND {p} <= {m} ORDER BY originator_version DESC LIMIT 1"
    )
    with backend.cursor() as cursor:
        cursor.execute(newest, (stream_id, upto))
        found = cursor.fetchone()
    return (int(found[0]), int(found[1])) if found is not None else None


def log_heads(backend: Backend, after: int, limit: int) -> list[tuple[int, str, int]]:
    """(position, stream, number) of at most ``limit`` events after position ``after``,
    in store order: what was written, without the events themselves."""
    p, m = backend.position, backend.mark
    with backend.cursor() as cursor:
        cursor.execute(
            f"SELECT {p}, originator_id, originator_version FROM {backend.events_table} "
            f"WHERE {p} > {m} ORDER BY {p} LIMIT {m}",
            (after, limit),
        )
        return [(int(i), str(g), int(v)) for i, g, v in cursor.fetchall()]


def log_rows(
    backend: Backend, after: int, limit: int, upto: int
) -> list[tuple[int, str, int, str, bytes]]:
    """(position, stream, number, topic, bytes) of at most ``limit`` events after
    position ``after`` and up to ``upto``, in store order."""
    p, m = backend.position, backend.mark
    with backend.cursor() as cursor:
        cursor.execute(
            f"SELECT {p}, originator_id, originator_version, topic, state "
            f"FROM {backend.events_table} WHERE {p} > {m} AND {p} <= {m} ORDER BY {p} LIMIT {m}",
            (after, upto, limit),
        )
        return [
            row
            if type(row[4]) is bytes and type(row[1]) is str  # as stored: nothing to convert
            else (int(row[0]), str(row[1]), int(row[2]), str(row[3]), _bytes(row[4]))
            for row in cursor.fetchall()
        ]


def log_page(
    backend: Backend, after: int, limit: int, recorded: str
) -> tuple[
    int,
    list[tuple[int, str, int, str, bytes]],
    dict[str, tuple[int, int, int]],
    dict[str, bytes],
]:
    """The next page of the log after position ``after`` (``limit`` events): its last
    position, every event whose topic is not ``recorded`` with its bytes, and per
    stream the number of ``recorded`` events, the last one's number and position, and
    that event's bytes. The database counts the recorded events (in C); only the
    other events are read."""
    p, m, table = backend.position, backend.mark, backend.events_table
    with backend.cursor() as cursor:
        cursor.execute(
            f"SELECT {p} FROM {table} WHERE {p} > {m} ORDER BY {p} LIMIT 1 OFFSET {m}",
            (after, limit - 1),
        )
        found = cursor.fetchone()
        if found is None:
            cursor.execute(f"SELECT MAX({p}) FROM {table}")
            found = cursor.fetchone()
        last = int(found[0]) if found and found[0] is not None else after
        if last <= after:
            return after, [], {}, {}
        cursor.execute(
            f"SELECT originator_id, COUNT(*), MAX(originator_version), MAX({p}) FROM {table} "
            f"WHERE {p} > {m} AND {p} <= {m} AND topic = {m} GROUP BY originator_id",
            (after, last, recorded),
        )
        actions = {str(g): (int(n), int(v), int(i)) for g, n, v, i in cursor.fetchall()}
        last_actions: dict[str, bytes] = {}
        wanted = [i for _, _, i in actions.values()]
        for start in range(0, len(wanted), 500):  # one indexed lookup per 500 streams
            chunk = wanted[start : start + 500]
            cursor.execute(
                f"SELECT originator_id, state FROM {table} WHERE {p} IN "
                f"({', '.join([m] * len(chunk))})",
                chunk,
            )
            last_actions.update((str(g), _bytes(b)) for g, b in cursor.fetchall())
        cursor.execute(
            f"SELECT {p}, originator_id, originator_version, topic, state FROM {table} "
            f"WHERE {p} > {m} AND {p} <= {m} AND topic != {m} ORDER BY {p}",
            (after, last, recorded),
        )
        events = [
            (int(i), str(g), int(v), str(t), _bytes(b)) for i, g, v, t, b in cursor.fetchall()
        ]
    return last, events, actions, last_actions


def replica_run(
    cursor: Any, backend: Backend, streams: Sequence[str]
) -> tuple[str, str, str] | None:
    """The first of ``streams`` this store holds as a replica (its ``referee_runs`` row:
    stream, the store that writes it, since when), read through ``cursor``; ``None``."""
    marks = ", ".join([backend.mark] * len(streams))
    cursor.execute(
        f"SELECT stream, store, since FROM {backend.qualified('referee_runs')} "
        f"WHERE stream IN ({marks}) LIMIT 1",
        list(streams),
    )
    row = cursor.fetchone()
    return (str(row[0]), str(row[1]), str(row[2])) if row else None
