"""Events' folded states, kept beside the read models so a command loads an event in
what the newest facts and the open round cost, not in what the whole event holds.

An event (tournament) is its log of facts; every command folds them into a
``Tournament`` and, when it shows standings, a ``Standings`` table. At 10,000 players
in round 9 that is 100,000 facts to read, decode and fold and 45,000 results to sum on
every command. A snapshot is that fold at one version of the event's stream, so a
command reads one row and folds only the facts after it.

A snapshot is kept in two parts (issue 32): the *head* (settings, players, the rounds
from the latest one at the time it was written, their tables and games, the calls and
reports of those rounds) and the *history* (every earlier round, its tables, games,
voided games, calls and reports), in columns of their own. A command reads the head
alone; the state's maps and its rounds are ``PartedMap``/``PartedRounds``, which answer
from the head and read and decode the history the first time something older is asked
for (a key of an earlier round, or the whole map: pairing, the standings built afresh,
a page listing every table). So a result, ``event show`` or the standings decode what
the open round holds, whatever the number of rounds played; a snapshot written again
while its history is still unread rewrites the head alone.

A snapshot is a cache, never a source: it is taken at a version of the stream and
carries that version's hash, so a reader checks it continues the chain it reads (a
stream that does not continue it makes the snapshot ignored); it carries the
fingerprint of the code that folded it (``FINGERPRINT``: the fold's and the
standings' sources), so a changed fold makes every snapshot ignored and rebuilt from
the log; ``referee verify`` folds each event again and compares the whole state (the
history read too); deleting the table (or the read models' file) costs only the next
load's full fold. A history replaced between a command's reading the head and its
asking for the history (another process re-partitioned it) is made again by folding
the log up to the head's version: slower, never wrong.

Where it lives: the ``event_snapshot`` table of ``projections.db``'s database (the
``.projections.db`` file beside a SQLite store, ``referee_event_snapshot`` on
PostgreSQL), like the referees' queue's snapshot.
"""

from __future__ import annotations

import bisect
import hashlib
import importlib.util
import sys
import threading
import typing
import zlib
from array import array
from collections.abc import Callable, Iterator
from typing import Any

import immutables
import msgspec

from projections.db import ProjectionDB, projection_db
from referee.kit.decks import Deck
from referee.tournament.model import Placement, Round, Score, TableKey
from referee.tournament.standings import Standing, StandingsCounts
from referee.tournament.state import TableState, Tournament

__all__ = [
    "FINGERPRINT",
    "EventSnapshot",
    "EventSnapshots",
    "PartedMap",
    "PartedRounds",
    "decode_snapshot",
    "encode_snapshot",
    "new_keys",
]

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

# How each map is cut between head and history: by the round in its key (a table's), by
# the round of its value (calls, reports), by the round of the game (games, voided games);
# the players are all in the head.
_BY_KEY_ROUND = frozenset(
    name for name in ["tables", *_MAP_NAMES] if name in ("tables", "table_calls", "table_reports")
)
_HEAD_ONLY = frozenset({"players"})
_PARTED = [name for name in ["tables", *_MAP_NAMES] if name not in _HEAD_ONLY]
_KEYED = [name for name in _PARTED if name not in _BY_KEY_ROUND]
"""The parted maps whose history is named key by key (its keys kept in the head)."""


class _Tables(msgspec.Struct, array_like=True):
    rows: list[tuple[TableKey, _TableRow]] = []
    results: list[tuple[Score | None, Placement | None]] = []


class _Head(msgspec.Struct, kw_only=True):
    """The head as read back: the state with the head's rounds and maps."""

    version: int
    last_hash: str
    name: str
    state: Tournament
    maps: _Maps
    tables: _Tables
    decks: dict[str, Deck] = {}
    cut: int = 0
    """Rounds before this one are in the history."""
    history_id: int = 0
    old_rounds: list[int] = []
    old_counts: dict[str, int] = {}
    old_keys: dict[str, bytes] = {}
    """For each map cut key by key (games, voided games, calls, reports): the sorted 32-bit
    digests of its history's keys (``_digests``), so a lookup of a key of the open round
    knows it is not there without the 40,000 game ids of the earlier rounds decoded."""


def _digest(key: Any) -> int:
    return zlib.crc32(repr(key).encode())


def _digests(keys: Any) -> bytes:
    """The keys' sorted digests (CRC-32 of their ``repr``), little-endian: a collision only
    makes a lookup read the history, never a wrong answer (at 45,000 keys, one lookup in
    about 100,000)."""
    found = array("I", sorted({_digest(key) for key in keys}))
    if sys.byteorder == "big":
        found.byteswap()
    return found.tobytes()


def _digest_array(data: bytes) -> array[int]:
    found = array("I")
    found.frombytes(data)
    if sys.byteorder == "big":
        found.byteswap()
    return found


class _Old(msgspec.Struct, kw_only=True):
    """The history as read back."""

    maps: _Maps
    tables: _Tables
    rounds: list[Round] = []


class EventSnapshot(msgspec.Struct, kw_only=True):
    """An event folded up to ``version`` (whose event's hash is ``last_hash``)."""

    version: int
    last_hash: str
    name: str
    state: Tournament
    decks: dict[str, Deck] = {}
    standings: msgspec.Raw | None = None
    """The standings' ``StandingsCounts``, decoded only when a command reads them."""
    table: msgspec.Raw | None = None
    """The standings' table as shown (a list of ``Standing``), kept with the counts: a read
    of the standings no fact has moved since decodes it and restores nothing."""


def _enc(value: Any) -> Any:
    if isinstance(value, immutables.Map):
        return list(value.items())
    raise NotImplementedError(f"cannot encode {type(value).__name__}")


def _dec(kind: type, value: Any) -> Any:
    if typing.get_origin(kind) is immutables.Map:
        if not value:  # the state's own maps travel empty (their entries beside it)
            return immutables.Map()
        key, item = typing.get_args(kind)
        return immutables.Map(msgspec.convert(value, list[tuple[key, item]]))  # type: ignore[valid-type]
    raise NotImplementedError(f"cannot decode {kind!r}")


_ENCODER = msgspec.msgpack.Encoder(enc_hook=_enc)
_HEAD = msgspec.msgpack.Decoder(_Head, dec_hook=_dec)
_OLD = msgspec.msgpack.Decoder(_Old)
_COUNTS = msgspec.msgpack.Decoder(StandingsCounts)
_TABLE = msgspec.msgpack.Decoder(list[Standing])
_ENVELOPE = msgspec.msgpack.Decoder(tuple[bytes, bytes, bytes | None, bytes | None])


# -- the history, read when first asked ---------------------------------------------------


class _History:
    """The older part of one snapshot's state: which keys are in it (known from the head),
    and its maps and rounds, read and decoded once, on first need, by ``fetch`` (the
    history's bytes, ``None`` if they are gone) or, failing that, ``refold`` (the whole
    state at the head's version, folded from the log)."""

    def __init__(
        self,
        head: _Head,
        fetch: Callable[[], bytes | None],
        refold: Callable[[], Tournament] | None,
    ) -> None:
        self.cut = head.cut
        self.history_id = head.history_id
        self.old_rounds = frozenset(head.old_rounds)
        self.counts = dict(head.old_counts)
        self.old_keys: dict[str, array[int]] = {
            name: _digest_array(keys) for name, keys in head.old_keys.items()
        }
        self.kept_keys = head.old_keys  # written again as they are by a head-only save
        self._fetch = fetch
        self._refold = refold
        self._lock = threading.Lock()
        self._maps: dict[str, immutables.Map[Any, Any]] | None = None
        self._rounds: dict[int, Round] | None = None

    @classmethod
    def of(
        cls,
        head: _Head,
        maps: dict[str, immutables.Map[Any, Any]],
        rounds: dict[int, Round],
    ) -> _History:
        """A history already in memory (just written, or read from one buffer)."""
        history = cls(head, lambda: None, None)
        history._maps, history._rounds = maps, rounds
        return history

    def is_old(self, name: str, key: Any) -> bool:
        """Whether ``key`` of map ``name`` may be in the history (then it must be read)."""
        if not self.counts.get(name):
            return False
        if name in _BY_KEY_ROUND:
            return (
                isinstance(key, tuple)
                and bool(key)
                and isinstance(key[0], int)
                and (key[0] < self.cut)
            )
        keys = self.old_keys.get(name)
        if keys is None:
            return False
        wanted = _digest(key)
        at = bisect.bisect_left(keys, wanted)
        return at < len(keys) and keys[at] == wanted

    def maps(self) -> dict[str, immutables.Map[Any, Any]]:
        self._load()
        assert self._maps is not None
        return self._maps

    def rounds(self) -> dict[int, Round]:
        self._load()
        assert self._rounds is not None
        return self._rounds

    def _load(self) -> None:
        with self._lock:
            if self._maps is not None:
                return
            data = None
            try:
                data = self._fetch()
            except Exception:  # the history could not be read: made again from the log
                data = None
            if data is not None:
                try:
                    old = _OLD.decode(data)
                except (msgspec.DecodeError, msgspec.ValidationError):
                    old = None
                if old is not None:
                    self._maps = {
                        "tables": _tables_map(old.tables),
                        **{name: immutables.Map(getattr(old.maps, name)) for name in _MAP_NAMES},
                    }
                    self._rounds = {r.number: r for r in old.rounds}
                    return
            if self._refold is None:
                raise LookupError("an event snapshot's history is gone and cannot be made again")
            state = self._refold()
            self._maps = {
                name: immutables.Map(
                    (k, v) for k, v in _full(getattr(state, name)).items() if self.is_old(name, k)
                )
                for name in _PARTED
            }
            self._rounds = {n: r for n, r in state.rounds.items() if n in self.old_rounds}


def _full(value: Any) -> immutables.Map[Any, Any]:
    return value.materialized() if isinstance(value, PartedMap) else value


class PartedMap:
    """An ``immutables.Map`` of a snapshot's state whose older part (``history``) is read
    only when asked for: lookups of keys of the head answer from the head; a key the
    history holds, or the whole map (iterating, comparing), reads it. The parts are
    disjoint: a change to an older key makes the whole map (a plain ``Map``)."""

    __slots__ = ("_full", "_head", "_history", "_name")

    def __init__(self, head: immutables.Map[Any, Any], history: _History, name: str) -> None:
        self._head = head
        self._history = history
        self._name = name
        self._full: immutables.Map[Any, Any] | None = None

    def materialized(self) -> immutables.Map[Any, Any]:
        """The whole map (its history read if it was not)."""
        if self._full is None:
            self._full = self._history.maps()[self._name].update(self._head)
        return self._full

    def _old(self, key: Any) -> bool:
        return self._history.is_old(self._name, key)

    def _where(self, key: Any) -> immutables.Map[Any, Any]:
        if self._full is not None:
            return self._full
        return self.materialized() if self._old(key) else self._head

    def get(self, key: Any, default: Any = None) -> Any:
        return self._where(key).get(key, default)

    def __getitem__(self, key: Any) -> Any:
        return self._where(key)[key]

    def __contains__(self, key: Any) -> bool:
        return key in self._where(key)

    def __len__(self) -> int:
        if self._full is not None:
            return len(self._full)
        return len(self._head) + self._history.counts.get(self._name, 0)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.materialized())

    def keys(self) -> Any:
        return self.materialized().keys()

    def values(self) -> Any:
        return self.materialized().values()

    def items(self) -> Any:
        return self.materialized().items()

    def set(self, key: Any, value: Any) -> Any:
        if self._full is not None or self._old(key):
            return self.materialized().set(key, value)
        return PartedMap(self._head.set(key, value), self._history, self._name)

    def delete(self, key: Any) -> Any:
        if self._full is not None or self._old(key):
            return self.materialized().delete(key)
        return PartedMap(self._head.delete(key), self._history, self._name)

    def update(self, *args: Any, **kwargs: Any) -> Any:
        return self.materialized().update(*args, **kwargs)

    def mutate(self) -> Any:
        if self._full is not None:
            return self._full.mutate()
        return _PartedMutation(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PartedMap):
            other = other.materialized()
        return self.materialized() == other

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.materialized())

    def __repr__(self) -> str:
        return repr(self.materialized())


class _PartedMutation:
    """``PartedMap.mutate()``: changes the head while they touch only the head's keys; the
    first older key makes it a mutation of the whole map."""

    def __init__(self, parted: PartedMap) -> None:
        self._parted = parted
        self._mutation: Any = parted._head.mutate()
        self._whole: Any = None

    def _on(self, key: Any) -> Any:
        if self._whole is None and self._parted._old(key):
            parted = self._parted
            head = self._mutation.finish()
            old = parted._history.maps()[parted._name]
            self._whole = old.update(head).mutate()
        return self._whole if self._whole is not None else self._mutation

    def __setitem__(self, key: Any, value: Any) -> None:
        self._on(key)[key] = value

    def set(self, key: Any, value: Any) -> None:
        self._on(key)[key] = value

    def __getitem__(self, key: Any) -> Any:
        return self._on(key)[key]

    def get(self, key: Any, default: Any = None) -> Any:
        return self._on(key).get(key, default)

    def __contains__(self, key: Any) -> bool:
        return key in self._on(key)

    def __delitem__(self, key: Any) -> None:
        del self._on(key)[key]

    def delete(self, key: Any) -> None:
        del self._on(key)[key]

    def pop(self, key: Any, *default: Any) -> Any:
        return self._on(key).pop(key, *default)

    def __len__(self) -> int:
        if self._whole is not None:
            return len(self._whole)
        counts = self._parted._history.counts
        return len(self._mutation) + counts.get(self._parted._name, 0)

    def finish(self) -> Any:
        if self._whole is not None:
            return self._whole.finish()
        parted = self._parted
        return PartedMap(self._mutation.finish(), parted._history, parted._name)


def new_keys(before: Any, after: Any) -> list[Any]:
    """The keys of map ``after`` that map ``before`` lacks, ``after`` being ``before``
    changed: two parts of one snapshot whose history is unread compare their heads alone
    (a slip's closed game is looked for among the open round's, not 40,000 others)."""
    if (
        isinstance(after, PartedMap)
        and isinstance(before, PartedMap)
        and after._history is before._history
        and after._full is None
    ):
        return [key for key in after._head if key not in before]
    return [key for key in after if key not in before]


_UNREAD: Any = object()


class PartedRounds(dict):  # type: ignore[type-arg]
    """A snapshot's ``rounds``: every round number is a key, the older rounds' values are
    read (with the rest of the history) when first asked for. Iterating the keys (the
    current round is the greatest) reads nothing; values, items, a copy or a merge
    (``{**rounds}``, which goes through ``keys`` and ``__getitem__`` since ``__iter__`` is
    overridden) read them."""

    def __init__(self, head: dict[int, Round], history: _History) -> None:
        super().__init__(head)
        for number in history.old_rounds:
            dict.__setitem__(self, number, _UNREAD)
        self._history = history
        self._read = not history.old_rounds

    def _load(self) -> None:
        if not self._read:
            for number, rnd in self._history.rounds().items():
                dict.__setitem__(self, number, rnd)
            self._read = True

    def head(self) -> dict[int, Round]:
        """The rounds the head holds."""
        return {n: r for n, r in dict.items(self) if n not in self._history.old_rounds}

    def __getitem__(self, number: int) -> Round:
        found = dict.__getitem__(self, number)
        if found is _UNREAD:
            self._load()
            found = dict.__getitem__(self, number)
        return found  # type: ignore[no-any-return]

    def get(self, number: int, default: Any = None) -> Any:
        return self[number] if dict.__contains__(self, number) else default

    def __iter__(self) -> Iterator[int]:
        return dict.__iter__(self)

    def values(self) -> Any:
        self._load()
        return dict.values(self)

    def items(self) -> Any:
        self._load()
        return dict.items(self)

    def copy(self) -> dict[int, Round]:
        self._load()
        return dict(dict.items(self))

    def __eq__(self, other: object) -> bool:
        self._load()
        if isinstance(other, PartedRounds):
            other._load()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None

    def __repr__(self) -> str:
        self._load()
        return dict.__repr__(self)

    def __reduce__(self) -> Any:
        return (dict, (self.copy(),))


# -- encoding ---------------------------------------------------------------------------


_REPORTED = [f.name for f in msgspec.structs.fields(TableState)].index("reported")


def _table_rows(tables: Any) -> _Tables:
    rows: list[tuple[TableKey, tuple[Any, ...]]] = []
    results: list[tuple[Score | None, Placement | None]] = []
    astuple, cut = msgspec.structs.astuple, _REPORTED
    for key, table in tables.items():
        result = table.reported
        values = astuple(table)  # every field but its result, in order
        rows.append((key, values[:cut] + values[cut + 1 :]))
        results.append(
            (
                result if isinstance(result, Score) else None,
                result if isinstance(result, Placement) else None,
            )
        )
    return _Tables(rows=rows, results=results)


def _tables_map(tables: _Tables) -> immutables.Map[TableKey, TableState]:
    names = _TABLE_NAMES
    return immutables.Map(
        (
            key,
            TableState(
                **{name: getattr(row, name) for name in names},
                reported=score if score is not None else placement,
            ),
        )
        for (key, row), (score, placement) in zip(tables.rows, tables.results, strict=True)
    )


def _reusable(state: Tournament) -> _History | None:
    """The history every parted part of ``state`` still shares unread, if so: then only
    the head needs writing."""
    found: _History | None = None
    for name in _PARTED:
        value = getattr(state, name)
        if not isinstance(value, PartedMap) or value._full is not None:
            return None
        history = value._history
        if found is None:
            found = history
        elif history is not found:
            return None
    rounds = state.rounds
    if not isinstance(rounds, PartedRounds) or rounds._history is not found:
        return None
    return found


def _stored(snapshot: EventSnapshot, state: Tournament, maps: dict[str, Any]) -> dict[str, Any]:
    return {
        "version": snapshot.version,
        "last_hash": snapshot.last_hash,
        "name": snapshot.name,
        "state": msgspec.structs.replace(state, **_EMPTY),
        "maps": [list(maps[name].items()) for name in _MAP_NAMES],
        "tables": _table_rows(maps["tables"]),
        "decks": snapshot.decks,
    }


def _encode_head(snapshot: EventSnapshot, history: _History) -> bytes:
    """The head of a state whose history is ``history``, still unread."""
    state = snapshot.state
    rounds = state.rounds
    assert isinstance(rounds, PartedRounds)
    maps: dict[str, Any] = {"players": state.players}
    for name in _PARTED:
        maps[name] = getattr(state, name)._head
    head = _stored(snapshot, msgspec.structs.replace(state, rounds=rounds.head()), maps)
    head.update(
        cut=history.cut,
        history_id=history.history_id,
        old_rounds=sorted(history.old_rounds),
        old_counts=history.counts,
        old_keys=history.kept_keys,
    )
    return _ENCODER.encode(head)


def _split(
    snapshot: EventSnapshot, history_id: int
) -> tuple[bytes, bytes, dict[str, Any], dict[str, Any], dict[int, Round], dict[int, Round]]:
    """The whole state cut at its latest round: the head's bytes, the history's, and both
    parts' maps and rounds."""
    state = snapshot.state
    whole = {name: _full(getattr(state, name)) for name in ["tables", *_MAP_NAMES]}
    rounds = dict(state.rounds.items())
    cut = max(rounds, default=0)
    games = whole["games"]

    def old(name: str, key: Any, value: Any) -> bool:
        if name in _HEAD_ONLY:
            return False
        if name in _BY_KEY_ROUND:
            return bool(key[0] < cut)
        if name == "games":
            return bool(value[0] < cut)
        if name == "voided":
            where = games.get(key)
            return where is not None and where[0] < cut
        number = getattr(value, "round", None)
        return isinstance(number, int) and number < cut

    head_maps: dict[str, Any] = {}
    old_maps: dict[str, Any] = {}
    for name, full in whole.items():
        if name in _HEAD_ONLY:
            head_maps[name], old_maps[name] = full, immutables.Map()
            continue
        parts: tuple[dict[Any, Any], dict[Any, Any]] = ({}, {})
        for key, value in full.items():
            parts[old(name, key, value)][key] = value
        head_maps[name], old_maps[name] = immutables.Map(parts[0]), immutables.Map(parts[1])
    head_rounds = {n: r for n, r in rounds.items() if n >= cut}
    old_rounds = {n: r for n, r in rounds.items() if n < cut}
    head = _stored(snapshot, msgspec.structs.replace(state, rounds=head_rounds), head_maps)
    head.update(
        cut=cut,
        history_id=history_id,
        old_rounds=sorted(old_rounds),
        old_counts={name: len(old_maps[name]) for name in _PARTED},
        old_keys={name: _digests(old_maps[name].keys()) for name in _KEYED},
    )
    history = {
        "maps": [list(old_maps[name].items()) for name in _MAP_NAMES],
        "tables": _table_rows(old_maps["tables"]),
        "rounds": [old_rounds[n] for n in sorted(old_rounds)],
    }
    return (
        _ENCODER.encode(head),
        _ENCODER.encode(history),
        head_maps,
        old_maps,
        head_rounds,
        old_rounds,
    )


def _parted_state(head: _Head, history: _History) -> Tournament:
    maps = {
        "tables": _tables_map(head.tables),
        **{name: immutables.Map(getattr(head.maps, name)) for name in _MAP_NAMES},
    }
    parted: dict[str, Any] = {
        name: PartedMap(maps[name], history, name) if name in _PARTED else maps[name]
        for name in maps
    }
    return msgspec.structs.replace(
        head.state, rounds=PartedRounds(head.state.rounds, history), **parted
    )


def _decode_head(
    data: bytes,
    fetch: Callable[[], bytes | None],
    refold: Callable[[], Tournament] | None,
    standings: bytes | None,
    table: bytes | None = None,
) -> EventSnapshot:
    head = _HEAD.decode(data)
    history = _History(head, fetch, refold)
    return EventSnapshot(
        version=head.version,
        last_hash=head.last_hash,
        name=head.name,
        state=_parted_state(head, history),
        decks=head.decks,
        standings=msgspec.Raw(standings) if standings is not None else None,
        table=msgspec.Raw(table) if standings is not None and table is not None else None,
    )


def encode_snapshot(snapshot: EventSnapshot) -> bytes:
    """The whole snapshot in one buffer (head, history, standings), as ``decode_snapshot``
    reads it: for tests and tools; the table keeps the parts in columns of their own."""
    head, history, *_ = _split(snapshot, snapshot.version)
    standings = bytes(snapshot.standings) if snapshot.standings is not None else None
    table = bytes(snapshot.table) if snapshot.table is not None else None
    return _ENCODER.encode((head, history, standings, table))


def decode_snapshot(data: bytes) -> EventSnapshot:
    head, history, standings, table = _ENVELOPE.decode(data)
    return _decode_head(head, lambda: history, None, standings, table)


def encode_counts(counts: StandingsCounts) -> msgspec.Raw:
    return msgspec.Raw(_ENCODER.encode(counts))


def decode_counts(raw: msgspec.Raw) -> StandingsCounts:
    return _COUNTS.decode(raw)


def encode_table(table: list[Standing]) -> msgspec.Raw:
    return msgspec.Raw(_ENCODER.encode(table))


def decode_table(raw: msgspec.Raw) -> list[Standing]:
    return _TABLE.decode(raw)


class EventSnapshots:
    """The ``event_snapshot`` table: one snapshot per event, the newest kept, its head,
    history and standings in columns of their own (``history_id``: the version the history
    was written at, which a head-only write keeps)."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.db: ProjectionDB = projection_db(store)
        self.read_only = bool(store.read_only)
        self.table = self.db.t("event_snapshot")
        blob = self.db.blob
        self.ddl = (
            f"CREATE TABLE IF NOT EXISTS {self.table} (event_id TEXT PRIMARY KEY, version BIGINT "
            f"NOT NULL, fingerprint TEXT NOT NULL, history_id BIGINT NOT NULL, head {blob} NOT "
            f"NULL, history {blob} NOT NULL, standings {blob}, standings_table {blob})"
        )

    def load(self, event_id: str) -> EventSnapshot | None:
        """The event's snapshot folded by this code, if one is kept and its head reads
        whole (its history is read when first needed)."""
        if self.db.absent() or not FINGERPRINT:
            return None
        try:
            with self.db.reading() as cursor:
                cursor.execute(
                    self.db.sql(
                        f"SELECT fingerprint, head, standings, standings_table FROM {self.table} "
                        "WHERE event_id = ?"
                    ),
                    (event_id,),
                )
                row = cursor.fetchone()
        except Exception:  # no table yet (never saved), or a database we cannot read
            return None
        if row is None or row[0] != FINGERPRINT:
            return None
        holder: list[int] = []

        def fetch() -> bytes | None:
            with self.db.reading() as cursor:
                cursor.execute(
                    self.db.sql(
                        f"SELECT history FROM {self.table} WHERE event_id = ? AND history_id = ? "
                        "AND fingerprint = ?"
                    ),
                    (event_id, holder[0], FINGERPRINT),
                )
                found = cursor.fetchone()
            return None if found is None else bytes(found[0])

        def refold() -> Tournament:
            return _fold_upto(self.store, event_id, holder[1])

        try:
            snapshot = _decode_head(
                bytes(row[1]),
                fetch,
                refold,
                None if row[2] is None else bytes(row[2]),
                None if row[3] is None else bytes(row[3]),
            )
        except (msgspec.DecodeError, msgspec.ValidationError, NotImplementedError):
            return None
        rounds = snapshot.state.rounds
        assert isinstance(rounds, PartedRounds)
        holder[:] = [rounds._history.history_id, snapshot.version]
        return snapshot

    def save(self, event_id: str, snapshot: EventSnapshot) -> Tournament | None:
        """Keep ``snapshot`` unless one at a later version of this code is kept already (at
        the same version, one with standings replaces one without). A state whose history
        is still the kept one's, unread, rewrites the head alone; any other is cut again at
        its latest round and written whole, and the state is then handed back parted (the
        same state, its history in memory), so the next save of it writes its head alone."""
        if self.read_only or not FINGERPRINT:
            return None
        standings = bytes(snapshot.standings) if snapshot.standings is not None else None
        table = (
            bytes(snapshot.table)
            if snapshot.table is not None and snapshot.standings is not None
            else None
        )
        history = _reusable(snapshot.state)
        head = _encode_head(snapshot, history) if history is not None else None
        parted: Tournament | None = None
        with self.db.locked() as cursor:
            cursor.execute(self.ddl)
            cursor.execute(
                self.db.sql(
                    f"SELECT version, fingerprint, history_id FROM {self.table} WHERE event_id = ?"
                ),
                (event_id,),
            )
            row = cursor.fetchone()
            if row is not None and row[1] == FINGERPRINT:
                kept = int(row[0])
                if kept > snapshot.version or (kept == snapshot.version and standings is None):
                    return None
            if (
                head is not None
                and history is not None
                and row is not None
                and row[1] == FINGERPRINT
                and int(row[2]) == history.history_id
            ):
                cursor.execute(
                    self.db.sql(
                        f"UPDATE {self.table} SET version = ?, head = ?, standings = ?, "
                        "standings_table = ? WHERE event_id = ?"
                    ),
                    (snapshot.version, head, standings, table, event_id),
                )
                return None
            head, old, head_maps, old_maps, head_rounds, old_rounds = _split(
                snapshot, snapshot.version
            )
            cursor.execute(
                self.db.sql(
                    f"INSERT INTO {self.table} (event_id, version, fingerprint, history_id, head, "
                    "history, standings, standings_table) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON "
                    "CONFLICT (event_id) DO UPDATE SET version = excluded.version, fingerprint = "
                    "excluded.fingerprint, history_id = excluded.history_id, head = excluded.head, "
                    "history = excluded.history, standings = excluded.standings, "
                    "standings_table = excluded.standings_table"
                ),
                (
                    event_id,
                    snapshot.version,
                    FINGERPRINT,
                    snapshot.version,
                    head,
                    old,
                    standings,
                    table,
                ),
            )
        decoded = _HEAD.decode(head)
        kept_history = _History.of(decoded, old_maps, old_rounds)
        state = snapshot.state
        parted = msgspec.structs.replace(
            state,
            rounds=PartedRounds(head_rounds, kept_history),
            **{name: PartedMap(head_maps[name], kept_history, name) for name in _PARTED},
        )
        return parted

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


def _fold_upto(store: Any, event_id: str, version: int) -> Tournament:
    """The event's state folded from its log up to ``version`` (a history made again)."""
    from events.codec import decode
    from events.tournament import TournamentEvent, to_fact
    from referee.tournament.state import apply

    state = Tournament()
    for _, topic, data in store.rows(event_id, upto=version):
        event = decode(topic, data)
        if isinstance(event, TournamentEvent):
            state = apply(state, to_fact(event))
    return state
