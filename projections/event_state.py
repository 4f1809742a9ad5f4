"""Events' folded states, kept beside the read models so a command loads an event in
what the newest facts cost, not in what the whole event holds.

An event (tournament) is its log of facts; every command folds them into a
``Tournament`` and, when it shows standings, a ``Standings`` table. At 10,000 players
in round 4 that is 50,000 facts to read, decode and fold and 20,000 results to sum on
every command. A snapshot is that fold at one version of the event's stream, encoded
once (msgpack: the state as it is, the standings as plain integers), so a command reads
one row and folds only the facts after it.

A snapshot is a cache, never a source: it is taken at a version of the stream and
carries that version's hash, so a reader checks it continues the chain it reads (a
stream that does not continue it makes the snapshot ignored); it carries the
fingerprint of the code that folded it (``FINGERPRINT``: the fold's and the
standings' sources), so a changed fold makes every snapshot ignored and rebuilt from
the log; ``referee verify`` folds each event again and compares the bytes; deleting the
table (or the read models' file) costs only the next load's full fold.

Where it lives: the ``event_state`` table of ``projections.db``'s database (the
``.projections.db`` file beside a SQLite store, ``referee_event_state`` on PostgreSQL),
like the referees' queue's snapshot.
"""

from __future__ import annotations

import hashlib
import importlib.util
import typing
from typing import Any

import immutables
import msgspec

from projections.db import ProjectionDB, projection_db
from referee.kit.decks import Deck
from referee.tournament.model import Placement, Score, TableKey
from referee.tournament.standings import StandingsCounts
from referee.tournament.state import TableState, Tournament

__all__ = ["FINGERPRINT", "EventSnapshot", "EventSnapshots", "decode_snapshot", "encode_snapshot"]

_FOLD_MODULES = (
    "referee.tournament.state",
    "referee.tournament.clock",  # the round clock's state and fold (EV-9)
    "referee.tournament.facts",
    "referee.tournament.model",
    "referee.tournament.standings",
    "referee.kit.decks",
    "events.tournament",
    "projections.event_state",
)


def _fingerprint() -> str:
    """A digest of the sources that decide what a fold produces: a snapshot written by
    other code is never read as if this code had folded it."""
    digest = hashlib.sha256()
    for name in _FOLD_MODULES:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        if origin is None:  # no source to read (frozen): never trust a snapshot
            return ""
        with open(origin, "rb") as source:
            digest.update(source.read())
    return digest.hexdigest()[:32]


FINGERPRINT = _fingerprint()


_NIL = b"\xc0"

# A table's result is a ``Score`` or a ``Placement``: a union msgspec cannot read back
# untagged (and their stored encoding is not ours to change). So tables travel apart from
# the state and are read as ``_TableRow``, every field of ``TableState`` but its result
# (whatever fields it gains), each result in the field of its type.
_TABLE_FIELDS = [f for f in msgspec.structs.fields(TableState) if f.name != "reported"]
_TABLE_NAMES = [f.name for f in _TABLE_FIELDS]
_TableRow: Any = msgspec.defstruct(
    "_TableRow",
    [
        (f.name, f.type) if f.default is msgspec.NODEFAULT else (f.name, f.type, f.default)
        for f in _TABLE_FIELDS
    ],
    array_like=True,  # a row is its values in field order: no names repeated 20,000 times
)


# The state's other persistent maps (players, games, calls, ...: every ``Map`` field it has)
# travel as typed lists of pairs beside it, read in the same pass as the rest (an encoder
# hook would read them untyped first, then convert them: twice the work).
_MAP_NAMES = [
    f.name
    for f in msgspec.structs.fields(Tournament)
    if typing.get_origin(f.type) is immutables.Map and f.name != "tables"
]
_Maps: Any = msgspec.defstruct(
    "_Maps",
    [
        (f.name, list[tuple[typing.get_args(f.type)]], [])  # type: ignore[misc]
        for f in msgspec.structs.fields(Tournament)
        if f.name in _MAP_NAMES
    ],
    array_like=True,
)
_EMPTY: dict[str, immutables.Map[Any, Any]] = {
    name: immutables.Map() for name in [*_MAP_NAMES, "tables"]
}


class _Stored(msgspec.Struct, kw_only=True):
    """The snapshot as read back (``encode_snapshot`` writes it from plain values)."""

    version: int
    last_hash: str
    name: str
    state: Tournament
    maps: _Maps
    tables: list[tuple[TableKey, _TableRow]] = []
    results: list[tuple[Score | None, Placement | None]] = []
    decks: dict[str, Deck] = {}
    standings: msgspec.Raw = msgspec.Raw(_NIL)
    """msgpack's nil when no standings were kept (``Raw | None`` does not read back)."""


class EventSnapshot(msgspec.Struct, kw_only=True):
    """An event folded up to ``version`` (whose event's hash is ``last_hash``)."""

    version: int
    last_hash: str
    name: str
    state: Tournament
    decks: dict[str, Deck] = {}
    standings: msgspec.Raw | None = None
    """The standings' ``StandingsCounts``, decoded only when a command reads them."""


def _enc(value: Any) -> Any:
    if isinstance(value, immutables.Map):
        return list(value.items())
    raise NotImplementedError(f"cannot encode {type(value).__name__}")


def _dec(kind: type, value: Any) -> Any:
    if typing.get_origin(kind) is immutables.Map:
        if not value:
            return immutables.Map()
        key, item = typing.get_args(kind)
        return immutables.Map(msgspec.convert(value, list[tuple[key, item]]))  # type: ignore[valid-type]
    raise NotImplementedError(f"cannot decode {kind!r}")


_ENCODER = msgspec.msgpack.Encoder(enc_hook=_enc)
_DECODER = msgspec.msgpack.Decoder(_Stored, dec_hook=_dec)
_COUNTS = msgspec.msgpack.Decoder(StandingsCounts)


def encode_snapshot(snapshot: EventSnapshot) -> bytes:
    tables: list[tuple[TableKey, list[Any]]] = []
    results: list[tuple[Score | None, Placement | None]] = []
    for key, table in snapshot.state.tables.items():
        result = table.reported
        row = [getattr(table, name) for name in _TABLE_NAMES]  # its result: in ``results``
        tables.append((key, row))
        results.append(
            (
                result if isinstance(result, Score) else None,
                result if isinstance(result, Placement) else None,
            )
        )
    stored = {
        "version": snapshot.version,
        "last_hash": snapshot.last_hash,
        "name": snapshot.name,
        "state": msgspec.structs.replace(snapshot.state, **_EMPTY),
        "maps": [list(getattr(snapshot.state, name).items()) for name in _MAP_NAMES],
        "tables": tables,
        "results": results,
        "decks": snapshot.decks,
        "standings": snapshot.standings or msgspec.Raw(_NIL),
    }
    return _ENCODER.encode(stored)


def decode_snapshot(data: bytes) -> EventSnapshot:
    stored = _DECODER.decode(data)
    names = _TABLE_NAMES
    tables = immutables.Map(
        (
            key,
            TableState(
                **{name: getattr(row, name) for name in names},
                reported=score if score is not None else placement,
            ),
        )
        for (key, row), (score, placement) in zip(stored.tables, stored.results, strict=True)
    )
    return EventSnapshot(
        version=stored.version,
        last_hash=stored.last_hash,
        name=stored.name,
        state=msgspec.structs.replace(
            stored.state,
            tables=tables,
            **{name: immutables.Map(getattr(stored.maps, name)) for name in _MAP_NAMES},
        ),
        decks=stored.decks,
        standings=None if bytes(stored.standings) == _NIL else stored.standings,
    )


def encode_counts(counts: StandingsCounts) -> msgspec.Raw:
    return msgspec.Raw(_ENCODER.encode(counts))


def decode_counts(raw: msgspec.Raw) -> StandingsCounts:
    return _COUNTS.decode(raw)


class EventSnapshots:
    """The ``event_state`` table: one snapshot per event, the newest kept."""

    def __init__(self, store: Any) -> None:
        self.db: ProjectionDB = projection_db(store)
        self.read_only = bool(store.read_only)
        self.table = self.db.t("event_state")
        self.ddl = (
            f"CREATE TABLE IF NOT EXISTS {self.table} (event_id TEXT PRIMARY KEY, version BIGINT "
            f"NOT NULL, fingerprint TEXT NOT NULL, state {self.db.blob} NOT NULL)"
        )

    def load(self, event_id: str) -> EventSnapshot | None:
        """The event's snapshot folded by this code, if one is kept and reads whole."""
        if self.db.absent() or not FINGERPRINT:
            return None
        try:
            with self.db.reading() as cursor:
                cursor.execute(
                    self.db.sql(f"SELECT fingerprint, state FROM {self.table} WHERE event_id = ?"),
                    (event_id,),
                )
                row = cursor.fetchone()
        except Exception:  # no table yet (never saved), or a database we cannot read
            return None
        if row is None or row[0] != FINGERPRINT:
            return None
        try:
            return decode_snapshot(bytes(row[1]))
        except (msgspec.DecodeError, msgspec.ValidationError, NotImplementedError):
            return None

    def save(self, event_id: str, snapshot: EventSnapshot) -> None:
        """Keep ``snapshot`` unless one at a later version of this code is kept already (at
        the same version, one with standings replaces one without)."""
        if self.read_only or not FINGERPRINT:
            return
        data = encode_snapshot(snapshot)
        with self.db.locked() as cursor:
            cursor.execute(self.ddl)
            cursor.execute(
                self.db.sql(f"SELECT version, fingerprint FROM {self.table} WHERE event_id = ?"),
                (event_id,),
            )
            row = cursor.fetchone()
            if row is not None and row[1] == FINGERPRINT:
                kept = int(row[0])
                if kept > snapshot.version or (kept == snapshot.version and not snapshot.standings):
                    return
            cursor.execute(
                self.db.sql(
                    f"INSERT INTO {self.table} (event_id, version, fingerprint, state) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (event_id) DO UPDATE SET version = "
                    "excluded.version, fingerprint = excluded.fingerprint, state = excluded.state"
                ),
                (event_id, snapshot.version, FINGERPRINT, data),
            )

    def drop(self, event_id: str) -> None:
        """Forget the event's snapshot (one that did not match its log)."""
        if self.read_only or self.db.absent():
            return
        try:
            with self.db.locked() as cursor:
                cursor.execute(
                    self.db.sql(f"DELETE FROM {self.table} WHERE event_id = ?"), (event_id,)
                )
        except Exception:  # no table: nothing kept
            return

    def close(self) -> None:
        self.db.close()
