"""The event store: an eventsourcing application with one stream per game.

``GameStore`` is persistence only: it appends sealed events atomically at the
version a caller read, loads and lists games, and bulk-inserts imported streams.
What may be appended (the referee procedure) is decided by ``service``.

SQLite is the default (file from ``--db``, ``REFEREE_DB`` or ``./referee.db``);
a ``postgresql://`` URL, or ``PERSISTENCE_MODULE=eventsourcing.postgres`` with the
library's ``POSTGRES_*`` settings, moves the same streams to PostgreSQL. What
differs between the two is in ``events.backends``, one module each. Every write is
one atomic append at the expected stream version: a second referee writing to
the same game at the same moment gets ``ConcurrentWriteError`` and nothing of
theirs is stored, so nothing is lost or written twice.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from typing import Any, NamedTuple, cast

from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError, Mapper, StoredEvent

from events.backends import (
    ONE_SHOT_MODULE,
    UNLOCKED,
    Backend,
    TakeLock,
    backend_for,
    is_server_store,
    is_server_url,
    queries,
    server_settings,
    store_settings,
)
from events.codec import MsgspecMapper, Sealed, bytes_hash, decode_rows, own_hash, seal_after
from events.schema import (
    GENESIS_HASH,
    TOPIC_OF,
    ActionRecorded,
    GameCreated,
    GameEvent,
    topics_for,
)
from events.view import GameView
from referee.errors import RefereeError

DEFAULT_DB = "referee.db"
BULK_FROM = 256
"""A write of this many events or more (a round's pairing and its games) is stored by
``GameStore._insert_many``, past the library's per-event objects; fewer go through the
library's ``save`` (one game's entry, a slip)."""
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
    env = {  # noqa: RUF012 - eventsourcing's Application reads this class attribute
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
    """Carries new events into ``Application.save`` as one object (one protocol check);
    they may be of several streams (the library files each event by its originator)."""

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
    last_actions: dict[str, bytes] = {}  # noqa: RUF012 - a NamedTuple default, never mutated


def resolve_db_path(db: str | os.PathLike[str] | None) -> str:
    """``db``, else ``REFEREE_DB``, else ``./referee.db``. An empty ``REFEREE_DB`` (``export
    REFEREE_DB=``) is unset, as the command line's options read it: it named the current
    folder ("'.': is a folder, not a store file")."""
    return os.fspath(db) if db is not None else os.environ.get("REFEREE_DB") or DEFAULT_DB


def _utc_now() -> datetime:
    return datetime.now(UTC)


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


class GameStore:
    """Records games as event streams and rebuilds them by replay.

    Written once for every backend: what differs between SQLite and PostgreSQL is
    ``self.backend`` (``events.backends``), and the SQL both run is
    ``events.backends.queries``. A store whose events are encrypted or compressed, or
    one kept by the library's in-memory recorder, is read through the library's own
    calls, which give the same answers."""

    def __init__(
        self,
        db: str | os.PathLike[str] | None = None,
        *,
        env: Mapping[str, str] | None = None,
        clock: Callable[[], datetime] = _utc_now,
        one_shot: bool = False,
    ) -> None:
        """``one_shot``: a command that reads and writes a game or two and ends (``referee
        act``): on a ``postgresql://`` URL it opens one plain psycopg connection
        (``events.backends.postgres_oneshot``) rather than a connection pool."""
        target = os.fspath(db) if db is not None else None
        settings: dict[str, str] = {}
        if target is not None and is_server_url(target):
            settings.update(store_settings(target))
        else:
            settings["SQLITE_DBNAME"] = resolve_db_path(db)
        settings.setdefault("SQLITE_LOCK_TIMEOUT", lock_timeout())
        settings.update(env or {})
        if is_server_store("", settings):
            server_settings(settings, lock_timeout())
        if (
            one_shot
            and target is not None
            and is_server_url(target)
            and "PERSISTENCE_MODULE" not in (env or {})
        ):
            settings["PERSISTENCE_MODULE"] = ONE_SHOT_MODULE
        self.app = RefereeApplication(env=settings)
        self.recorder = self.app.recorder
        self.mapper = cast(MsgspecMapper, self.app.mapper)
        self.clock = clock
        self.read_only = False
        self.backend: Backend | None = backend_for(self.recorder)
        """The database's own interface (``None`` for the library's in-memory recorder)."""
        self.direct: Backend | None = self.backend if self.mapper.plain else None
        """The backend when rows may be read as stored (plain JSON events): the hot paths
        (loading a game, listing games, bulk imports, the read models) read plain tuples
        with its statements instead of a ``StoredEvent`` per row."""

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

    @property
    def kind(self) -> str:
        """``"sqlite"``, ``"postgres"`` or ``"memory"``: for messages and read models."""
        return self.backend.kind if self.backend is not None else "memory"

    def ensure_tables(self) -> bool:
        """Create the store's tables if they are missing (a server starting, say, so its
        first request finds them); True if it created them. Ordinary starts need not:
        the tables are made the first time a statement finds them missing."""
        if self.backend is None:
            return False
        with persistence_errors():
            return self.backend.ensure_tables()

    def refresh_statistics(self) -> None:
        """After a bulk insert, let the database's planner see the events table as it is."""
        if self.direct is not None:
            with persistence_errors():
                self.direct.analyze()

    def close(self) -> None:
        if self.backend is not None:  # a bulk write's checkpoint done first (SQLite)
            self.backend.settle()
        self.app.close()

    def watch(self, heard: Callable[[], None]) -> Callable[[], None] | None:
        """Call ``heard`` from a thread of its own soon after any process appends to the
        store; the answer stops it. ``None`` where the database announces nothing (SQLite,
        memory): then the log is read to find others' writes (``events.backends``)."""
        if self.backend is None:
            return None
        return self.backend.watch(heard)

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def plain_cursor(self, *, write: bool = False) -> Iterator[Any]:
        """A cursor on the store's own database giving plain tuples, in one transaction,
        committed only when ``write`` (for side tables such as the seal's checkpoints:
        name them with ``self.backend.qualified`` and ``self.backend.mark``)."""
        if self.backend is None:
            raise StoreUnavailableError("this store keeps no tables of its own (in memory)")
        self._tables_ready()
        with persistence_errors(), self.backend.transaction(write=write) as cursor:
            yield cursor

    @contextmanager
    def stream_lock(self, stream_id: str) -> Iterator[None]:
        """Hold ``stream_id``'s write lock while reading it, deciding and appending: the
        server's processes on one PostgreSQL store take turns on the stream rather than
        racing for its next version (``Backend.stream_lock``; a wait longer than the
        store's lock wait is ``StoreBusyError``). Nothing to hold in memory or on a file."""
        if self.backend is None:
            yield
            return
        with persistence_errors(), self.backend.stream_lock(stream_id):
            yield

    def stream_locks(self) -> AbstractContextManager[TakeLock]:
        """Streams' write locks (``stream_lock``) held together until leaving:
        ``take(stream, wait)`` takes one more (``Backend.stream_locks``; a wait longer than
        the store's lock wait is ``StoreBusyError``), or answers that another writer holds
        it when not ``wait``. The server's writer holds those of a batch of event writes
        until the batch is stored."""
        locks = UNLOCKED if self.backend is None else self.backend.stream_locks()
        return locks if locks is UNLOCKED else self._stream_locks(locks)

    @contextmanager
    def _stream_locks(self, locks: AbstractContextManager[TakeLock]) -> Iterator[TakeLock]:
        with persistence_errors(), locks as take:

            def taking(stream: str, wait: bool) -> bool:
                with persistence_errors():
                    return take(stream, wait)

            yield taking

    # -- reading -------------------------------------------------------------
    def stored_events(self, game_id: str) -> Sequence[StoredEvent]:
        return self.recorder.select_events(game_id)

    def rows(
        self, game_id: str, *, after: int = 0, upto: int | None = None
    ) -> list[tuple[int, str, bytes]]:
        """A game's stored events numbered above ``after`` (up to ``upto``) as (number,
        topic, the event's JSON bytes as stored)."""
        if self.direct is not None:  # loading a game starts every entry: nothing around it
            return queries.rows(self.direct, game_id, after=after, upto=upto)
        plain = self.mapper.plain_state
        return [
            (s.originator_version, s.topic, plain(s))
            for s in self.recorder.select_events(game_id, gt=after or None, lte=upto)
        ]

    def last_row(self, game_id: str) -> tuple[int, str, bytes] | None:
        """A game's newest stored event as (number, topic, JSON bytes), or ``None``."""
        if self.direct is not None:
            return queries.last_row(self.direct, game_id)
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
        while after < upto:
            if self.direct is not None:
                rows = queries.rows_page(self.direct, game_id, after, upto, page)
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
        return decode_rows(self.rows(game_id, upto=upto))

    def load(self, game_id: str, *, upto: int | None = None) -> GameView:
        """Rebuild a game by replaying its stream (up to event ``upto``)."""
        stream = self.events(game_id, upto=upto)
        if not stream:
            raise GameNotFoundError(f"no game {game_id!r} in this store")
        return GameView.from_events(stream)

    def existing(self, game_ids: Sequence[str]) -> set[str]:
        """Which of ``game_ids`` have events in the store (one query per 500)."""
        if self.direct is None:
            return {g for g in game_ids if self.exists(g)}
        return queries.existing(self.direct, game_ids)

    def exists(self, game_id: str) -> bool:
        if self.direct is not None:
            return bool(queries.rows_page(self.direct, game_id, 0, 1, 1))
        return bool(self.recorder.select_events(game_id, limit=1))

    def resolve(self, ref: str) -> str:
        """A game id from the whole id or a unique ending of it
        (``7k3m`` for ``prizmik-...7k3m``)."""
        ref = ref.strip()
        if self.exists(ref):
            return ref
        created = self.iter_notifications(topics_for(GameCreated))
        matches = [str(n.originator_id) for n in created if str(n.originator_id).endswith(ref)]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise GameNotFoundError(f"no game {ref!r} in this store ('referee games' lists them)")
        raise GameNotFoundError(f"{ref!r} matches several games: {', '.join(matches)}")

    def _tables_ready(self) -> None:
        """Before a call of the library's own recorder or a transaction of the caller's: a
        server store's tables exist (this project's reads and appends create them when
        they find them missing; those cannot). One check per process, only on these paths."""
        if not self._checked:
            self._checked = True
            self.ensure_tables()

    _checked = False

    def notifications(self, after: int, limit: int, topics: Sequence[str] = ()) -> list[Any]:
        """At most ``limit`` stored events after position ``after``, in store order, as the
        library's notifications (``id``, ``originator_id``, ``originator_version``,
        ``topic``, ``state``)."""
        self._tables_ready()
        return list(
            self.recorder.select_notifications(
                after, limit, topics=topics, inclusive_of_start=False
            )
        )

    def last_position(self) -> int:
        """The store-wide sequence's last position (0 for an empty store)."""
        self._tables_ready()
        return int(self.recorder.max_notification_id() or 0)

    def iter_notifications(
        self, topics: Sequence[str] = (), *, after: int = 0, page: int = 5000
    ) -> Iterator[Any]:
        """Every stored event in store order (notification ids may have gaps)."""
        position = after
        while True:
            batch = self.notifications(position, page, topics)
            yield from batch
            if len(batch) < page:
                return
            position = batch[-1].id

    def log_heads(self, *, after: int, page: int = 5000) -> Iterator[tuple[int, str, int]]:
        """(position, game id, event number) of every event stored after position
        ``after``, in store order: who wrote where since, without reading the events (a
        server's writer follows the log with it to know which cached games moved)."""
        if self.backend is None:
            for note in self.iter_notifications(after=after, page=page):
                yield note.id, str(note.originator_id), note.originator_version
            return
        self._tables_ready()
        position = after
        while True:
            with persistence_errors():
                batch = queries.log_heads(self.backend, position, page)
            yield from batch
            if len(batch) < page:
                return
            position = batch[-1][0]

    def log_page(self, after: int, limit: int) -> LogPage:
        """The next page of the store's log after notification ``after`` (see ``LogPage``).

        Where rows are read directly the database counts recorded actions per game (in C)
        and only the other events are read; other recorders go through the library's
        ``select_notifications``."""
        recorded = TOPIC_OF[ActionRecorded]
        if self.direct is not None:
            with persistence_errors():
                last, events, actions, last_actions = queries.log_page(
                    self.direct, after, limit, recorded
                )
            total = len(events) + sum(n for n, _, _ in actions.values())
            return LogPage(last, events, actions, total, last_actions)
        notes = self.notifications(after, limit)
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

    def event_hashes(
        self, *, upto: int | None = None, page: int = 50_000
    ) -> Iterator[tuple[int, str, int, str]]:
        """(notification id, game, number, hash) of every stored event in store order,
        read a page at a time (the whole log, so memory stays flat).

        The hash is recomputed from the stored bytes, not read from the event's own
        field, so a checkpoint vouches for the bytes: an edit that leaves the field
        alone still changes the chain."""
        for position, game_id, version, topic, state in self.log_rows(upto=upto, page=page):
            yield position, game_id, version, bytes_hash(topic, state)

    def log_rows(
        self, *, upto: int | None = None, page: int = 50_000
    ) -> Iterator[tuple[int, str, int, str, bytes]]:
        """(notification id, game, number, topic, stored bytes) of every stored event in
        store order, up to ``upto``, read a page at a time: what ``event_hashes`` hashes,
        for a reader that also keeps some of the rows it passes (a posting's facts)."""
        for rows in self.log_pages(upto=upto, page=page):
            yield from rows

    def log_pages(
        self, *, upto: int | None = None, page: int = 50_000
    ) -> Iterator[list[tuple[int, str, int, str, bytes]]]:
        """``log_rows`` a page at a time (each a list, never empty), for a loop over the rows
        of the whole store that counts them a page at a time (``events.ledger.read_chain``)."""
        after = 0
        limit = upto if upto is not None else 2**62
        while True:
            rows: list[tuple[int, str, int, str, bytes]]
            if self.direct is not None:
                rows = queries.log_rows(self.direct, after, page, limit)
            else:
                self._tables_ready()
                notes = self.recorder.select_notifications(
                    after, page, stop=limit, inclusive_of_start=False
                )
                plain = self.mapper.plain_state
                rows = [
                    (n.id, str(n.originator_id), n.originator_version, n.topic, plain(n))
                    for n in notes
                ]
            if rows:
                yield rows
            if len(rows) < page:
                return
            after = rows[-1][0]

    def positions(self, stream_id: str) -> dict[int, int]:
        """Each stored event's number in a stream -> its position in the store's order."""
        if self.direct is not None:
            return queries.positions(self.direct, stream_id)
        return {
            version: position
            for position, game_id, version, _ in self.event_hashes()
            if game_id == stream_id
        }

    def newest_at(self, stream_id: str, position: int) -> tuple[int, int] | None:
        """The number and store position of a stream's newest event at or before store
        position ``position`` (a posting's fact under its checkpoint), or ``None``."""
        if self.direct is not None:
            return queries.newest_at(self.direct, stream_id, position)
        under = [(v, p) for v, p in self.positions(stream_id).items() if p <= position]
        return max(under) if under else None

    def head_hash(self, game_id: str, version: int) -> str:
        """The hash of event ``version`` of a game ("" when it is not there)."""
        found = self.rows(game_id, after=version - 1, upto=version)
        return own_hash(found[0][2]) if found else ""

    def game_ids(self) -> list[str]:
        """Every game id with at least one stored event, in order of first appearance.

        Read from the whole log rather than from creation events, so a game whose
        creation event was removed or damaged is still found by ``verify``."""
        if self.direct is not None:
            return queries.game_ids(self.direct)
        seen: dict[str, None] = {}
        for note in self.iter_notifications():
            seen.setdefault(str(note.originator_id), None)
        return list(seen)

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
        (as ``append_sealed`` takes them once sealed): a game's end and its match's update are one
        write, never a finished game whose match did not hear of it. Returns the game's
        sealed events and each other batch's."""
        version = view.version if view else 0
        prev = view.last_hash if view else GENESIS_HASH
        sealed = seal_after(version, prev, new_events)
        others = [seal_after(v, p, batch) for v, p, batch in also]
        game_id = sealed[0].originator_id
        self._save_streams(
            [sealed, *others],
            f"another referee recorded event {version + 1} of game {game_id} at the same "
            "moment; nothing of yours was stored. Look at the position again and re-enter "
            "your entry if it still stands.",
        )
        if view is not None:
            fold_written(view, sealed, applied)
        return sealed, others

    def append_sealed(self, streams: Sequence[Sequence[GameEvent]]) -> list[int]:
        """Append events already numbered and chained (``sealed_after``) to several
        streams in ONE transaction (a server's group commit): all or nothing, and each
        stream's numbers still enforced, so a stream another writer moved meanwhile fails
        the whole write with ``ConcurrentWriteError``. Returns the events' notification
        ids (the whole store's log)."""
        self._writable()
        events = [event for stream in streams for event in stream]
        if not events:
            return []
        try:
            with persistence_errors():
                return self._store_events(events, _sealed_states(streams))
        except IntegrityError as exc:
            _replica_refusal(self, exc, [e.originator_id for e in events])
            lead = streams[0][0] if streams and streams[0] else None
            first = lead if len(streams) == 1 else None
            if lead is not None and lead.originator_id.startswith("ev-"):  # an event's write
                message = (
                    "another writer changed this event at the same moment; nothing of yours "
                    "was stored. Look at it again and re-enter your command if it still stands."
                )
            elif first is not None:
                message = (
                    f"another referee recorded event {first.originator_version} of game "
                    f"{first.originator_id} at the same moment; nothing of yours was stored. "
                    "Look at the position again and re-enter your entry if it still stands."
                )
            else:
                message = (
                    "another writer changed one of these games at the same moment; nothing "
                    "of this write was stored"
                )
            raise ConcurrentWriteError(message) from None

    def _writable(self) -> None:
        if self.read_only:
            raise StoreUnavailableError(
                "this store was opened read-only (its folder cannot be written); "
                "nothing can be recorded in it"
            )

    def _save_streams(self, batches: Sequence[Sequence[GameEvent]], conflict: str) -> None:
        """Store the sealed ``batches`` (one a stream) in one transaction, or store nothing
        and raise ``ConcurrentWriteError(conflict)`` when a stream moved meanwhile."""
        self._writable()
        try:
            with persistence_errors():
                events = [event for batch in batches for event in batch]
                if events:
                    self._store_events(events)
        except IntegrityError as exc:
            _replica_refusal(self, exc, [b[0].originator_id for b in batches if b])
            raise ConcurrentWriteError(conflict) from None

    def _store_events(
        self, events: Sequence[GameEvent], states: list[bytes] | None = None
    ) -> list[int]:
        """Store sealed ``events`` (several streams', at least one) in one transaction;
        their positions in the log. A round's pairing (``BULK_FROM`` events or more) goes
        past the library's ``save``; a smaller write is saved through ONE carrier for every
        stream, since the library checks each object it is given against its runtime
        protocols, which cost more than the rest of a hundred-game commit's mapping (py-spy,
        issue 23)."""
        if len(events) >= BULK_FROM:
            return self._insert_many(events, states)
        saved = self.app.save(cast(Any, _Batch(events[0].originator_id, events)))
        return [r.notification.id for r in saved]

    def _insert_many(
        self, events: Sequence[GameEvent], states: list[bytes] | None = None
    ) -> list[int]:
        """Store sealed ``events`` in one transaction without the library's ``save``, whose
        ``Recording`` and ``Notification`` per event nobody reads here (a pairing's 15,000
        events: a fifth of the command). The rows are the store's mapper's, so what is
        stored is what ``save`` stores, byte for byte; on SQLite one ``executemany`` of the
        library's own statement (its application recorder runs one ``execute`` per row to
        learn notification ids, which this write does not need), elsewhere the recorder's
        own insert (PostgreSQL: one call of the append function, its lock and notify).
        Returns the events' positions in the log, as ``save`` does. ``states``: the
        events' JSON as they were sealed (``Sealed``), stored as it is where the mapper
        stores plain JSON (no cipher, no compression): the same bytes, not encoded again."""
        stored: list[StoredEvent]
        if states is not None and self.mapper.plain:
            topic_of = TOPIC_OF
            rows = [
                (e.originator_id, e.originator_version, topic_of[type(e)], state)
                for e, state in zip(events, states, strict=True)
            ]
        else:
            to_stored = self.mapper.to_stored_event
            stored = [to_stored(event) for event in events]
            rows = [(str(s.originator_id), s.originator_version, s.topic, s.state) for s in stored]
        direct = self.direct
        if direct is not None:
            numbered = direct.insert_numbered(rows)
            if numbered is not None:
                return numbered
        stored = [
            StoredEvent(originator_id=i, originator_version=v, topic=t, state=b)
            for i, v, t, b in rows
        ]
        return list(self.recorder.insert_events(stored) or ())

    def new_event_id(self, seed: str | None = None) -> str:
        """A new event (tournament) id: ``ev-`` and eight characters, like a game id's;
        drawn at random, or, given a ``seed`` (a write's idempotency key and token), the
        same for the same seed, so a retried creation finds the event it made."""
        if seed is None:
            return "ev-" + _token()
        number = int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big")
        chars: list[str] = []
        for _ in range(8):
            number, digit = divmod(number, len(_ALPHABET))
            chars.append(_ALPHABET[digit])
        return "ev-" + "".join(chars)

    def new_game_id(self, game: str) -> str:
        """``GAME-`` and eight characters of the alphabet, from ONE draw of the system's
        random source (pairing a round makes a thousand of them)."""
        return f"{game}-{_token()}"

    def keyed_game_id(self, game: str, seed: str) -> str:
        """A new game's id made from ``seed`` (a write's idempotency key and token), the
        same for the same seed, as ``new_event_id`` makes an event's: a retried creation
        finds the game its first try made."""
        return f"{game}-{self.new_event_id(seed=seed).removeprefix('ev-')}"

    def new_game_ids(self, game: str, count: int) -> list[str]:
        """``count`` new ids as ``new_game_id`` makes them (each character uniform over the
        alphabet), from one read of the system's random source for them all: a pairing of
        5,000 tables read it 5,000 times, one call and a base conversion per id."""
        return [f"{game}-{token}" for token in _tokens(count)]

    def insert_streams(self, streams: Sequence[Sequence[GameEvent]]) -> None:
        """Append whole, already sealed game streams in one transaction (imports)."""
        try:
            self.app.save(*[cast(Any, _Batch(s[0].originator_id, s)) for s in streams])
        except IntegrityError as exc:
            _replica_refusal(self, exc, [s[0].originator_id for s in streams if s])
            raise ConcurrentWriteError(
                "one of these games is already in the store (import it with --as-new to copy it)"
            ) from None

    def insert_rows(self, streams: Sequence[tuple[str, Sequence[tuple[int, str, bytes]]]]) -> None:
        """Bulk-append sealed streams given as (game id, [(number, topic, JSON bytes)]).

        Used by imports: the rows go in one transaction, stored exactly as read, by the
        backend's bulk insert (``Backend.bulk_insert``). When the store encrypts or
        compresses, each row is mapped through the mapper and the library inserts it."""
        try:
            if self.direct is not None:
                rows = [
                    (game_id, number, topic, state)
                    for game_id, stream in streams
                    for number, topic, state in stream
                ]
                with persistence_errors():
                    self.direct.bulk_insert(rows)
                return
            self._tables_ready()
            plain = self.mapper.plain
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
        except IntegrityError as exc:
            _replica_refusal(self, exc, [game_id for game_id, _ in streams])
            raise ConcurrentWriteError(
                "one of these games is already in the store (import it with --as-new to copy it)"
            ) from None


REPLICA_MARKER = "referee-replica"
"""The text of the replica trigger's refusal (``events.replica``), so an append tells it
from a concurrent write."""


class ReplicaWriteError(StoreError, ValueError):
    """A write to a stream this store holds as a replica (REF-9.1); nothing was stored."""

    clause = "REF-9.1"


def replica_refusal(store: GameStore, streams: Sequence[str]) -> ReplicaWriteError:
    """The refusal of a write to ``streams`` that this store holds as a replica, naming
    the store that writes them (its ``referee_runs`` row)."""
    held: tuple[str, str, str] | None = None
    backend = store.backend
    if backend is not None and streams:
        try:
            with store.plain_cursor() as cursor:
                held = queries.replica_run(cursor, backend, streams)
        except StoreError:
            held = None
    if held is None:
        return ReplicaWriteError(
            "REF-9.1: this store holds a replica of this game or event; nothing was stored"
        )
    stream, writer, since = held
    return ReplicaWriteError(
        f"REF-9.1: this store holds a replica of {stream}, which store {writer!r} writes "
        f"(since {since}); record it there, or hand the event over (referee event handover); "
        "nothing was stored"
    )


def _sealed_states(streams: Sequence[Sequence[GameEvent]]) -> list[bytes] | None:
    """The JSON every event of ``streams`` was sealed as, where each stream is as
    ``seal_after`` made it (``Sealed``), else ``None``."""
    states: list[bytes] = []
    for stream in streams:
        kept = stream.kept_states() if isinstance(stream, Sealed) else None
        if kept is None:
            return None
        states += kept
    return states


def _replica_refusal(store: GameStore, exc: BaseException, streams: Sequence[str]) -> None:
    """Raise the replica's refusal (REF-9.1) when the store's replica trigger, not another
    writer, stopped the write."""
    if REPLICA_MARKER in str(exc):
        raise replica_refusal(store, list(dict.fromkeys(streams))) from None


def sealed_after(view: GameView, new_events: Sequence[GameEvent]) -> list[GameEvent]:
    """``new_events`` numbered and chained after ``view``'s last event, as an append at
    that version stores them (for ``GameStore.append_sealed``)."""
    return seal_after(view.version, view.last_hash, new_events)


def sealed_at(version: int, prev_hash: str, new_events: Sequence[GameEvent]) -> list[GameEvent]:
    """``new_events`` numbered after ``version`` and chained after ``prev_hash``: a new
    stream's first events (version 0, ``GENESIS_HASH``), or a batch of ``append_with``'s
    ``also``, ready for ``GameStore.append_sealed``."""
    return seal_after(version, prev_hash, new_events)


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


_FAIR = 256 - 256 % len(_ALPHABET)
"""Random bytes below this map evenly onto the alphabet (``byte % len``); the rest are
dropped, so each character is uniform."""
_TO_ALPHABET = bytes(ord(_ALPHABET[b % len(_ALPHABET)]) if b < _FAIR else 0 for b in range(256))
_UNFAIR = bytes(range(_FAIR, 256))


def _tokens(count: int, length: int = 8) -> list[str]:
    """``count`` tokens of ``length`` characters of ``_ALPHABET``, each character uniform
    and independent (as ``_token``'s): random bytes read in bulk, the few at or above
    ``_FAIR`` dropped, the others mapped by one ``bytes.translate``."""
    wanted = count * length
    chars = b""
    while len(chars) < wanted:
        need = wanted - len(chars)
        chars += os.urandom(need + need // 8 + 16).translate(_TO_ALPHABET, _UNFAIR)
    text = chars[:wanted].decode("ascii")
    return [text[at : at + length] for at in range(0, wanted, length)]
