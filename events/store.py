"""The event store: an eventsourcing application with one stream per game.

``GameStore`` is persistence only: it appends sealed events atomically at the
version a caller read, loads and lists games, and bulk-inserts imported streams.
What may be appended (the referee procedure) is decided by ``service``.

SQLite is the default (file from ``--db``, ``REFEREE_DB`` or ``./referee.db``);
setting ``PERSISTENCE_MODULE=eventsourcing.postgres`` (with the library's
``POSTGRES_*`` settings) moves the same streams to PostgreSQL. Every write is
one atomic append at the expected stream version: a second referee writing to
the same game at the same moment gets ``ConcurrentWriteError`` and nothing of
theirs is stored, so nothing is lost or written twice.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, NamedTuple, cast

import msgspec
from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError, Mapper, StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder

from events.codec import MsgspecMapper, bytes_hash, decode, own_hash, seal
from events.schema import (
    GENESIS_HASH,
    TOPIC_OF,
    ActionRecorded,
    ActionRetracted,
    GameCreated,
    GameEnded,
    GameEvent,
    ResultVoided,
    topics_for,
)
from events.view import GameView
from referee.errors import RefereeError

DEFAULT_DB = "referee.db"
_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


class StoreError(RefereeError):
    """Base of the store's own errors."""


class GameNotFoundError(StoreError, LookupError):
    """No game with that id (or id suffix) is in the store."""


class StoreBusyError(StoreError, TimeoutError):
    """The store stayed locked (or the server did not answer) longer than the wait allowed;
    nothing of ours was stored."""


class StoreUnavailableError(StoreError, OSError):
    """The store cannot be opened or written (a read-only file, a missing server)."""


def lock_timeout() -> str:
    """Seconds to wait for a store another writer holds (``REFEREE_LOCK_TIMEOUT``, default 10)."""
    value = os.environ.get("REFEREE_LOCK_TIMEOUT", "10")
    try:
        seconds = float(value)
    except ValueError:
        raise ValueError(f"REFEREE_LOCK_TIMEOUT is a number of seconds, not {value!r}") from None
    return str(max(0, int(seconds)))


class ConcurrentWriteError(StoreError, RuntimeError):
    """Another writer appended to the same game first; nothing of ours was stored."""


class RefereeApplication(Application[str]):
    """The eventsourcing application that owns the game streams."""

    name = "Referee"
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "ORIGINATOR_ID_TYPE": "text",
    }

    def construct_mapper(self) -> Mapper[str]:
        return MsgspecMapper(
            transcoder=self.factory.transcoder(),
            compressor=self.factory.compressor(),
            cipher=self.factory.cipher(),
        )


class _Batch:
    """Carries new events into ``Application.save`` as one object (one protocol check)."""

    def __init__(self, game_id: str, new_events: Sequence[GameEvent]) -> None:
        self.id = game_id
        self._events = list(new_events)

    def collect_events(self) -> list[GameEvent]:
        return self._events


class LogPage(NamedTuple):
    """A page of the whole store's log after some notification id.

    Recorded actions are only counted (the read models need no more of them), so a
    page carries every other event in order with its plain bytes, and per game the
    number of actions, the last action's event number and notification id, and that
    action's plain bytes (whose hash is the game's head when nothing follows it)."""

    last_id: int
    events: list[tuple[int, str, int, str, bytes]]  # (notification id, game, number, topic, bytes)
    actions: dict[str, tuple[int, int, int]]
    total: int
    last_actions: dict[str, bytes] = {}


class GameSummary(msgspec.Struct, kw_only=True):
    game_id: str
    game: str
    ruleset: str
    players: dict[str, str]
    created: datetime
    result: str
    how: str | None


def resolve_db_path(db: str | os.PathLike[str] | None) -> str:
    return os.fspath(db) if db is not None else os.environ.get("REFEREE_DB", DEFAULT_DB)


def _utc_now() -> datetime:
    return datetime.now(UTC)


POSTGRES_DEFAULTS = {
    "POSTGRES_CONNECT_TIMEOUT": "5",
    "POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT": "30",
    "POSTGRES_POOL_SIZE": "2",
    "POSTGRES_MAX_OVERFLOW": "8",
}
"""Every database wait has a bound: a stalled server becomes an error, never a hang."""

SCHEMA_LOCK_KEY = 0x5245_4645  # "REFE": creating the store's tables on PostgreSQL, once


@contextmanager
def persistence_errors() -> Iterator[None]:
    """The library's database errors as this store's own: a lock held too long becomes
    ``StoreBusyError``; a store that cannot be written, ``StoreUnavailableError``."""
    from eventsourcing.persistence import IntegrityError as LibraryIntegrityError
    from eventsourcing.persistence import OperationalError, PersistenceError

    try:
        yield
    except LibraryIntegrityError:
        raise
    except OperationalError as exc:
        text = str(exc)
        if "locked" in text or "timeout" in text or "lock" in text:
            raise StoreBusyError(
                f"the store stayed locked by another writer longer than {lock_timeout()} s; "
                "nothing was stored; enter it again (REFEREE_LOCK_TIMEOUT sets the wait)"
            ) from None
        raise StoreUnavailableError(f"the store cannot be written: {text}") from None
    except PersistenceError as exc:
        raise StoreUnavailableError(f"the store cannot be used: {exc}") from None


def store_settings(url: str) -> dict[str, str]:
    """eventsourcing's settings for a
    ``postgresql://user:password@host:port/dbname?schema=s`` URL."""
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


def is_postgres_recorder(recorder: object) -> bool:
    """Whether ``recorder`` is eventsourcing's PostgreSQL recorder (or ours, built on it)."""
    return any(cls.__module__ == "eventsourcing.postgres" for cls in type(recorder).__mro__)


def is_postgres(settings: Mapping[str, str]) -> bool:
    module = settings.get("PERSISTENCE_MODULE") or os.environ.get("PERSISTENCE_MODULE", "")
    return "postgres" in module


class GameStore:
    """Records games as event streams and rebuilds them by replay."""

    def __init__(
        self,
        db: str | os.PathLike[str] | None = None,
        *,
        env: Mapping[str, str] | None = None,
        clock: Callable[[], datetime] = _utc_now,
    ) -> None:
        target = os.fspath(db) if db is not None else None
        settings: dict[str, str] = {}
        if target is not None and target.startswith(("postgresql://", "postgres://")):
            settings.update(store_settings(target))
        else:
            settings["SQLITE_DBNAME"] = resolve_db_path(db)
        settings.setdefault("SQLITE_LOCK_TIMEOUT", lock_timeout())
        settings.update(env or {})
        postgres = is_postgres(settings)
        if postgres:
            for key, value in POSTGRES_DEFAULTS.items():
                settings.setdefault(key, os.environ.get(key, value))
            settings.setdefault(
                "POSTGRES_LOCK_TIMEOUT", os.environ.get("POSTGRES_LOCK_TIMEOUT") or lock_timeout()
            )
            settings.setdefault(
                "CREATE_TABLE", "no"
            )  # ordinary starts run no DDL (see ensure_tables)
            settings.setdefault(
                "APPLICATION_RECORDER_TOPIC", "events.pg_recorder:RefereePostgresRecorder"
            )
        self.app = RefereeApplication(env=settings)
        self.recorder = self.app.recorder
        self.mapper = cast(MsgspecMapper, self.app.mapper)
        self.clock = clock
        self.read_only = False
        if postgres:
            self.ensure_tables()

    def probe(self) -> GameStore:
        """Touch the store once (so a store that cannot be opened fails here), and return it."""
        self.recorder.max_notification_id()
        return self

    @property
    def path(self) -> str | None:
        """The SQLite file of the store (without any URI parameters), if it is one."""
        name = self.app.env.get("SQLITE_DBNAME")
        if not name:
            return None
        if name.startswith("file:"):
            name = name[5:].split("?", 1)[0]
        return name

    def ensure_tables(self) -> bool:
        """On PostgreSQL, create the store's tables if they are missing, once: under an
        advisory lock, so any number of first starts at once succeed. A store made
        before the one-round-trip append (``events.pg_recorder``) gets its function
        here the same way. True if it created the tables."""
        recorder: Any = self.recorder
        datastore = recorder.datastore
        table = f'"{datastore.schema}"."{recorder.events_table_name}"'
        function: str | None = getattr(recorder, "append_function", None)
        present_sql = (
            "SELECT to_regclass(%s) IS NOT NULL AS present, (%s::text IS NULL OR EXISTS (SELECT 1 "
            "FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
            "WHERE n.nspname = %s AND p.proname = %s)) AS function"
        )
        args = (table, function, datastore.schema, function)
        with datastore.get_connection() as conn:
            with conn.cursor() as cursor:
                # The library creates its types before the table: a table present means done.
                cursor.execute(present_sql, args)
                row = cursor.fetchone()
                if row["present"] and row["function"]:
                    datastore.register_type_adapters()  # what creating them would have done
                    return False
                cursor.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK_KEY,))
            try:
                with conn.cursor() as cursor:
                    cursor.execute(present_sql, args)
                    row = cursor.fetchone()
                conn.commit()
                if row["present"]:
                    datastore.register_type_adapters()
                    if not row["function"]:
                        with conn.cursor() as cursor:
                            cursor.execute(recorder.create_append_function)
                        conn.commit()
                else:
                    recorder.create_table()
                return not row["present"]
            finally:
                with conn.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK_KEY,))
                conn.commit()

    def refresh_statistics(self) -> None:
        """After a bulk insert, let PostgreSQL's planner see the events table as it now is.

        Until autovacuum comes by, a table filled in bulk has stale statistics, and the
        plans chosen meanwhile made the next result's read-model catch-up take twice as
        long (4.6 -> 7-9 ms on 20,000 games, benchmarks/bench_scale.py). SQLite needs
        nothing here: its plans follow the indexes."""
        recorder: Any = self.recorder
        if self.direct_postgres is None:
            return
        with self.plain_cursor(write=True) as cursor:
            cursor.execute(f'ANALYZE "{recorder.datastore.schema}"."{recorder.events_table_name}"')

    def close(self) -> None:
        self.app.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def direct_sqlite(self) -> SQLiteApplicationRecorder | None:
        """The SQLite recorder, when rows may be read and written directly.

        The hot paths (loading a game, listing games, bulk imports, the
        scoreboard) use the recorder's own datastore and statements with plain
        tuples on SQLite when events are stored as plain JSON; any other
        recorder or an encrypted or compressed store goes through the library's
        calls, which give the same answers."""
        recorder = self.recorder
        if isinstance(recorder, SQLiteApplicationRecorder) and self.mapper.plain:
            return recorder
        return None

    # -- reading -------------------------------------------------------------
    def stored_events(self, game_id: str) -> Sequence[StoredEvent]:
        return self.recorder.select_events(game_id)

    def rows(self, game_id: str, *, upto: int | None = None) -> list[tuple[int, str, bytes]]:
        """A game's stored events as (number, topic, the event's JSON bytes as stored)."""
        recorder = self.direct_sqlite
        if recorder is not None:
            # Loading a game starts every entry: plain rows, not a StoredEvent per row.
            sql = (
                f"SELECT originator_version, topic, state FROM {recorder.events_table_name} "
                "WHERE originator_id = ? AND originator_version <= ? ORDER BY originator_version"
            )
            with recorder.datastore.transaction(commit=False) as cursor:
                cursor.row_factory = None  # type: ignore[attr-defined]  # plain tuples
                cursor.execute(sql, (game_id, upto if upto is not None else 2**62))
                rows: list[tuple[int, str, bytes]] = (
                    cursor.fetchall()
                )  # sqlite3 gives int, str, bytes
                return rows
        plain = self.mapper.plain_state
        return [
            (s.originator_version, s.topic, plain(s))
            for s in self.recorder.select_events(game_id, lte=upto)
        ]

    def last_row(self, game_id: str) -> tuple[int, str, bytes] | None:
        """A game's newest stored event as (number, topic, JSON bytes), or ``None``."""
        recorder = self.direct_sqlite
        if recorder is not None:
            with recorder.datastore.transaction(commit=False) as cursor:
                cursor.row_factory = None  # type: ignore[attr-defined]
                cursor.execute(
                    f"SELECT originator_version, topic, state FROM {recorder.events_table_name} "
                    "WHERE originator_id = ? ORDER BY originator_version DESC LIMIT 1",
                    (game_id,),
                )
                found = cursor.fetchone()
                return (int(found[0]), str(found[1]), bytes(found[2])) if found else None
        stored = self.recorder.select_events(game_id, desc=True, limit=1)
        return (
            (stored[0].originator_version, stored[0].topic, self.mapper.plain_state(stored[0]))
            if stored
            else None
        )

    def iter_rows(
        self, game_id: str, *, upto: int, page: int = 5_000
    ) -> Iterator[tuple[int, str, bytes]]:
        """``rows`` up to event ``upto``, read a page at a time: a long game in flat memory."""
        after = 0
        recorder = self.direct_sqlite
        while after < upto:
            if recorder is not None:
                with recorder.datastore.transaction(commit=False) as cursor:
                    cursor.row_factory = None  # type: ignore[attr-defined]
                    cursor.execute(
                        "SELECT originator_version, topic, state FROM "
                        f"{recorder.events_table_name} WHERE originator_id = ? AND "
                        "originator_version > ? AND originator_version <= ? ORDER BY "
                        "originator_version LIMIT ?",
                        (game_id, after, upto, page),
                    )
                    rows: list[tuple[int, str, bytes]] = cursor.fetchall()
            else:
                plain = self.mapper.plain_state
                rows = [
                    (s.originator_version, s.topic, plain(s))
                    for s in self.recorder.select_events(game_id, gt=after, lte=upto, limit=page)
                ]
            yield from rows
            if len(rows) < page:
                return
            after = rows[-1][0]

    def events(self, game_id: str, *, upto: int | None = None) -> list[GameEvent]:
        """A game's events in order (up to event ``upto``), older topics upcast."""
        return [decode(topic, state) for _, topic, state in self.rows(game_id, upto=upto)]

    def load(self, game_id: str, *, upto: int | None = None) -> GameView:
        """Rebuild a game by replaying its stream (up to event ``upto``)."""
        stream = self.events(game_id, upto=upto)
        if not stream:
            raise GameNotFoundError(f"no game {game_id!r} in this store")
        return GameView.from_events(stream)

    def existing(self, game_ids: Sequence[str]) -> set[str]:
        """Which of ``game_ids`` have events in the store (one query per 500 on SQLite)."""
        recorder = self.direct_sqlite
        if recorder is None:
            return {g for g in game_ids if self.exists(g)}
        found: set[str] = set()
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.row_factory = None  # type: ignore[attr-defined]
            for start in range(0, len(game_ids), 500):
                chunk = list(game_ids[start : start + 500])
                cursor.execute(
                    f"SELECT originator_id FROM {recorder.events_table_name} WHERE "
                    f"originator_version = 1 AND originator_id IN ({', '.join('?' * len(chunk))})",
                    chunk,
                )
                found.update(str(row[0]) for row in cursor.fetchall())
        return found

    def exists(self, game_id: str) -> bool:
        return bool(self.recorder.select_events(game_id, limit=1))

    def resolve(self, ref: str) -> str:
        """A game id from the whole id or a unique ending of it
        (``7k3m`` for ``prizmik-...7k3m``)."""
        ref = ref.strip()
        if self.exists(ref):
            return ref
        matches = [s.game_id for s in self.games() if s.game_id.endswith(ref)]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise GameNotFoundError(f"no game {ref!r} in this store ('referee games' lists them)")
        raise GameNotFoundError(f"{ref!r} matches several games: {', '.join(matches)}")

    def iter_notifications(
        self, topics: Sequence[str] = (), *, after: int = 0, page: int = 5000
    ) -> Iterator[Any]:
        """Every stored event in store order (notification ids may have gaps)."""
        position = after
        while True:
            batch = self.recorder.select_notifications(
                position, page, topics=topics, inclusive_of_start=False
            )
            yield from batch
            if len(batch) < page:
                return
            position = batch[-1].id

    def log_page(self, after: int, limit: int) -> LogPage:
        """The next page of the store's log after notification ``after`` (see ``LogPage``).

        On SQLite and PostgreSQL the database counts recorded actions per game (in C)
        and only the other events are read; other recorders go through the library's
        ``select_notifications``."""
        recorded = TOPIC_OF[ActionRecorded]
        recorder = self.recorder
        table: str | None = None
        if self.direct_sqlite is not None:
            table, idcol, mark = recorder.events_table_name, "rowid", "?"  # type: ignore[attr-defined]
        elif self.direct_postgres is not None:
            schema = recorder.datastore.schema  # type: ignore[attr-defined]
            table = f'"{schema}"."{recorder.events_table_name}"'  # type: ignore[attr-defined]
            idcol, mark = "notification_id", "%s"
        if table is not None:
            with self.plain_cursor() as cursor:
                cursor.execute(
                    f"SELECT {idcol} FROM {table} WHERE {idcol} > {mark} ORDER BY {idcol} "
                    f"LIMIT 1 OFFSET {mark}",
                    (after, limit - 1),
                )
                found = cursor.fetchone()
                if found is None:
                    cursor.execute(f"SELECT MAX({idcol}) FROM {table}")
                    found = cursor.fetchone()
                last = int(found[0]) if found and found[0] is not None else after
                if last <= after:
                    return LogPage(after, [], {}, 0)
                cursor.execute(
                    f"SELECT originator_id, COUNT(*), MAX(originator_version), MAX({idcol}) FROM "
                    f"{table} WHERE {idcol} > {mark} AND {idcol} <= {mark} AND topic = {mark} "
                    "GROUP BY originator_id",
                    (after, last, recorded),
                )
                actions = {str(g): (int(n), int(v), int(i)) for g, n, v, i in cursor.fetchall()}
                last_actions: dict[str, bytes] = {}
                wanted = [i for _, _, i in actions.values()]
                for start in range(0, len(wanted), 500):  # one indexed lookup per 500 games
                    chunk = wanted[start : start + 500]
                    cursor.execute(
                        f"SELECT originator_id, state FROM {table} WHERE {idcol} IN "
                        f"({', '.join([mark] * len(chunk))})",
                        chunk,
                    )
                    last_actions.update((str(g), bytes(b)) for g, b in cursor.fetchall())
                cursor.execute(
                    f"SELECT {idcol}, originator_id, originator_version, topic, state FROM "
                    f"{table} WHERE {idcol} > {mark} AND {idcol} <= {mark} AND topic != {mark} "
                    f"ORDER BY {idcol}",
                    (after, last, recorded),
                )
                events = [
                    (int(i), str(g), int(v), str(t), bytes(b))
                    for i, g, v, t, b in cursor.fetchall()
                ]
            return LogPage(
                last,
                events,
                actions,
                len(events) + sum(n for n, _, _ in actions.values()),
                last_actions,
            )
        notes = recorder.select_notifications(after, limit, inclusive_of_start=False)
        if not notes:
            return LogPage(after, [], {}, 0)
        plain = self.mapper.plain_state
        others: list[tuple[int, str, int, str, bytes]] = []
        counted: dict[str, tuple[int, int, int]] = {}
        last_of: dict[str, Any] = {}
        for n in notes:
            game_id = str(n.originator_id)
            if n.topic == recorded:
                count, _, _ = counted.get(game_id, (0, 0, 0))
                counted[game_id] = (count + 1, n.originator_version, n.id)
                last_of[game_id] = n
            else:
                others.append((n.id, game_id, n.originator_version, n.topic, plain(n)))
        return LogPage(
            notes[-1].id, others, counted, len(notes), {g: plain(n) for g, n in last_of.items()}
        )

    @property
    def direct_postgres(self) -> Any:
        """The PostgreSQL recorder, when rows may be read directly (plain JSON events)."""
        recorder = self.recorder
        if is_postgres_recorder(recorder) and self.mapper.plain:
            return recorder
        return None

    @contextmanager
    def plain_cursor(self, *, write: bool = False) -> Iterator[Any]:
        """A cursor on the store's own database giving plain tuples (SQLite or PostgreSQL),
        in one transaction, committed only when ``write``."""
        recorder: Any = self.recorder
        if self.direct_sqlite is not None:
            with persistence_errors(), recorder.datastore.transaction(commit=write) as cursor:
                cursor.row_factory = None  # plain tuples
                yield cursor
            return
        from psycopg.rows import tuple_row

        with (
            recorder.datastore.get_connection() as conn,
            conn.transaction(force_rollback=not write),
            conn.cursor(row_factory=tuple_row) as cursor,
        ):
            yield cursor

    def event_hashes(
        self, *, upto: int | None = None, page: int = 50_000
    ) -> Iterator[tuple[int, str, int, str]]:
        """(notification id, game, number, hash) of every stored event in store order,
        read a page at a time (the whole log, so memory stays flat).

        The hash is recomputed from the stored bytes, not read from the event's own
        field, so a checkpoint vouches for the bytes: an edit that leaves the field
        alone still changes the chain."""
        after = 0
        limit = upto if upto is not None else 2**62
        recorder: Any = self.recorder
        direct = self.direct_sqlite is not None or self.direct_postgres is not None
        while True:
            if direct:
                if self.direct_sqlite is not None:
                    table, idcol, mark = recorder.events_table_name, "rowid", "?"
                else:
                    table = f'"{recorder.datastore.schema}"."{recorder.events_table_name}"'
                    idcol, mark = "notification_id", "%s"
                with self.plain_cursor() as cursor:
                    cursor.execute(
                        f"SELECT {idcol}, originator_id, originator_version, topic, state "
                        f"FROM {table} "
                        f"WHERE {idcol} > {mark} AND {idcol} <= {mark} ORDER BY {idcol} LIMIT "
                        f"{mark}",
                        (after, limit, page),
                    )
                    rows = [
                        # a row edited by hand in SQL may come back as text, not bytes
                        (
                            int(i),
                            str(g),
                            int(v),
                            bytes_hash(str(t), b.encode() if isinstance(b, str) else bytes(b)),
                        )
                        for i, g, v, t, b in cursor.fetchall()
                    ]
            else:
                notes = recorder.select_notifications(
                    after, page, stop=limit, inclusive_of_start=False
                )
                plain = self.mapper.plain_state
                rows = [
                    (
                        n.id,
                        str(n.originator_id),
                        n.originator_version,
                        bytes_hash(n.topic, plain(n)),
                    )
                    for n in notes
                ]
            yield from rows
            if len(rows) < page:
                return
            after = rows[-1][0]

    def head_hash(self, game_id: str, version: int) -> str:
        """The hash of event ``version`` of a game ("" when it is not there)."""
        found = self.recorder.select_events(game_id, gt=version - 1, lte=version)
        return own_hash(self.mapper.plain_state(found[0])) if found else ""

    def game_ids(self) -> list[str]:
        """Every game id with at least one stored event, in order of first appearance.

        Read from the whole log rather than from creation events, so a game whose
        creation event was removed or damaged is still found by ``verify``."""
        recorder = self.direct_sqlite
        if recorder is not None:  # one pass over the primary-key index
            sql = (
                f"SELECT originator_id FROM {recorder.events_table_name} "
                "GROUP BY originator_id ORDER BY MIN(rowid)"
            )
            with recorder.datastore.transaction(commit=False) as cursor:
                cursor.execute(sql)
                return [str(row[0]) for row in cursor.fetchall()]
        seen: dict[str, None] = {}
        for note in self.iter_notifications():
            seen.setdefault(str(note.originator_id), None)
        return list(seen)

    def games(self) -> list[GameSummary]:
        topics = (
            topics_for(GameCreated)
            + topics_for(GameEnded)
            + topics_for(ActionRetracted)
            + topics_for(ResultVoided)
        )
        summaries: dict[str, GameSummary] = {}
        to_domain = self.mapper.to_game_event
        for note in self.iter_notifications(topics):
            event = to_domain(note)
            if isinstance(event, GameCreated):
                summaries[event.originator_id] = GameSummary(
                    game_id=event.originator_id,
                    game=event.game,
                    ruleset=event.ruleset,
                    players={p.seat: p.name for p in event.players},
                    created=event.timestamp,
                    result="*",
                    how=None,
                )
            elif event.originator_id in summaries:
                summary = summaries[event.originator_id]
                if isinstance(event, GameEnded):
                    summary.result, summary.how = event.result, event.how
                elif isinstance(event, ResultVoided) or summary.how == "rule":
                    summary.result, summary.how = "*", None  # voided, or reopened by a retraction
        return list(summaries.values())

    # -- writing -------------------------------------------------------------
    def append(
        self, view: GameView | None, new_events: Sequence[GameEvent], *, applied: Any = None
    ) -> list[GameEvent]:
        """Seal and append events after ``view``'s last event, atomically.

        ``applied`` is the state after a recorded action when the caller has
        already computed it, so the view is advanced without applying twice."""
        return self.append_with(view, new_events, (), applied=applied)[0]

    def append_with(
        self,
        view: GameView | None,
        new_events: Sequence[GameEvent],
        also: Sequence[tuple[int, str, Sequence[GameEvent]]],
        *,
        applied: Any = None,
    ) -> tuple[list[GameEvent], list[list[GameEvent]]]:
        """``append``, and in the SAME transaction the batches ``also`` for other streams
        (as ``append_streams`` takes them): a game's end and its match's update are one
        write, never a finished game whose match did not hear of it. Returns the game's
        sealed events and each other batch's."""
        version = view.version if view else 0
        prev = view.last_hash if view else GENESIS_HASH
        sealed = _sealed(version, prev, new_events)
        others = [_sealed(v, p, batch) for v, p, batch in also]
        game_id = sealed[0].originator_id
        if self.read_only:
            raise StoreUnavailableError(
                "this store was opened read-only (its folder cannot be written); "
                "nothing can be recorded in it"
            )
        try:
            with persistence_errors():
                self.app.save(
                    *[cast(Any, _Batch(s[0].originator_id, s)) for s in (sealed, *others) if s]
                )
        except IntegrityError:
            raise ConcurrentWriteError(
                f"another referee recorded event {version + 1} of game {game_id} at the same "
                "moment; nothing of yours was stored. Look at the position again and re-enter "
                "your entry if it still stands."
            ) from None
        if view is not None:
            fold_written(view, sealed, applied)
        return sealed, others

    def append_sealed(self, streams: Sequence[Sequence[GameEvent]]) -> list[int]:
        """Append events already numbered and chained (``sealed_after``) to several
        streams in ONE transaction (a server's group commit): all or nothing, and each
        stream's numbers still enforced, so a stream another writer moved meanwhile fails
        the whole write with ``ConcurrentWriteError``. Returns the events' notification
        ids (the whole store's log)."""
        if self.read_only:
            raise StoreUnavailableError(
                "this store was opened read-only (its folder cannot be written); "
                "nothing can be recorded in it"
            )
        try:
            with persistence_errors():
                saved = self.app.save(
                    *[cast(Any, _Batch(s[0].originator_id, s)) for s in streams if s]
                )
            return [r.notification.id for r in saved]
        except IntegrityError:
            first = streams[0][0] if len(streams) == 1 and streams[0] else None
            raise ConcurrentWriteError(
                f"another referee recorded event {first.originator_version} of game "
                f"{first.originator_id} at the same moment; nothing of yours was stored. Look "
                "at the position again and re-enter your entry if it still stands."
                if first is not None
                else "another writer changed one of these games at the same moment; nothing "
                "of this write was stored"
            ) from None

    def append_streams(
        self, batches: Sequence[tuple[int, str, Sequence[GameEvent]]]
    ) -> list[list[GameEvent]]:
        """Seal and append events to several streams in ONE transaction: each batch is
        (the stream's current version, its last hash, new events). All or nothing: an
        event pairing a round and creating its games is never half stored."""
        sealed_batches = [_sealed(version, prev, new) for version, prev, new in batches]
        if self.read_only:
            raise StoreUnavailableError(
                "this store was opened read-only (its folder cannot be written); "
                "nothing can be recorded in it"
            )
        try:
            with persistence_errors():
                self.app.save(
                    *[cast(Any, _Batch(s[0].originator_id, s)) for s in sealed_batches if s]
                )
        except IntegrityError:
            raise ConcurrentWriteError(
                "another writer changed this event at the same moment; nothing of yours was "
                "stored. Look at it again and re-enter your command if it still stands."
            ) from None
        return sealed_batches

    def new_event_id(self) -> str:
        """A new event (tournament) id: ``ev-`` and eight characters, like a game id's."""
        return "ev-" + _token()

    def new_game_id(self, game: str) -> str:
        """``GAME-`` and eight characters of the alphabet, from ONE draw of the system's
        random source (pairing a round makes a thousand of them)."""
        return f"{game}-{_token()}"

    def insert_streams(self, streams: Sequence[Sequence[GameEvent]]) -> None:
        """Append whole, already sealed game streams in one transaction (imports)."""
        try:
            self.app.save(*[cast(Any, _Batch(s[0].originator_id, s)) for s in streams])
        except IntegrityError:
            raise ConcurrentWriteError(
                "one of these games is already in the store (import it with --as-new to copy it)"
            ) from None

    def _copy_rows(self, streams: Sequence[tuple[str, Sequence[tuple[int, str, bytes]]]]) -> None:
        """Bulk rows into PostgreSQL with COPY, in one transaction under the library's own
        table lock (so notification ids follow commit order, as its inserts ensure).

        The library's insert sends every event as one array parameter of one
        statement in psycopg's pipeline mode; past a few megabytes that message
        stalls half-sent (the server waits in ClientRead, the client in
        ``Pipeline.sync``). COPY streams the rows with flow control instead."""
        import psycopg
        from psycopg import sql

        recorder: Any = self.recorder
        datastore = recorder.datastore
        table = sql.Identifier(datastore.schema, recorder.events_table_name)
        copy = sql.SQL(
            "COPY {} (originator_id, originator_version, topic, state) FROM STDIN"
        ).format(table)
        try:
            with (
                persistence_errors(),
                datastore.get_connection() as conn,
                conn.transaction(),
                conn.cursor() as cursor,
            ):
                for statement in recorder.lock_table_statements:
                    cursor.execute(statement)
                cursor.execute(sql.SQL("NOTIFY {}").format(sql.Identifier(recorder.channel_name)))
                with cursor.copy(copy) as stream:
                    for game_id, rows in streams:
                        for number, topic, state in rows:
                            stream.write_row((game_id, number, topic, state))
        except psycopg.errors.UniqueViolation:
            raise IntegrityError("a game of this batch is already in the store") from None

    def insert_rows(self, streams: Sequence[tuple[str, Sequence[tuple[int, str, bytes]]]]) -> None:
        """Bulk-append sealed streams given as (game id, [(number, topic, JSON bytes)]).

        Used by imports: the rows go to the application's recorder in one
        transaction, stored exactly as read. When the store encrypts or
        compresses, each row is mapped through the mapper as usual."""
        plain = self.mapper.plain
        recorder = self.direct_sqlite
        try:
            if recorder is not None:
                # The application recorder inserts row by row to return notification
                # ids, which an import does not need: one executemany of the rows as
                # they are, with the library's own statement on its own datastore.
                params = [
                    (game_id, number, topic, state)
                    for game_id, rows in streams
                    for number, topic, state in rows
                ]
                with recorder.datastore.transaction(commit=True) as cursor:
                    cursor.executemany(recorder.insert_events_statement, params)
                return
            if self.direct_postgres is not None:
                self._copy_rows(streams)
                return
            self.recorder.insert_events(
                [
                    StoredEvent(
                        game_id,
                        number,
                        topic,
                        state if plain else self.mapper.stored_row(topic, state),
                    )
                    for game_id, rows in streams
                    for number, topic, state in rows
                ]
            )
        except IntegrityError:
            raise ConcurrentWriteError(
                "one of these games is already in the store (import it with --as-new to copy it)"
            ) from None


def sealed_after(view: GameView, new_events: Sequence[GameEvent]) -> list[GameEvent]:
    """``new_events`` numbered and chained after ``view``'s last event, as an append at
    that version stores them (for ``GameStore.append_sealed``)."""
    return _sealed(view.version, view.last_hash, new_events)


def fold_written(view: GameView, sealed: Sequence[GameEvent], applied: Any = None) -> None:
    """Advance ``view`` by events just appended to it. ``applied`` is the position after a
    recorded action when the caller has already computed it (no second ``apply``)."""
    for event in sealed:
        if applied is not None and type(event) is ActionRecorded:
            view.events.append(event)
            view.states.append(applied)
            view.standing.append(event)
        else:
            view.fold(event)


def _sealed(version: int, prev: str, new_events: Sequence[GameEvent]) -> list[GameEvent]:
    """``new_events`` numbered after ``version`` and chained after the hash ``prev``."""
    sealed: list[GameEvent] = []
    for offset, event in enumerate(new_events, start=1):
        event = seal(
            msgspec.structs.replace(event, originator_version=version + offset, prev_hash=prev)
        )
        prev = event.hash
        sealed.append(event)
    return sealed


def _token(length: int = 8) -> str:
    """``length`` characters of ``_ALPHABET``, uniformly: one ``randbelow`` over all
    such tokens, written in base len(_ALPHABET)."""
    base = len(_ALPHABET)
    number = secrets.randbelow(base**length)
    chars: list[str] = []
    for _ in range(length):
        number, digit = divmod(number, base)
        chars.append(_ALPHABET[digit])
    return "".join(chars)
