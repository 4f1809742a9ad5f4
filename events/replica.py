"""A store's name, the streams it holds as a replica, and copying another store's log.

Every store may carry three small side tables beside its events:

- ``referee_identity``: the store's name (``hall``, ``cloud``), which an event's
  hand-over names (REF-9.2);
- ``referee_runs``: each stream this store holds as a replica, with the store that
  writes it (no row: this store writes it);
- ``referee_replication``: per source store, the position in its log copied so far.

A trigger on the events table refuses any insert into a stream listed in
``referee_runs`` (REF-9.1), whatever process or face writes it, so two stores never
write one stream. The copier itself inserts under a flag row that only its own
transaction sees (``referee_replicating``, added and removed inside the transaction; on
PostgreSQL also the setting ``referee.replicating``, local to it),
and writes the copied events, the new ``referee_runs`` rows and its position in ONE
transaction: a copier killed at any moment leaves either all of a batch or none of it.

Rows are copied as stored (the JSON bytes and the topic), never decoded and encoded
again, so every stream's chain is byte-identical on both sides.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple

from events.store import (
    REPLICA_MARKER,
    GameStore,
    ReplicaWriteError,
    StoreError,
    StoreUnavailableError,
    replica_refusal,
)

__all__ = [
    "FLAG",
    "IDENTITY",
    "MARKER",
    "POSITIONS",
    "RUNS",
    "CopyResult",
    "ReplicaDivergedError",
    "ReplicaWriteError",
    "copy_rows",
    "ensure_tables",
    "position",
    "runners",
    "set_name",
    "status",
    "store_name",
    "write_handover",
    "written_elsewhere",
]

IDENTITY = "referee_identity"
RUNS = "referee_runs"
POSITIONS = "referee_replication"
FLAG = "referee_replicating"
COPYING = "referee.replicating"
"""On PostgreSQL, the copier's flag is also this setting, local to its transaction: the
guard reads it first, so a copied row costs no lookup (the two lookups were 40-50 ms of a
1,000-row page's 60-70 ms of insert)."""
MARKER = REPLICA_MARKER

HANDOVER_TOPIC = "referee.event.EventHandedOver.v1"


class ReplicaDivergedError(StoreError, ValueError):
    """The source holds an event where this store already holds a different one (REF-9.3);
    nothing of the batch was stored."""

    clause = "REF-9.3"


class CopyResult(NamedTuple):
    """What one batch did: the source position it reached, events inserted, events found
    already there (identical), and hand-overs applied."""

    position: int
    copied: int
    present: int
    handovers: int


def _backend(store: GameStore) -> Any:
    if store.direct is None:
        raise StoreUnavailableError(
            "this store's events are encrypted, compressed or in memory; a replica copies "
            "plain stored events only"
        )
    return store.direct


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _guarded(store: GameStore, backend: Any) -> bool:
    """Whether the side tables and the replica trigger are there (PostgreSQL): one read,
    so a follower's every pass does not take the events table's strongest lock."""
    table = backend.events_table.rsplit(".", 1)[-1].strip('"')
    with store.plain_cursor() as cursor:
        cursor.execute(
            "SELECT to_regclass(%s) IS NOT NULL AND EXISTS (SELECT 1 FROM pg_trigger t JOIN "
            "pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE t.tgname = 'referee_replica_guard' AND n.nspname = %s AND c.relname = %s) "
            "AND EXISTS (SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
            "WHERE p.proname = 'referee_replica_guard' AND n.nspname = %s AND p.prosrc LIKE %s)",
            (backend.qualified(FLAG), backend.schema, table, backend.schema, f"%{COPYING}%"),
        )
        row = cursor.fetchone()
    return bool(row and row[0])


def ensure_tables(store: GameStore) -> None:
    """Create the side tables and the replica trigger when missing (idempotent)."""
    backend = _backend(store)
    store.ensure_tables()
    q = backend.qualified
    events = backend.events_table
    statements = [
        f"CREATE TABLE IF NOT EXISTS {q(IDENTITY)} (name TEXT NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {q(RUNS)} (stream TEXT PRIMARY KEY, store TEXT NOT NULL, "
        "since TEXT NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {q(POSITIONS)} (source TEXT PRIMARY KEY, position BIGINT "
        "NOT NULL, copied BIGINT NOT NULL, updated TEXT NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {q(FLAG)} (flag INTEGER)",
    ]
    if backend.kind == "sqlite":
        statements.append(
            "CREATE TRIGGER IF NOT EXISTS referee_replica_guard BEFORE INSERT ON "
            f"{events} WHEN EXISTS (SELECT 1 FROM {RUNS} WHERE stream = NEW.originator_id) "
            f"AND NOT EXISTS (SELECT 1 FROM {FLAG}) BEGIN SELECT RAISE(ABORT, "
            f"'{MARKER}: a replica of this stream'); END"
        )
        with store.plain_cursor(write=True) as cursor:
            for statement in statements:
                cursor.execute(statement)
        return
    if _guarded(store, backend):
        return
    function = q("referee_replica_guard")
    with store.plain_cursor(write=True) as cursor:
        # one creator at a time in this schema (other schemas' stores are not waited for)
        cursor.execute("SELECT pg_advisory_xact_lock(5390178, hashtext(%s))", (backend.schema,))
        for statement in statements:
            cursor.execute(statement)
        cursor.execute(
            f"CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS "
            f"$body$ BEGIN IF current_setting('{COPYING}', true) = 'on' THEN RETURN NEW; "
            f"END IF; IF EXISTS (SELECT 1 FROM {q(RUNS)} WHERE stream = "
            f"NEW.originator_id) AND NOT EXISTS (SELECT 1 FROM {q(FLAG)}) THEN RAISE "
            f"EXCEPTION '{MARKER}: a replica of this stream' USING ERRCODE = '23R01'; END IF; "
            "RETURN NEW; END $body$"
        )
        cursor.execute(f"DROP TRIGGER IF EXISTS referee_replica_guard ON {events}")
        cursor.execute(
            f"CREATE TRIGGER referee_replica_guard BEFORE INSERT ON {events} FOR EACH ROW "
            f"EXECUTE FUNCTION {function}()"
        )


def store_name(store: GameStore) -> str | None:
    """The store's name, or ``None`` when it has none (or no side tables yet)."""
    backend = _backend(store)
    if not backend.has_table(IDENTITY):
        return None
    with store.plain_cursor() as cursor:
        cursor.execute(f"SELECT name FROM {backend.qualified(IDENTITY)} LIMIT 1")
        row = cursor.fetchone()
    return str(row[0]) if row else None


def set_name(store: GameStore, name: str) -> None:
    """Name the store (once: a name other stores' events already record is not changed)."""
    ensure_tables(store)
    backend = _backend(store)
    with store.plain_cursor(write=True) as cursor:
        cursor.execute(f"SELECT name FROM {backend.qualified(IDENTITY)} LIMIT 1")
        row = cursor.fetchone()
        if row is not None and str(row[0]) != name:
            raise ReplicaWriteError(
                f"REF-9.2: this store is named {row[0]!r} already; hand-overs and replicas "
                "record that name, so it is not changed"
            )
        if row is None:
            cursor.execute(
                f"INSERT INTO {backend.qualified(IDENTITY)} (name) VALUES ({backend.mark})",
                (name,),
            )


def runners(store: GameStore, streams: Iterable[str]) -> dict[str, tuple[str, str]]:
    """For each of ``streams`` this store holds as a replica: (the store that writes it,
    since when). A stream missing from the answer is written by this store."""
    backend = _backend(store)
    wanted = list(dict.fromkeys(streams))
    if not wanted or not backend.has_table(RUNS):
        return {}
    found: dict[str, tuple[str, str]] = {}
    with store.plain_cursor() as cursor:
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            marks = ", ".join([backend.mark] * len(part))
            cursor.execute(
                f"SELECT stream, store, since FROM {backend.qualified(RUNS)} "
                f"WHERE stream IN ({marks})",
                part,
            )
            found.update({str(s): (str(by), str(t)) for s, by, t in cursor.fetchall()})
    return found


def written_elsewhere(store: GameStore, streams: Iterable[str]) -> dict[str, str]:
    """For each of ``streams`` this store holds as a replica, the store that writes it
    (REF-9.1): where a write to it, a head referee's choice say, is made. Empty for a store
    that holds no replica (nor can: encrypted, compressed or in memory)."""
    if store.direct is None:
        return {}
    return {stream: writer for stream, (writer, _) in runners(store, streams).items()}


def position(store: GameStore, source: str) -> tuple[int, int]:
    """(position reached, events copied) of the copy from ``source`` kept in ``store``."""
    backend = _backend(store)
    if not backend.has_table(POSITIONS):
        return 0, 0
    with store.plain_cursor() as cursor:
        cursor.execute(
            f"SELECT position, copied FROM {backend.qualified(POSITIONS)} "
            f"WHERE source = {backend.mark}",
            (source,),
        )
        row = cursor.fetchone()
    return (int(row[0]), int(row[1])) if row else (0, 0)


def status(store: GameStore) -> tuple[list[tuple[str, int, int, str]], dict[str, int]]:
    """(source, position, copied, updated) per source copied from, and per writing store
    the number of streams held as its replica."""
    backend = _backend(store)
    if not backend.has_table(POSITIONS):
        return [], {}
    with store.plain_cursor() as cursor:
        cursor.execute(
            f"SELECT source, position, copied, updated FROM {backend.qualified(POSITIONS)} "
            "ORDER BY source"
        )
        sources = [(str(s), int(p), int(c), str(u)) for s, p, c, u in cursor.fetchall()]
        cursor.execute(f"SELECT store, count(*) FROM {backend.qualified(RUNS)} GROUP BY store")
        held = {str(s): int(n) for s, n in cursor.fetchall()}
    return sources, held


def _insert_sql(backend: Any) -> str:
    m = backend.mark
    return (
        f"INSERT INTO {backend.events_table} (originator_id, originator_version, topic, state) "
        f"VALUES ({m}, {m}, {m}, {m})"
    )


BOUNDS = (
    "SELECT set_config('lock_timeout', '10s', true), "
    "set_config('idle_in_transaction_session_timeout', '60s', true), "
    "set_config('tcp_keepalives_idle', '15', true), "
    "set_config('tcp_keepalives_interval', '5', true), "
    "set_config('tcp_keepalives_count', '3', true)"
)
"""A copy's transaction on PostgreSQL holds the events table's lock: it waits at most 10 s
for it (then the follower tries again), and a copier whose uplink died mid-transaction
(killed, or the link cut) is dropped by the server within about 30 s (keepalives) or a
minute (idle), so the lock it held never stops the replica for good."""


def _lock_for_order(backend: Any, cursor: Any) -> None:
    """On PostgreSQL, take the table lock the store's own appends take (so positions
    follow commit order for any store copying from this one) and wake its listeners."""
    if backend.kind == "postgres":
        cursor.execute(BOUNDS)
        cursor.execute(f"LOCK TABLE {backend.events_table} IN EXCLUSIVE MODE")
        channel = getattr(backend.recorder, "channel_name", "")
        if channel:
            cursor.execute(f'NOTIFY "{channel}"')


def _upsert_runs(cursor: Any, backend: Any, rows: Sequence[tuple[str, str, str]]) -> None:
    if not rows:
        return
    m = backend.mark
    upsert = "ON CONFLICT (stream) DO UPDATE SET store = excluded.store, since = excluded.since"
    if backend.kind == "postgres":  # one statement, one round trip (a page has many streams)
        cursor.execute(
            f"INSERT INTO {backend.qualified(RUNS)} (stream, store, since) SELECT * FROM "
            f"unnest({m}::text[], {m}::text[], {m}::text[]) {upsert}",
            [list(column) for column in zip(*rows, strict=True)],
        )
        return
    cursor.executemany(
        f"INSERT INTO {backend.qualified(RUNS)} (stream, store, since) VALUES ({m}, {m}, {m}) "
        + upsert,
        rows,
    )


def _held(
    cursor: Any, backend: Any, span: dict[str, tuple[int, int]]
) -> dict[str, dict[int, bytes]]:
    """Per stream, the events ``target`` holds from one before the page's lowest number to
    its highest: one query on PostgreSQL (a round trip per stream would cost a page more
    than its insert), one per stream on SQLite (in-process)."""
    m = backend.mark
    held: dict[str, dict[int, bytes]] = {stream: {} for stream in span}

    def keep(stream: Any, number: Any, state: Any) -> None:
        held[str(stream)][int(number)] = state.encode() if isinstance(state, str) else bytes(state)

    if backend.kind == "postgres":
        streams = list(span)
        cursor.execute(
            f"SELECT e.originator_id, e.originator_version, e.state FROM {backend.events_table} "
            f"AS e JOIN unnest({m}::text[], {m}::bigint[], {m}::bigint[]) AS w(id, low, high) "
            "ON e.originator_id = w.id AND e.originator_version BETWEEN w.low AND w.high",
            (
                streams,
                [max(span[s][0] - 1, 0) for s in streams],
                [span[s][1] for s in streams],
            ),
        )
        for stream, number, state in cursor.fetchall():
            keep(stream, number, state)
        return held
    for stream, (low, high) in span.items():
        cursor.execute(
            f"SELECT originator_version, state FROM {backend.events_table} WHERE "
            f"originator_id = {m} AND originator_version >= {m} AND originator_version <= {m}",
            (stream, max(low - 1, 0), high),
        )
        for number, state in cursor.fetchall():
            keep(stream, number, state)
    return held


def _insert(cursor: Any, backend: Any, rows: Sequence[tuple[str, int, str, bytes]]) -> None:
    if backend.kind == "postgres":  # one statement for the page, as the store's own append
        # sent in binary (%b): the text form escapes every byte of every event
        cursor.execute(
            f"INSERT INTO {backend.events_table} (originator_id, originator_version, topic, "
            "state) SELECT * FROM unnest(%b::text[], %b::bigint[], %b::text[], %b::bytea[])",
            [list(column) for column in zip(*rows, strict=True)],
        )
        return
    cursor.executemany(_insert_sql(backend), rows)


def _delete_runs(cursor: Any, backend: Any, streams: Sequence[str]) -> None:
    cursor.executemany(
        f"DELETE FROM {backend.qualified(RUNS)} WHERE stream = {backend.mark}",
        [(s,) for s in streams],
    )


def copy_rows(
    target: GameStore,
    *,
    source: str,
    me: str,
    rows: Sequence[tuple[int, str, int, str, bytes]],
    writers: dict[str, str],
) -> CopyResult:
    """Copy ``rows`` of the store named ``source`` (position, stream, number, topic,
    bytes, in its log's order) into ``target`` (named ``me``) in ONE transaction, with the
    new position. ``writers``: the store writing each stream, where the source itself
    holds it as a replica (else the source writes it).

    An event already in ``target`` with the same bytes is skipped (a copy run twice stores
    nothing twice); one with different bytes, or a number beyond the stream's next, stops
    the copy (``ReplicaDivergedError``, nothing stored). A stream new to ``target`` is
    recorded as a replica of its writer; a copied hand-over naming ``me`` makes ``target``
    the writer of the handed streams, one naming another store moves them there."""
    from events.codec import decode  # only hand-overs are decoded

    backend = _backend(target)
    m = backend.mark
    if not rows:
        return CopyResult(0, 0, 0, 0)
    last = rows[-1][0]
    span: dict[str, tuple[int, int]] = {}
    for _, stream, number, _, _ in rows:
        low, high = span.get(stream, (number, number))
        span[stream] = (min(low, number), max(high, number))
    inserts: list[tuple[str, int, str, bytes]] = []
    present = 0
    new_streams: list[str] = []
    handovers: list[Any] = []
    with target.plain_cursor(write=True) as cursor:
        _lock_for_order(backend, cursor)
        cursor.execute(f"INSERT INTO {backend.qualified(FLAG)} (flag) VALUES (1)")
        if backend.kind == "postgres":  # the same, read without a query for each row
            cursor.execute(f"SELECT set_config('{COPYING}', 'on', true)")
        held = _held(cursor, backend, span)
        for _, stream, number, topic, state in rows:
            mine = held[stream]
            if number in mine:
                if mine[number] != state:
                    raise ReplicaDivergedError(
                        f"REF-9.3: event {number} of {stream} differs between {source!r} and "
                        "this store; nothing of this batch was copied (compare the two stores)"
                    )
                present += 1
                continue
            if number > 1 and number - 1 not in mine:
                raise ReplicaDivergedError(
                    f"REF-9.3: {source!r} holds event {number} of {stream} but this store lacks "
                    f"event {number - 1}; nothing of this batch was copied"
                )
            if number == 1:
                new_streams.append(stream)
            mine[number] = state
            inserts.append((stream, number, topic, state))
            if topic == HANDOVER_TOPIC:
                handovers.append(decode(topic, state))
        if inserts:
            _insert(cursor, backend, inserts)
        now = _now()
        claimed = [
            (s, writers.get(s, source), now) for s in new_streams if writers.get(s, source) != me
        ]
        _upsert_runs(cursor, backend, claimed)
        for event in handovers:
            streams = list(getattr(event, "streams", ()))
            since = event.timestamp.isoformat(timespec="seconds")
            if event.to == me:
                _delete_runs(cursor, backend, streams)
            else:
                _upsert_runs(cursor, backend, [(s, event.to, since) for s in streams])
        count = len(inserts)
        cursor.execute(
            f"INSERT INTO {backend.qualified(POSITIONS)} AS kept (source, position, copied, "
            f"updated) VALUES ({m}, {m}, {m}, {m}) ON CONFLICT (source) DO UPDATE SET "
            "position = excluded.position, copied = kept.copied + excluded.copied, "
            "updated = excluded.updated",
            (source, last, count, now),
        )
        cursor.execute(f"DELETE FROM {backend.qualified(FLAG)}")
    return CopyResult(last, count, present, len(handovers))


def write_handover(
    store: GameStore, row: tuple[str, int, str, bytes], streams: Sequence[str], to: str
) -> None:
    """Store the sealed hand-over ``row`` (stream, number, topic, bytes) and mark
    ``streams`` as written by ``to`` from now on, in ONE transaction (REF-9.2)."""
    backend = _backend(store)
    ensure_tables(store)
    from eventsourcing.persistence import IntegrityError

    try:
        with store.plain_cursor(write=True) as cursor:
            _lock_for_order(backend, cursor)
            cursor.execute(_insert_sql(backend), row)
            _upsert_runs(cursor, backend, [(s, to, _now()) for s in streams])
    except IntegrityError:
        from events.store import ConcurrentWriteError

        raise ConcurrentWriteError(
            f"another writer changed event {row[0]} at the same moment; nothing was handed "
            "over: look at it again"
        ) from None


def refusal(store: GameStore, streams: Iterable[str]) -> ReplicaWriteError:
    """The refusal of a write the replica trigger stopped, naming who writes the stream."""
    return replica_refusal(store, list(streams))
