"""Events' folded states, kept beside the read models so a command loads an event in
what the newest facts and the open round cost, not in what the whole event holds.

An event (tournament) is its log of facts; every command folds them into a
``Tournament`` and, when it shows standings, a ``Standings`` table. At 10,000 players
in round 9 that is 100,000 facts to read, decode and fold and 45,000 results to sum on
every command. A snapshot is that fold at one version of the event's stream, so a
command reads one row and folds only the facts after it.

A snapshot is kept in two parts (issue 32): the *head* (settings, players, the rounds
from the latest one at the time it was written, their tables and games, the calls and
reports of those rounds) and the *history*, one row per earlier round (its pairings in
one column; its tables, games, voided games, calls and reports in another). A command
reads the head alone; the state's maps and its rounds are ``PartedMap``/``PartedRounds``,
which answer from the head and read and decode the history the first time something
older is asked for (the rounds' pairings alone for a pairing; the maps for a key of an
earlier round, or the whole map: the standings built afresh, a page listing every
table). So a result, ``event show`` or the standings decode what the open round holds,
whatever the number of rounds played. A save cuts the state at its latest round: while
the history is the kept one (read or not, unchanged), it writes the head and the rows of
the rounds the cut moves there (the round a pairing closes), never the earlier rows
again; a change to an earlier round writes every row.

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
PostgreSQL), like the referees' queue's snapshot; the earlier rounds in
``event_snapshot_round``, the standings and the players in rows of their own
(``event_snapshot_standings``, ``event_snapshot_players``), each labelled with the version
it was written at and named by the head, so a save writes only what changed (a pairing
rewrites neither the 4.5 MB of counts nor the 1.2 MB of players at 10,000 players).
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import importlib.util
import operator
import struct
import sys
import threading
import typing
import zlib
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import NoneType
from typing import Any

import immutables
import msgspec

from projections.db import ProjectionDB, projection_db
from referee.kit.decks import Deck
from referee.tournament.model import Entrant, Placement, Round, Score, TableKey, history_pairings
from referee.tournament.standings import (
    CountedFigures,
    MatchResult,
    PlacedCounts,
    Standing,
    StandingsCounts,
)
from referee.tournament.state import TableState, Tournament

__all__ = [
    "FINGERPRINT",
    "EventSnapshot",
    "EventSnapshots",
    "KeptKeys",
    "KeptLater",
    "PartedMap",
    "PartedRounds",
    "decode_snapshot",
    "encode_snapshot",
    "linked",
    "new_keys",
    "round_part",
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

APART_BYTES = 1 << 20
"""A save writing this many bytes of head and round rows or more has the read models' file
copy its log meanwhile (``Tables.checkpoint_apart``), not when the command closes it: a
pairing of 10,000 players writes some 2.8 MB (1,200 pages), which the close copied and
synced while the command waited."""


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
    written: dict[int, int] = {}
    """The history's rows, one per earlier round: the version of the event each was
    written at (a row written at another is not this snapshot's, and is not read)."""
    old_counts: dict[str, int] = {}
    touched: list[TableKey] = []
    moved: bool = False
    old_keys: dict[str, bytes] = {}
    """For each map cut key by key (games, voided games, calls, reports): the 64-bit digests
    of its history's keys (``_digests``), in sorted runs (``old_runs``), so a lookup of a
    key of the open round knows it is not there without the 40,000 game ids of the earlier
    rounds decoded."""
    old_runs: dict[str, list[int]] = {}
    """Where each run of ``old_keys`` ends (in digests): a save that moves a round appends
    that round's digests, sorted, as a run of their own (the 45,000 kept are not sorted and
    packed again); a map without an entry here is one run."""
    old_kinds: dict[int, str] = {}
    """Each earlier round's kind (a pairing counts the Swiss rounds without reading them)."""
    old_met: bytes = b""
    """The earlier rounds' pairing history (``_Met``): the opponents each player met and
    the byes each had, what a pairing needs of 45,000 earlier pairings. Empty when not kept
    (a snapshot written before it was): then the rounds are read."""
    standings_at: int = 0
    """The label of the kept standings row this head's standings are (``event_snapshot_
    standings``' ``written``; 0: none kept): a save whose standings are the row's bytes
    unchanged (a pairing moves none) leaves that row as it is and writes this label again,
    so the 4.5 MB of counts are not rewritten with the head."""
    players_at: int = 0
    """The label of the players row (``event_snapshot_players``' ``written``) this head's
    players are (0: they are ``players``, in the head): a save whose players are that
    row's, unchanged (a pairing or a result changes none), leaves the row as it is."""
    players: msgspec.Raw = msgspec.Raw(b"")
    """The players as encoded (a list of entrants, each the key of its own ``id``: no pair
    of key and entrant decoded 10,000 times; ``maps``' own list is then empty): a save
    of a state whose players are still the map read from here writes these bytes again,
    not 10,000 entrants encoded afresh (a pairing or a result changes none)."""


class _Met(msgspec.Struct, array_like=True):
    """``Tournament.history`` over the earlier rounds: each player's opponents, their byes."""

    met: dict[str, list[str]]
    byes: dict[str, int]


_MET = msgspec.msgpack.Decoder(_Met)


def _met_of(rounds: Iterable[Round], base: bytes, decoded: _Met | None = None) -> bytes:
    """The pairing history of ``base`` (``_Met`` bytes, or empty) and ``rounds``, walked as
    ``Tournament.history`` walks them (a playoff round's pairings do not count). Each
    player's opponents are listed once each, in the order first met. ``decoded``: ``base``
    as decoded already (the pairing just read it), left unchanged: not decoded again."""
    if decoded is not None:
        met, byes = dict(decoded.met), dict(decoded.byes)
    elif base:
        old = _MET.decode(base)
        met, byes = old.met, old.byes
    else:
        met, byes = {}, {}
    empty: list[str] = []
    for pairing in history_pairings(rounds):
        players = pairing.players
        if pairing.bye:
            byes[players[0]] = byes.get(players[0], 0) + 1
        if len(players) == 2 and players[0] != players[1]:  # a table: 5,000 a round
            first, second = players  # each side written out: no loop a table
            known = met.get(first)
            if known is None:
                met[first] = [second]
            elif second not in known:
                met[first] = [*known, second]  # a new list: ``decoded``'s stay as read
            known = met.get(second)
            if known is None:
                met[second] = [first]
            elif first not in known:
                met[second] = [*known, first]
            continue
        for player in players:
            known = met.get(player, empty)
            new = [q for q in players if q != player and q not in known]
            if new or player not in met:
                met[player] = known + new  # a new list: ``decoded``'s stay as read
    return _ENCODER.encode(_Met(met=met, byes=byes))


def _digest(key: Any) -> int:
    """A stable 64-bit digest of ``key``'s ``repr`` (a string's own bytes): its CRC-32 with
    its Adler-32 above it, both zlib's (in C: a BLAKE2b cost some 4,700 instructions a key
    under callgrind, and a pairing's save digests the 5,000 game ids of the round it closes).
    Two unrelated checksums: a million game ids gave a million digests, where CRC-32 alone
    collides about a hundred times; a collision only makes a lookup read the history, never
    a wrong answer."""
    data = key.encode() if type(key) is str else repr(key).encode()  # a game id: as it is
    return zlib.crc32(data) | zlib.adler32(data) << 32


def _digests(keys: Any) -> bytes:
    """The keys' sorted digests (``_digest``), little-endian: a collision only makes a
    lookup read the history, never a wrong answer. (32-bit CRCs alone collided often enough
    to matter: a pairing links 5,000 new game ids against 45,000 earlier ones, and one in
    twenty pairings read the whole history.)"""
    return _packed(sorted({_digest(key) for key in keys}))


def _packed(digests: list[int]) -> bytes:
    found = array("Q", digests)
    if sys.byteorder == "big":
        found.byteswap()
    return found.tobytes()


def _digest_array(data: bytes) -> array[int]:
    found = array("Q")
    found.frombytes(data)
    if sys.byteorder == "big":
        found.byteswap()
    return found


_MOST_RUNS = 32
"""Past this many sorted runs of a map's kept digests, a save merges them into one."""


def _runs(kept: list[int] | None, total: int) -> list[int]:
    """The ends of the sorted runs of ``total`` kept digests: ``kept`` where it describes
    them (rising, ending at ``total``), else one run (a snapshot kept before runs were)."""
    if kept and kept[-1] == total and all(a < b for a, b in zip([0, *kept], kept, strict=False)):
        return kept
    return [total] if total else []


def _appended(digests: bytes, runs: list[int], added: list[int]) -> tuple[bytes, list[int]]:
    """``digests`` (in sorted ``runs``) with ``added`` (sorted digests) appended as a run of
    their own: the kept ones are copied as they are, not decoded, sorted and packed again
    (45,000 at round 10); past ``_MOST_RUNS`` runs, all merged into one."""
    if len(runs) < _MOST_RUNS:
        data = digests + _packed(added)
        return data, [*runs, len(data) // 8]
    merged = sorted({*_digest_array(digests).tolist(), *added})
    return _packed(merged), [len(merged)] if merged else []


class _Part(msgspec.Struct, kw_only=True):
    """One earlier round's part of the maps (its row's ``maps`` column) as read back."""

    maps: _Maps
    tables: _Tables


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
    moved: bool = False
    """Whether facts folded after the counts were taken moved the standings: then the
    counts are those facts' starting point, and ``touched`` the tables whose results they
    may have changed (a round's slips: the reader that needs the standings moves the
    counts by them in one pass, ``standings.advanced``; the writer of 5,000 slips does not)."""
    touched: list[TableKey] = []
    standings_at: int = 0
    """When ``standings`` (and ``table``, or no table: ``moved``) are the kept standings
    row's bytes as read, that row's label (``_Head.standings_at``): a save leaves the row
    as it is. 0: written afresh, labelled with the snapshot's version."""


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
_PART = msgspec.msgpack.Decoder(_Part)
_PLAYERS = msgspec.msgpack.Decoder(list[Entrant])
_ID = operator.attrgetter("id")


def _players_map(data: bytes) -> immutables.Map[str, Entrant]:
    """The players' map from their bytes (``_players_bytes``): each entrant keyed by its
    ``id``, as the fold keys them (``PlayerRegistered``)."""
    entrants = _PLAYERS.decode(data)
    return immutables.Map(zip(map(_ID, entrants), entrants, strict=True))


def _players_bytes(players: immutables.Map[str, Entrant]) -> bytes:
    """The players' map as a snapshot keeps it: the entrants alone, their keys being their
    ids (a map keyed otherwise is no fold's: refused rather than kept wrong)."""
    entrants = list(players.values())
    if list(players.keys()) != list(map(_ID, entrants)):
        raise ValueError("a players' map not keyed by the entrants' ids")
    return _ENCODER.encode(entrants)


_ROUND = msgspec.msgpack.Decoder(Round)
_COUNTS = msgspec.msgpack.Decoder(PlacedCounts)
_FIGURED = msgspec.msgpack.Decoder(CountedFigures)
_TABLE = msgspec.msgpack.Decoder(list[Standing])
_ENVELOPE = msgspec.msgpack.Decoder(
    tuple[
        bytes,
        list[tuple[int, int, bytes, bytes]],
        bytes | None,
        bytes | None,
        tuple[int, bytes] | None,
    ]
)


# -- the history, read when first asked ---------------------------------------------------


Fetch = Callable[[str, dict[int, int]], list[bytes] | None]
"""Reads one column (``round`` or ``maps``) of the history's rows: their bytes in round
order, or ``None`` when a row is missing or is not the one written at that version."""


class _History:
    """The older part of one snapshot's state: which keys are in it (known from the head),
    and its rounds and maps, each read and decoded once, on first need, from the rows of
    the earlier rounds (``fetch``: the rounds alone for a pairing, the maps for a page of
    every table) or, failing that, ``refold`` (the whole state at the head's version,
    folded from the log)."""

    def __init__(
        self,
        *,
        cut: int,
        written: dict[int, int],
        counts: dict[str, int],
        keys: tuple[dict[str, bytes], dict[str, list[int]]],
        fetch: Fetch,
        refold: Callable[[], Tournament] | None,
        kinds: dict[int, str] | None = None,
        met: bytes = b"",
    ) -> None:
        self.cut = cut
        self.written = written
        self.old_rounds = frozenset(written)
        # the earlier rounds' kinds and pairing history, where the head keeps them whole
        known = kinds is not None and set(kinds) == self.old_rounds and (met or not written)
        self.kinds: dict[int, str] | None = kinds if known else None
        self.met = met if known else b""
        self._met: _Met | None = None
        self._walked: tuple[_Met, list[Round], dict[str, Any], dict[str, int]] | None = None
        """``Tournament.meetings`` as last worked out over ``_met`` (``keep_walk``): the
        kept history, the rounds it walked and what it made of them."""
        self.counts = counts
        digests, runs = keys  # the kept digests of each map, and the ends of their runs
        self.old_keys: dict[str, array[int]] = {
            name: _digest_array(data) for name, data in digests.items()
        }
        self.kept_keys = digests  # written again as they are by a head-only save
        self.kept_runs = {
            name: _runs(runs.get(name), len(data) // 8) for name, data in digests.items()
        }
        self._fetch = fetch
        self._refold = refold
        self._lock = threading.Lock()
        self._maps: dict[str, immutables.Map[Any, Any]] | None = None
        self._rounds: dict[int, Round] | None = None
        self._tests: dict[str, Callable[[Any], bool] | None] = {}
        self._fresh: set[Any] = set()
        self.kept_players: tuple[Any, msgspec.Raw] | None = None
        self.players_at = 0
        """The label of the players row ``kept_players``' bytes are (0: not in a row)."""
        """The players' map of a state over this history and its bytes as kept (``_Head``'s
        ``players``): written again as they are while a state's players are that map."""
        """Game ids made for this state's newest round (``known_new``): new to the store, so
        in no earlier round, and looked up without their digests."""

    @classmethod
    def of(cls, head: _Head, fetch: Fetch, refold: Callable[[], Tournament] | None) -> _History:
        return cls(
            cut=head.cut,
            written=dict(head.written),
            counts=dict(head.old_counts),
            keys=(dict(head.old_keys), dict(head.old_runs)),
            fetch=fetch,
            refold=refold,
            kinds=dict(head.old_kinds),
            met=head.old_met,
        )

    @classmethod
    def from_cut(cls, cut: _Cut, fetch: Fetch, refold: Callable[[], Tournament] | None) -> _History:
        """The history a save just wrote: its rows are those ``cut`` names."""
        return cls(
            cut=cut.cut,
            written=cut.written,
            counts=cut.counts,
            keys=(cut.keys, cut.runs),
            fetch=fetch,
            refold=refold,
            kinds=cut.kinds,
            met=cut.met,
        )

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
        if name in _FRESH_MAPS and key in self._fresh:
            return False
        wanted = _digest(key)
        start, bisect_left = 0, bisect.bisect_left
        for end in self.kept_runs[name]:
            at = bisect_left(keys, wanted, start, end)
            if at < end and keys[at] == wanted:
                return True
            start = end
        return False

    def old_test(self, name: str) -> Callable[[Any], bool] | None:
        """``is_old`` for map ``name`` as one call (``None``: no key of it is old), for a
        map or mutation that asks of every key it reads or sets (a pairing's 5,000 tables
        and games)."""
        tests = self._tests
        if name not in tests:
            tests[name] = self._old_test(name)
        return tests[name]

    def _old_test(self, name: str) -> Callable[[Any], bool] | None:
        if not self.counts.get(name):
            return None
        if name in _BY_KEY_ROUND:
            cut = self.cut

            def by_round(key: Any) -> bool:
                if not isinstance(key, tuple) or not key:
                    return False
                return isinstance(key[0], int) and key[0] < cut

            return by_round
        if name in _FRESH_MAPS:  # a new game's id answered without a call into ``is_old``
            fresh, is_old = self._fresh, self.is_old

            def by_id(key: Any) -> bool:
                return key not in fresh and is_old(name, key)

            return by_id
        return functools.partial(self.is_old, name)

    def maps(self) -> dict[str, immutables.Map[Any, Any]]:
        with self._lock:
            if self._maps is None:
                self._maps = self._read_maps()
            return self._maps

    def pairing_history(self) -> _Met | None:
        """The earlier rounds' pairing history as kept in the head (``None``: not kept)."""
        if self.kinds is None:
            return None
        with self._lock:
            if self._met is None:
                self._met = _MET.decode(self.met) if self.met else _Met(met={}, byes={})
            return self._met

    def read_met(self, met: bytes) -> _Met | None:
        """The pairing history as decoded already from ``met`` (``None``: not read)."""
        with self._lock:
            return self._met if self._met is not None and met is self.met else None

    def keep_walk(
        self, base: Any, rounds: list[Round], met: dict[str, Any], byes: dict[str, int]
    ) -> None:
        """Keep what ``Tournament.meetings`` made of the kept history ``base`` (its
        opponents' map) and the rounds it walked, for a save that moves those rounds."""
        with self._lock:
            if self._met is not None and base is self._met.met:
                self._walked = (self._met, rounds, met, byes)

    def walked_met(self, met: bytes, rounds: list[Round]) -> bytes | None:
        """The pairing history of ``met`` and ``rounds`` (``_met_of``'s) from the walk
        ``Tournament.meetings`` kept of those very rounds over that very history, or
        ``None``: none kept. Each player's opponents are then listed as the pairing saw
        them (a repeat twice), every player listed (one with none: an empty list, no bye: 0),
        as ``Tournament.history`` and ``meetings`` read them alike."""
        with self._lock:
            walked = self._walked
            if walked is None or self._met is not walked[0] or met is not self.met:
                return None
        _, seen, opponents, byes = walked
        if len(seen) != len(rounds) or {*map(id, seen)} != {*map(id, rounds)}:
            return None
        return _ENCODER.encode(_Met(met=opponents, byes=byes))  # every player, as walked

    def rounds(self) -> dict[int, Round]:
        with self._lock:
            if self._rounds is None:
                self._rounds = self._read_rounds()
            return self._rounds

    def _rows(self, column: str) -> list[bytes] | None:
        if not self.written:
            return []
        try:
            return self._fetch(column, self.written)
        except Exception:  # the history could not be read: made again from the log
            return None

    def _read_rounds(self) -> dict[int, Round]:
        rows = self._rows("pairings")
        if rows is not None:
            try:
                return {
                    number: _ROUND.decode(data)
                    for number, data in zip(sorted(self.written), rows, strict=True)
                }
            except (msgspec.DecodeError, msgspec.ValidationError, ValueError):
                pass
        return self._refolded()[1]

    def _read_maps(self) -> dict[str, immutables.Map[Any, Any]]:
        rows = self._rows("maps")
        if rows is not None:
            try:
                parts = [_PART.decode(data) for data in rows]
            except (msgspec.DecodeError, msgspec.ValidationError):
                parts = None
            if parts is not None:
                tables: dict[Any, Any] = {}
                maps: dict[str, dict[Any, Any]] = {name: {} for name in _MAP_NAMES}
                for part in parts:
                    tables.update(_tables_items(part.tables))
                    for name in _MAP_NAMES:
                        maps[name].update(getattr(part.maps, name))
                return {
                    "tables": immutables.Map(tables),
                    **{name: immutables.Map(maps[name]) for name in _MAP_NAMES},
                }
        return self._refolded()[0]

    def _refolded(self) -> tuple[dict[str, immutables.Map[Any, Any]], dict[int, Round]]:
        if self._refold is None:
            raise LookupError("an event snapshot's history is gone and cannot be made again")
        state = self._refold()
        maps = {
            name: immutables.Map(
                (k, v) for k, v in _full(getattr(state, name)).items() if self.is_old(name, k)
            )
            for name in _PARTED
        }
        rounds = {n: r for n, r in state.rounds.items() if n in self.old_rounds}
        return maps, rounds

    def advanced(
        self, cut: _Cut, fetch: Fetch, refold: Callable[[], Tournament] | None
    ) -> _History:
        """This history with the rows of the rounds ``cut`` moves (and their entries) added:
        what it had read stays read."""
        history = _History.from_cut(cut, fetch, refold)
        rounds, moved = cut.moved_rounds, cut.moved
        if self._rounds is not None:
            history._rounds = {**self._rounds, **rounds}
        if self._maps is not None:
            history._maps = {
                name: self._maps[name].update(moved.get(name, {})) for name in self._maps
            }
        return history


def _full(value: Any) -> immutables.Map[Any, Any]:
    return value.materialized() if isinstance(value, PartedMap) else value


_ABSENT: Any = object()
"""What a lookup answers for a key a map lacks (no stored value is this object)."""


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
        test = self._history.old_test(self._name)
        return test is not None and test(key)

    def _where(self, key: Any) -> immutables.Map[Any, Any]:
        if self._full is not None:
            return self._full
        test = self._history.old_test(self._name)
        return self.materialized() if test is not None and test(key) else self._head

    # A lookup tries the head first: the parts are disjoint, so a key found there is the
    # answer, in one Python call (a pairing looks up 15,000 tables and games, most of
    # them the open round's); only a key the head lacks asks whether the history holds it.

    def get(self, key: Any, default: Any = None) -> Any:
        found = self._head.get(key, _ABSENT)
        if found is not _ABSENT:
            return found
        return self._where(key).get(key, default)

    def __getitem__(self, key: Any) -> Any:
        found = self._head.get(key, _ABSENT)
        if found is not _ABSENT:
            return found
        return self._where(key)[key]

    def __contains__(self, key: Any) -> bool:
        return key in self._head or key in self._where(key)

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
        if self._old(key):
            return self.materialized().set(key, value)
        return PartedMap(self._head.set(key, value), self._history, self._name)

    def delete(self, key: Any) -> Any:
        if self._old(key):
            return self.materialized().delete(key)
        return PartedMap(self._head.delete(key), self._history, self._name)

    def update(self, *args: Any, **kwargs: Any) -> Any:
        return self.materialized().update(*args, **kwargs)

    def mutate(self) -> Any:
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
        self._old = parted._history.old_test(parted._name)

    def _on(self, key: Any) -> Any:
        if self._whole is None:
            old = self._old
            if old is None or not old(key):
                return self._mutation
            parted = self._parted
            head = self._mutation.finish()
            self._whole = parted._history.maps()[parted._name].update(head).mutate()
        return self._whole

    def __setitem__(self, key: Any, value: Any) -> None:
        if self._whole is None and (self._old is None or not self._old(key)):
            self._mutation[key] = value
            return
        self._on(key)[key] = value

    def set(self, key: Any, value: Any) -> None:
        self._on(key)[key] = value

    def __getitem__(self, key: Any) -> Any:
        if self._whole is None and (self._old is None or not self._old(key)):
            return self._mutation[key]
        return self._on(key)[key]

    def get(self, key: Any, default: Any = None) -> Any:
        if self._whole is None:  # the head's keys first, as ``PartedMap.get``
            found = self._mutation.get(key, _ABSENT)
            if found is not _ABSENT:
                return found
        return self._on(key).get(key, default)

    def __contains__(self, key: Any) -> bool:
        if self._whole is None and key in self._mutation:
            return True
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


_FRESH_MAPS = frozenset({"games", "voided"})
"""The maps keyed by game id, where a game id new to the store is in no earlier round."""


def known_new(games: Any, ids: Iterable[str]) -> None:
    """Tell the history under ``games`` (a state's ``games``) that ``ids`` are new games' ids,
    drawn for the round being paired: in no earlier round's games or voided games (a game
    stored already under one of them fails the write that creates it, and its fold is
    dropped), so folding their links asks nothing of the history's digests (a pairing's
    5,000 BLAKE2b digests, needed only when a later save moves that round). Kept by this
    history alone: a save that moves rounds makes a new one."""
    if isinstance(games, PartedMap):
        games._history._fresh.update(ids)


def round_part(tables: Any, number: int) -> Any:
    """Where a key of round ``number`` of ``tables`` (a state's tables, keyed by round) is
    looked up: the head's own map when no earlier round's part could hold it (a round at or
    after the cut: the round just paired), else ``tables`` itself. A round's 5,000 tables
    read back are then 5,000 lookups in C, not a test of each key first."""
    if (
        isinstance(tables, PartedMap)
        and tables._full is None
        and tables._name in _BY_KEY_ROUND
        and number >= tables._history.cut
    ):
        return tables._head
    return tables


def linked(state: Tournament, links: Sequence[Any]) -> Tournament | None:
    """The state after ``links`` (games linked to their tables, EV-3.8: the facts or the
    stored events carrying them, a pairing's 5,000) as ``fold`` makes it, when each links a
    table of a round the head holds, each table and game once, and no game is an earlier
    round's (the games a pairing drew, ``known_new``): the head's tables and games then
    each updated in one pass (no test of each key, no mutation's calls a link). ``None``
    when not (fold them in turn)."""
    tables, games = state.tables, state.games
    if not (
        isinstance(tables, PartedMap)
        and isinstance(games, PartedMap)
        and tables._full is None
        and games._full is None
        and games._history is tables._history
    ):
        return None
    history = tables._history
    keys = [(link.round, link.table) for link in links]
    ids = [link.game for link in links]
    if len(set(keys)) != len(keys) or len(set(ids)) != len(ids):
        return None
    if history.old_test("tables") is not None and min(keys)[0] < history.cut:
        return None
    if history.old_test("games") is not None and not history._fresh.issuperset(ids):
        return None
    head = tables._head
    try:
        current = [head[key] for key in keys]
    except KeyError:  # a table the round does not have: folded in turn, as refused there
        return None
    replace = msgspec.structs.replace
    changed = [
        replace(table, games=(*table.games, game)) for table, game in zip(current, ids, strict=True)
    ]
    return replace(
        state,
        tables=PartedMap(head.update(zip(keys, changed, strict=True)), history, "tables"),
        games=PartedMap(games._head.update(zip(ids, keys, strict=True)), history, "games"),
    )


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

    def kinds(self) -> dict[int, str]:
        """Every round's kind by number; the earlier rounds' from the head when it keeps
        them (``Tournament.round_kinds``), else read."""
        old = self._history.kinds
        if old is None or self._read:
            return {number: rnd.kind for number, rnd in self.items()}
        return {
            number: old[number] if found is _UNREAD else found.kind
            for number, found in dict.items(self)
        }

    def kept_history(self) -> tuple[dict[str, list[str]], dict[str, int], frozenset[int]] | None:
        """The earlier rounds' pairing history as the head keeps it, with their numbers
        (``Tournament.history`` walks the other rounds alone), or ``None``: not kept."""
        met = self._history.pairing_history()
        if met is None:
            return None
        return met.met, met.byes, self._history.old_rounds

    def keep_meetings(
        self, base: Any, rounds: list[Round], met: dict[str, Any], byes: dict[str, int]
    ) -> None:
        """``Tournament.meetings``' walk of ``rounds`` over ``kept_history``'s opponents
        (``base``): a save that moves those rounds into the history writes it, not walking
        them again (``_History.walked_met``)."""
        self._history.keep_walk(base, rounds, met, byes)

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

    def __or__(self, other: Any) -> Any:
        """The rounds with ``other``'s added or replaced (a round paired: ``rounds |
        {n: round}``), still parted while none of them is an earlier round."""
        if not isinstance(other, dict):
            return NotImplemented
        if any(number in self._history.old_rounds for number in other):
            return self.copy() | other
        return PartedRounds({**self.head(), **other}, self._history)

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
    astuple, cut, none = msgspec.structs.astuple, _REPORTED, (None, None)
    for key, table in tables.items():
        result = table.reported
        values = astuple(table)  # every field but its result, in order
        rows.append((key, values[:cut] + values[cut + 1 :]))
        # by its exact type first: ``isinstance`` against a Struct's class that the value
        # is not (None, the other kind) asks its metaclass, some 800 instructions a test
        # under callgrind: 11 M of a pairing's 5,000 new tables, 7 M of the 5,000 closed
        kind = type(result)
        if kind is NoneType:
            results.append(none)
            continue
        if kind is Score:
            results.append((result, None))
            continue
        if kind is Placement:
            results.append((None, result))
            continue
        results.append(
            (
                result if isinstance(result, Score) else None,
                result if isinstance(result, Placement) else None,
            )
        )
    return _Tables(rows=rows, results=results)


_TABLE_ROW_NAMES = ("round", "table", "players", "games", "game_results", "corrections")
"""``TableState``'s fields but its result, as ``_tables_items`` writes them out (while they
are these: a field added or moved takes the general path, by name)."""


def _tables_items(tables: _Tables) -> list[tuple[TableKey, TableState]]:
    rows = zip(tables.rows, tables.results, strict=True)
    if tuple(_TABLE_NAMES) == _TABLE_ROW_NAMES:
        # each table made by keywords written out: a dict of its fields and its unpacking
        # (``**``) were two thirds of a 5,000-table head's read
        return [
            (
                key,
                TableState(
                    round=row.round,
                    table=row.table,
                    players=row.players,
                    games=row.games,
                    game_results=row.game_results,
                    corrections=row.corrections,
                    reported=score if score is not None else placement,
                ),
            )
            for (key, row), (score, placement) in rows
        ]
    names = _TABLE_NAMES
    return [
        (
            key,
            TableState(
                **{name: getattr(row, name) for name in names},
                reported=score if score is not None else placement,
            ),
        )
        for (key, row), (score, placement) in rows
    ]


def _tables_map(tables: _Tables) -> immutables.Map[TableKey, TableState]:
    return immutables.Map(_tables_items(tables))


def _reusable(state: Tournament) -> _History | None:
    """The history every parted part of ``state`` still shares, read or not (a change to
    an earlier key makes a plain map), if so: then its rows stand, and a save writes the
    head and the rows of the rounds it cuts off, nothing older."""
    found: _History | None = None
    for name in _PARTED:
        value = getattr(state, name)
        if not isinstance(value, PartedMap):
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


def _of_round(name: str, current: Any, games: Any, only: int) -> dict[Any, Any]:
    """The entries of map ``name`` (``current``) of round ``only``, told as ``_split``
    tells an entry's round, in one pass."""
    if name in _BY_KEY_ROUND:
        return {k: v for k, v in current.items() if k[0] == only}
    if name == "games":
        return {k: v for k, v in current.items() if v[0] == only}
    if name == "voided":
        where = games.get
        return {k: v for k, v in current.items() if (at := where(k)) is not None and at[0] == only}
    return {
        k: v
        for k, v in current.items()
        if isinstance(round_ := getattr(v, "round", None), int) and round_ == only
    }


def _split(
    name: str, current: Any, games: Any, moving: set[int]
) -> tuple[Any, dict[Any, Any], dict[int, dict[Any, Any]]]:
    """Map ``name``'s entries (``current``) cut at the rounds ``moving``: those that stay
    in the head (a map), those that go to the history, and these by round. An entry's
    round is told by its key (a table's, and its calls' and reports' lists), its value (a
    game's table), its game's (a voided game, in ``games``) or its own (a call's, a
    report's); worked out for the whole map in one pass (a pairing's save cuts 25,000
    entries: a call each was most of the cut). A pairing's save (one round moving) takes
    that round's entries in one pass and deletes them from the map (the round just paired
    stays as it is), where two passes made two dicts and the staying one a map again."""
    if len(moving) == 1:
        (only,) = moving
        going = _of_round(name, current, games, only)
        if not going:
            return current, going, {}
        mutation = current.mutate()
        for key in going:
            del mutation[key]
        return mutation.finish(), going, {only: going}
    items = list(current.items())
    numbers: list[Any]
    if name in _BY_KEY_ROUND:
        numbers = [int(key[0]) for key, _ in items]
    elif name == "games":
        numbers = [int(value[0]) for _, value in items]
    elif name == "voided":
        where = games.get
        numbers = [None if (at := where(key)) is None else int(at[0]) for key, _ in items]
    else:
        numbers = [
            round_ if isinstance(round_ := getattr(value, "round", None), int) else None
            for _, value in items
        ]
    stay, going = dict[Any, Any](), dict[Any, Any]()
    by_round: dict[int, dict[Any, Any]] = {}
    for (key, value), number in zip(items, numbers, strict=True):
        if number is not None and number in moving:
            by_round.setdefault(number, {})[key] = value
            going[key] = value
        else:
            stay[key] = value
    return stay, going, by_round


class _Cut(msgspec.Struct, kw_only=True):
    """A snapshot cut at its latest round, ready to write: the head, the rows of the
    rounds it moves to the history (``rows``: number, pairings, maps; every row when
    ``whole``), and the parts of the state as written, to hand the state back parted."""

    head: bytes
    rows: list[tuple[int, bytes, bytes]]
    whole: bool
    base: dict[int, int] | None
    """The rows the history kept already has (their versions): they must still be the
    stored ones for the head to stand on them."""
    cut: int
    written: dict[int, int]
    counts: dict[str, int]
    keys: dict[str, bytes]
    runs: dict[str, list[int]]
    head_maps: dict[str, Any]
    head_rounds: dict[int, Round]
    moved: dict[str, dict[Any, Any]]
    moved_rounds: dict[int, Round]
    kinds: dict[int, str] | None = None
    met: bytes = b""
    players: tuple[Any, msgspec.Raw] | None = None
    """The players' map and its bytes as this head keeps them."""
    standings_at: int = 0
    """The label of the standings row the head stands on (``_Head.standings_at``)."""
    players_at: int = 0
    """The label of the players row the head stands on (0: the players are in the head)."""


def _rows_of(
    numbers: Iterable[int], rounds: dict[int, Round], parts: dict[int, dict[str, dict[Any, Any]]]
) -> list[tuple[int, bytes, bytes]]:
    rows = []
    for number in sorted(numbers):
        maps = parts.get(number, {})
        part = {
            "maps": [list(maps.get(name, {}).items()) for name in _MAP_NAMES],
            "tables": _table_rows(maps.get("tables", {})),
        }
        rows.append((number, _ENCODER.encode(rounds[number]), _ENCODER.encode(part)))
    return rows


def _cut(snapshot: EventSnapshot, history: _History | None, *, apart: bool = True) -> _Cut:
    """``snapshot`` cut at its latest round (``apart``: its players in a row of their own,
    ``_Cut.players``, else in the head). A state whose history is ``history`` (its
    rows stand) moves the rounds the head holds below the new cut into rows of their own,
    from the head alone; any other state is cut whole (every row written again)."""
    state = snapshot.state
    version = snapshot.version
    if history is not None:
        rounds = state.rounds
        assert isinstance(rounds, PartedRounds)
        kept_rounds = rounds.head()
        entries: dict[str, Any] = {"players": state.players}
        for name in _PARTED:
            entries[name] = getattr(state, name)._head
        cut = max(rounds, default=0)
    else:
        kept_rounds = dict(state.rounds.items())
        entries = {name: _full(getattr(state, name)) for name in ["tables", *_MAP_NAMES]}
        cut = max(kept_rounds, default=0)
    moving = {number for number in kept_rounds if number < cut}
    games = entries["games"]
    head_maps: dict[str, Any] = {}
    moved: dict[str, dict[Any, Any]] = {}
    parts: dict[int, dict[str, dict[Any, Any]]] = {}
    for name in ["tables", *_MAP_NAMES]:
        current = entries[name]
        if name in _HEAD_ONLY or not moving:
            head_maps[name] = current
            continue
        stay, going, by_round = _split(name, current, games, moving)
        for number, part in by_round.items():
            parts.setdefault(number, {})[name] = part
        head_maps[name] = stay if isinstance(stay, immutables.Map) else immutables.Map(stay)
        moved[name] = going
    moved_rounds = {number: kept_rounds[number] for number in moving}
    head_rounds = {n: r for n, r in kept_rounds.items() if n not in moving}
    kinds: dict[int, str] | None
    if history is None:
        kinds = {number: kept_rounds[number].kind for number in moving}
        met = _met_of((kept_rounds[number] for number in sorted(moving)), b"")
    elif not moving:
        kinds, met = history.kinds, history.met
    else:
        kinds, met = history.kinds, history.met
        if kinds is None:  # kept by code before the history was: made once from the rounds
            older = history.rounds()
            kinds = {number: rnd.kind for number, rnd in older.items()}
            met = _met_of((older[number] for number in sorted(older)), b"")
        kinds = {**kinds, **{number: kept_rounds[number].kind for number in moving}}
        closing = [kept_rounds[number] for number in sorted(moving)]
        walked = history.walked_met(met, closing)  # the pairing walked them already
        met = walked if walked is not None else _met_of(closing, met, history.read_met(met))
    if history is not None:
        written = {**history.written, **dict.fromkeys(moving, version)}
        counts = {name: history.counts.get(name, 0) + len(moved.get(name, ())) for name in _PARTED}
        keys, runs = {}, {}
        digested: list[tuple[Any, list[int]]] = []  # the keys digested in this cut, sorted
        for name in _KEYED:
            kept_keys = history.kept_keys.get(name, b"")
            kept_runs = history.kept_runs.get(name) or _runs(None, len(kept_keys) // 8)
            if moved.get(name):
                named = moved[name].keys()  # a round's games, then the same games voided
                added = next((done for seen, done in digested if seen == named), None)
                if added is None:
                    added = sorted({_digest(key) for key in named})
                    digested.append((named, added))
                keys[name], runs[name] = _appended(kept_keys, kept_runs, added)
            else:
                keys[name], runs[name] = kept_keys, kept_runs
    else:
        written = dict.fromkeys(moving, version)
        counts = {name: len(moved.get(name, ())) for name in _PARTED}
        keys = {name: _digests(moved.get(name, ())) for name in _KEYED}
        runs = {name: _runs(None, len(data) // 8) for name, data in keys.items()}
    kept_players, players_at = _players_cut(history, head_maps["players"], version)
    head = _stored(snapshot, msgspec.structs.replace(state, rounds=head_rounds), head_maps)
    if apart:  # in a row of their own
        head["players_at"] = players_at
    else:
        head["players"], players_at = kept_players[1], 0
    head.update(
        cut=cut,
        written=written,
        old_counts=counts,
        old_keys=keys,
        old_runs=runs,
        old_kinds=kinds or {},
        old_met=met if kinds is not None else b"",
        standings_at=_standings_label(snapshot),
    )
    return _Cut(
        head=_ENCODER.encode(head),
        rows=_rows_of(moving, kept_rounds, parts),
        whole=history is None,
        base=None if history is None else history.written,
        cut=cut,
        written=written,
        counts=counts,
        keys=keys,
        runs=runs,
        head_maps=head_maps,
        head_rounds=head_rounds,
        moved=moved,
        moved_rounds=moved_rounds,
        kinds=kinds,
        met=met,
        players=kept_players,
        players_at=players_at,
        standings_at=head["standings_at"],
    )


def _standings_label(snapshot: EventSnapshot) -> int:
    """The label of the standings row ``snapshot``'s head stands on (0: no standings)."""
    if snapshot.standings is None:
        return 0
    return snapshot.standings_at or snapshot.version


def _players_cut(
    history: _History | None, players: Any, version: int
) -> tuple[tuple[Any, msgspec.Raw], int]:
    """The players and their bytes as a cut keeps them, and the label of their row: the
    kept row's while they are the map read from it (its bytes not encoded again), else
    ``version`` (written afresh)."""
    kept = history.kept_players if history is not None else None
    if kept is None or kept[0] is not players:
        return (players, msgspec.Raw(_players_bytes(players))), version
    at = history.players_at if history is not None else 0
    return kept, at or version


def _stored(snapshot: EventSnapshot, state: Tournament, maps: dict[str, Any]) -> dict[str, Any]:
    return {
        "version": snapshot.version,
        "last_hash": snapshot.last_hash,
        "name": snapshot.name,
        "state": msgspec.structs.replace(state, **_EMPTY),
        "maps": [[] if name == "players" else list(maps[name].items()) for name in _MAP_NAMES],
        "tables": _table_rows(maps["tables"]),
        "decks": snapshot.decks,
        "moved": snapshot.moved,
        "touched": snapshot.touched,
    }


def _handed_back(snapshot: EventSnapshot, cut: _Cut, history: _History) -> Tournament:
    """The state of ``snapshot`` parted as ``cut`` wrote it, over ``history``."""
    return msgspec.structs.replace(
        snapshot.state,
        rounds=PartedRounds(cut.head_rounds, history),
        **{name: PartedMap(cut.head_maps[name], history, name) for name in _PARTED},
    )


def _parted_state(head: _Head, history: _History) -> Tournament:
    maps = {
        "tables": _tables_map(head.tables),
        **{name: immutables.Map(getattr(head.maps, name)) for name in _MAP_NAMES},
    }
    if head.players:
        maps["players"] = _players_map(head.players)
        history.kept_players = (maps["players"], head.players)
        history.players_at = head.players_at
    parted: dict[str, Any] = {
        name: PartedMap(maps[name], history, name) if name in _PARTED else maps[name]
        for name in maps
    }
    return msgspec.structs.replace(
        head.state, rounds=PartedRounds(head.state.rounds, history), **parted
    )


def _decode_head(
    data: bytes,
    fetch: Fetch,
    refold: Callable[[], Tournament] | None,
    standings: bytes | None,
    table: bytes | None = None,
    players: tuple[int, bytes] | None = None,
) -> EventSnapshot:
    head = _HEAD.decode(data)
    if head.players_at:  # the players are in a row of their own: ``players`` (label, bytes)
        if players is None or players[0] != head.players_at:
            raise msgspec.DecodeError("the players' row is not the head's")
        head.players = msgspec.Raw(players[1])
    history = _History.of(head, fetch, refold)
    state = _parted_state(head, history)
    return EventSnapshot(
        version=head.version,
        last_hash=head.last_hash,
        name=head.name,
        state=state,
        decks=head.decks,
        standings=msgspec.Raw(standings) if standings is not None else None,
        table=msgspec.Raw(table) if standings is not None and table is not None else None,
        moved=head.moved,
        touched=head.touched,
        standings_at=head.standings_at,
    )


def encode_snapshot(snapshot: EventSnapshot) -> bytes:
    """The whole snapshot in one buffer (head, the earlier rounds' rows, standings), as
    ``decode_snapshot`` reads it: for tests and tools; the tables keep the parts in rows
    and columns of their own."""
    cut = _cut(snapshot, None, apart=False)
    standings = bytes(snapshot.standings) if snapshot.standings is not None else None
    table = bytes(snapshot.table) if snapshot.table is not None else None
    rows = [(number, snapshot.version, pairings, maps) for number, pairings, maps in cut.rows]
    return _ENCODER.encode((cut.head, rows, standings, table, None))


def decode_snapshot(data: bytes) -> EventSnapshot:
    """A snapshot from ``encode_snapshot``'s buffer (or the tables' parts in one: the head,
    the rows, the standings and their table, the players' row, label and bytes, or none)."""
    head, rows, standings, table, players = _ENVELOPE.decode(data)

    def fetch(column: str, written: dict[int, int]) -> list[bytes] | None:
        found = {number: (at, pairings, maps) for number, at, pairings, maps in rows}
        out = []
        for number in sorted(written):
            row = found.get(number)
            if row is None or row[0] != written[number]:
                return None
            out.append(row[1] if column == "pairings" else row[2])
        return out

    return _decode_head(head, fetch, None, standings, table, players)


_COUNTS_MARK = b"\xc1"  # a byte msgpack never writes: not a value, a framed layout
_COUNTS_FRAME = struct.Struct("<5Q")


def _sections(raw: Any) -> list[memoryview]:
    """The five sections of kept counts (``encode_counts``), as views: nothing parsed."""
    view = memoryview(raw)
    if view[:1] != _COUNTS_MARK:
        raise msgspec.DecodeError("not kept standings counts")
    at = 1 + _COUNTS_FRAME.size
    out = []
    for size in _COUNTS_FRAME.unpack_from(view, 1):
        if at + size > len(view):
            raise msgspec.DecodeError("kept standings counts cut short")
        out.append(view[at : at + size])
        at += size
    return out


_RESULTS = msgspec.msgpack.Decoder(list[tuple[TableKey, MatchResult]])
_ROUNDS = msgspec.msgpack.Decoder(list[int])
_KEYS = msgspec.msgpack.Decoder(list[TableKey])


def encode_counts(counts: StandingsCounts) -> msgspec.Raw:
    """Standings counts as kept, in five sections of their own, each its own msgpack
    behind a frame of their sizes: what a ranking reads (the players, their counts, their
    opponents by place: ``PlacedCounts``), the opponents' sums and the figures
    (``CountedFigures``), the rounds their results are of, the results' keys, and the
    results (45,000 of them at 10,000 players in round 9: most of the bytes). A reader
    takes the section it needs and parses nothing else (a pairing reads the first and
    the rounds; msgpack in one piece made it skip the 3.4 MB of results and decode 40,000
    keys to learn that none was of the round its slips moved)."""
    keys = [key for key, _ in counts.results]
    parts = [
        _ENCODER.encode(PlacedCounts.of(counts)),
        _ENCODER.encode(CountedFigures(sums=counts.sums, figures=counts.figures)),
        _ENCODER.encode(sorted({number for number, _ in keys})),
        _ENCODER.encode(keys),
        _ENCODER.encode(counts.results),
    ]
    frame = _COUNTS_FRAME.pack(*(len(part) for part in parts))
    return msgspec.Raw(b"".join([_COUNTS_MARK, frame, *parts]))


def decode_counts(raw: msgspec.Raw) -> StandingsCounts:
    placed, figured, _, _, results = _sections(raw)
    return _COUNTS.decode(placed).named(_FIGURED.decode(figured), _RESULTS.decode(results))


class KeptKeys:
    """The keys of kept counts' results, read only where a question needs them."""

    def __init__(self, rounds: memoryview, keys: memoryview) -> None:
        self._rounds = frozenset(_ROUNDS.decode(rounds))
        self._keys = keys
        self._read: set[TableKey] | None = None

    def isdisjoint(self, keys: Iterable[TableKey]) -> bool:
        """Whether none of ``keys`` is a kept result's: the keys are read only when one
        of ``keys`` is of a round a kept result is of (a pairing after a round's slips
        asks of that round's tables, of which none is kept)."""
        wanted = [key for key in keys if key[0] in self._rounds]
        if not wanted:
            return True
        if self._read is None:
            self._read = set(_KEYS.decode(self._keys))
        return self._read.isdisjoint(wanted)


def decode_figures(raw: msgspec.Raw) -> tuple[PlacedCounts, KeptKeys]:
    """What a ranking reads of the kept counts (their opponents by place, as kept; no
    sums, figures or results), and the keys of their results."""
    placed, _, rounds, keys, _ = _sections(raw)
    return _COUNTS.decode(placed), KeptKeys(rounds, keys)


def encode_table(table: list[Standing]) -> msgspec.Raw:
    return msgspec.Raw(_ENCODER.encode(table))


def decode_table(raw: msgspec.Raw) -> list[Standing]:
    return _TABLE.decode(raw)


class KeptLater:
    """The standings of a snapshot read by ``EventSnapshots.load_head``, read when first
    needed (``read``): which of them are kept (``standings``, ``table``: true until read).
    Read by the snapshot's version: one replaced since (a newer one kept by another
    process) reads as none kept, and the standings are then counted from the state."""

    def __init__(self, snapshots: EventSnapshots, event_id: str, version: int, at: int = 0) -> None:
        self.snapshots = snapshots
        self.event_id = event_id
        self.version = version
        self.at = at
        """The label of the standings row the head stands on (``_Head.standings_at``)."""
        self.standings = False
        self.table = False
        self.lock = threading.Lock()
        self.given: dict[str, msgspec.Raw] = {}
        """What ``read`` answered, by column: a save of these very bytes leaves the row."""

    def read(self, column: str) -> msgspec.Raw | None:
        """``standings`` (the counts) or ``standings_table``, as kept at the version."""
        raw = self.snapshots.kept_part(self.event_id, self.version, column, self.at)
        if raw is not None:
            self.given[column] = raw
        return raw

    def label(self, standings: Any, table: Any, moved: bool) -> int:
        """The kept row's label when ``standings`` and ``table`` are the bytes read from it
        unchanged (no table: only when ``moved``, which makes a reader ignore the row's
        table), else 0 (they are written afresh)."""
        if not self.at or standings is None or standings is not self.given.get("standings"):
            return 0
        if table is None and moved:
            return self.at
        return self.at if table is not None and table is self.given.get("standings_table") else 0


class EventSnapshots:
    """The ``event_snapshot`` table (one snapshot per event, the newest kept: its head),
    ``event_snapshot_round`` (the history: one row per earlier round, its pairings and its
    part of the maps in columns of their own, and the version it was written at), and the
    standings and players in a row each (``event_snapshot_standings``,
    ``event_snapshot_players``, labelled; the head names the labels it stands on). A
    pairing writes the head and the row of the round it closes, never the earlier ones, the
    standings or the players again. (``event_snapshot``'s ``history``, ``history_id``,
    ``standings`` and ``standings_table`` are left empty: the rows took their place.)"""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.db: ProjectionDB = projection_db(store)
        self.read_only = bool(store.read_only)
        self.table = self.db.t("event_snapshot")
        self.rounds = self.db.t("event_snapshot_round")
        self.standings = self.db.t("event_snapshot_standings")
        self.players = self.db.t("event_snapshot_players")
        blob = self.db.blob
        self.ddl = (
            f"CREATE TABLE IF NOT EXISTS {self.table} (event_id TEXT PRIMARY KEY, version BIGINT "
            f"NOT NULL, fingerprint TEXT NOT NULL, history_id BIGINT NOT NULL, head {blob} NOT "
            f"NULL, history {blob} NOT NULL, standings {blob}, standings_table {blob})"
        )
        self.rounds_ddl = (
            f"CREATE TABLE IF NOT EXISTS {self.rounds} (event_id TEXT NOT NULL, number BIGINT "
            f"NOT NULL, fingerprint TEXT NOT NULL, written BIGINT NOT NULL, pairings {blob} NOT "
            f"NULL, maps {blob} NOT NULL, PRIMARY KEY (event_id, number))"
        )
        # the standings in a row of their own (``event_snapshot``'s ``standings`` and
        # ``standings_table`` are left empty): SQLite writes a whole row again when any
        # column changes, and a pairing changes the head but not the 4.5 MB of counts
        self.standings_ddl = (
            f"CREATE TABLE IF NOT EXISTS {self.standings} (event_id TEXT PRIMARY KEY, written "
            f"BIGINT NOT NULL, fingerprint TEXT NOT NULL, standings {blob} NOT NULL, "
            f"standings_table {blob})"
        )
        # and the players (1.2 MB at 10,000 players), which a pairing or a result changes not
        self.players_ddl = (
            f"CREATE TABLE IF NOT EXISTS {self.players} (event_id TEXT PRIMARY KEY, written "
            f"BIGINT NOT NULL, fingerprint TEXT NOT NULL, players {blob} NOT NULL)"
        )

    def _fetcher(self, event_id: str) -> Fetch:
        """Reads a column of the event's history rows (``_History``'s ``fetch``)."""

        def fetch(column: str, written: dict[int, int]) -> list[bytes] | None:
            assert column in ("pairings", "maps")
            with self.db.reading() as cursor:
                cursor.execute(
                    self.db.sql(
                        f"SELECT number, written, fingerprint, {column} FROM {self.rounds} "
                        "WHERE event_id = ?"
                    ),
                    (event_id,),
                )
                found = {int(row[0]): row for row in cursor.fetchall()}
            out = []
            for number in sorted(written):
                row = found.get(number)
                if row is None or int(row[1]) != written[number] or row[2] != FINGERPRINT:
                    return None
                out.append(bytes(row[3]))
            return out

        return fetch

    def _refolder(self, event_id: str, version: int) -> Callable[[], Tournament]:
        return lambda: _fold_upto(self.store, event_id, version)

    def load(self, event_id: str) -> EventSnapshot | None:
        """The event's snapshot folded by this code, if one is kept and its head reads
        whole (its history is read when first needed)."""
        found = self._load(event_id, whole=True)
        return found[0] if found is not None else None

    def load_head(self, event_id: str) -> tuple[EventSnapshot, KeptLater] | None:
        """The event's snapshot as ``load`` reads it but without its standings (left
        ``None``: 6 MB at 10,000 players, which one result or a read of the kept table
        does not need all of), and what reads them when first needed."""
        return self._load(event_id, whole=False)

    def _load(self, event_id: str, *, whole: bool) -> tuple[EventSnapshot, KeptLater] | None:
        if self.db.absent() or not FINGERPRINT:
            return None
        parts = "s.standings, s.standings_table" if whole else "1, s.standings_table IS NOT NULL"
        try:  # the head, its standings row and its players row in one query
            with self.db.reading() as cursor:
                cursor.execute(
                    self.db.sql(
                        f"SELECT h.fingerprint, h.head, h.version, s.written, s.fingerprint, "
                        f"{parts}, p.written, p.fingerprint, p.players FROM {self.table} h "
                        f"LEFT JOIN {self.standings} s ON s.event_id = h.event_id "
                        f"LEFT JOIN {self.players} p ON p.event_id = h.event_id "
                        "WHERE h.event_id = ?"
                    ),
                    (event_id,),
                )
                row = cursor.fetchone()
        except Exception:  # no tables yet (never saved), or a database we cannot read
            return None
        if row is None or row[0] != FINGERPRINT:
            return None
        kept = None if row[3] is None or row[4] != FINGERPRINT else row[3:7]
        players = None
        if row[7] is not None and row[8] == FINGERPRINT:
            players = (int(row[7]), bytes(row[9]))
        version = int(row[2])
        try:
            snapshot = _decode_head(
                bytes(row[1]),
                self._fetcher(event_id),
                self._refolder(event_id, version),
                None,
                None,
                players,
            )
        except (msgspec.DecodeError, msgspec.ValidationError, NotImplementedError):
            return None
        at = snapshot.standings_at
        if not at or kept is None or int(kept[0]) != at:
            at = 0  # none kept, or the row is not the one this head stands on
        later = KeptLater(self, event_id, version, at)
        if kept is not None and at and whole:
            snapshot.standings = msgspec.Raw(bytes(kept[2]))
            snapshot.table = None if kept[3] is None else msgspec.Raw(bytes(kept[3]))
        elif kept is not None and at:
            later.standings = True
            later.table = bool(kept[3])
        snapshot.standings_at = at if whole else 0
        return snapshot, later

    def kept_part(self, event_id: str, version: int, column: str, at: int) -> msgspec.Raw | None:
        """The standings (``standings``) or their table (``standings_table``) of the
        snapshot kept at ``version`` by this code, if it is still the one kept and its
        standings row still the one labelled ``at``."""
        assert column in ("standings", "standings_table")
        try:
            with self.db.reading() as cursor:
                cursor.execute(
                    self.db.sql(
                        f"SELECT s.{column} FROM {self.standings} s JOIN {self.table} h ON "
                        "h.event_id = s.event_id WHERE s.event_id = ? AND h.version = ? AND "
                        "h.fingerprint = ? AND s.written = ? AND s.fingerprint = ?"
                    ),
                    (event_id, version, FINGERPRINT, at, FINGERPRINT),
                )
                row = cursor.fetchone()
        except Exception:  # a database we cannot read: as if none were kept
            return None
        return None if row is None or row[0] is None else msgspec.Raw(bytes(row[0]))

    def save(self, event_id: str, snapshot: EventSnapshot) -> Tournament | None:
        """Keep ``snapshot`` unless one at a later version of this code is kept already (at
        the same version, one with standings replaces one without). The state is cut at its
        latest round: one whose history still is the kept one's (``_reusable``) writes its
        head and the rows of the rounds the cut moves (the round a pairing closes), any
        other every row. The state is then handed back parted as written (its history
        read as it was), so the next save of it writes its head alone; ``None`` when it
        stands as it is (or nothing was kept)."""
        if self.read_only or not FINGERPRINT:
            return None
        standings = bytes(snapshot.standings) if snapshot.standings is not None else None
        table = (
            bytes(snapshot.table)
            if snapshot.table is not None and snapshot.standings is not None
            else None
        )
        kept = _reusable(snapshot.state)
        cut = _cut(snapshot, kept)
        written = self._write(event_id, snapshot.version, cut, standings, table)
        if written is None and cut.base is not None:  # the kept rows are another's now
            kept, cut = None, _cut(snapshot, None)
            written = self._write(event_id, snapshot.version, cut, standings, table)
        if not written:
            return None
        if len(cut.head) + sum(len(p) + len(m) for _, p, m in cut.rows) >= APART_BYTES:
            self.db.checkpoint_apart()  # copied into the file while the command goes on
        if kept is not None and not cut.rows:
            return None  # the head alone: the state stands on the same rows
        fetch, refold = self._fetcher(event_id), self._refolder(event_id, snapshot.version)
        if kept is not None:
            history = kept.advanced(cut, fetch, refold)
        else:
            history = _History.from_cut(cut, fetch, refold)
            history._maps = {name: immutables.Map(cut.moved.get(name, {})) for name in _PARTED}
            history._rounds = cut.moved_rounds
        history.kept_players = cut.players
        history.players_at = cut.players_at
        return _handed_back(snapshot, cut, history)

    def _write(
        self, event_id: str, version: int, cut: _Cut, standings: bytes | None, table: bytes | None
    ) -> bool | None:
        """Write ``cut`` unless a later snapshot is kept (``False``); ``None`` when the rows
        it stands on are no longer the stored ones (nothing written)."""
        with self.db.locked() as cursor:
            cursor.execute(self.ddl)
            cursor.execute(self.rounds_ddl)
            cursor.execute(self.standings_ddl)
            cursor.execute(self.players_ddl)
            cursor.execute(
                self.db.sql(f"SELECT version, fingerprint FROM {self.table} WHERE event_id = ?"),
                (event_id,),
            )
            row = cursor.fetchone()
            if row is not None and row[1] == FINGERPRINT:
                kept = int(row[0])
                if kept > version or (kept == version and standings is None):
                    return False
            if cut.base is not None and cut.base:
                cursor.execute(
                    self.db.sql(
                        f"SELECT number, written, fingerprint FROM {self.rounds} WHERE event_id = ?"
                    ),
                    (event_id,),
                )
                stored = {int(r[0]): (int(r[1]), r[2]) for r in cursor.fetchall()}
                if any(stored.get(number) != (at, FINGERPRINT) for number, at in cut.base.items()):
                    return None
            if cut.whole:
                cursor.execute(
                    self.db.sql(f"DELETE FROM {self.rounds} WHERE event_id = ?"), (event_id,)
                )
            if cut.rows:
                cursor.executemany(
                    self.db.sql(
                        f"INSERT INTO {self.rounds} (event_id, number, fingerprint, written, "
                        "pairings, maps) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (event_id, number) "
                        "DO UPDATE SET fingerprint = excluded.fingerprint, written = "
                        "excluded.written, pairings = excluded.pairings, maps = excluded.maps"
                    ),
                    [
                        (event_id, number, FINGERPRINT, version, pairings, maps)
                        for number, pairings, maps in cut.rows
                    ],
                )
            cursor.execute(
                self.db.sql(
                    f"INSERT INTO {self.table} (event_id, version, fingerprint, history_id, head, "
                    "history, standings, standings_table) VALUES (?, ?, ?, 0, ?, ?, ?, ?) ON "
                    "CONFLICT (event_id) DO UPDATE SET version = excluded.version, fingerprint = "
                    "excluded.fingerprint, history_id = excluded.history_id, head = excluded.head, "
                    "history = excluded.history, standings = excluded.standings, "
                    "standings_table = excluded.standings_table"
                ),
                (event_id, version, FINGERPRINT, cut.head, b"", None, None),
            )
            if cut.players_at and cut.players is not None:
                self._write_players(cursor, event_id, cut.players_at, cut.players[1])
            if standings is None:
                cursor.execute(
                    self.db.sql(f"DELETE FROM {self.standings} WHERE event_id = ?"), (event_id,)
                )
                return True
            if cut.standings_at != version:  # the kept row's bytes: written only if gone
                cursor.execute(
                    self.db.sql(
                        f"SELECT written, fingerprint FROM {self.standings} WHERE event_id = ?"
                    ),
                    (event_id,),
                )
                found = cursor.fetchone()
                if found is not None and (int(found[0]), found[1]) == (
                    cut.standings_at,
                    FINGERPRINT,
                ):
                    return True
            cursor.execute(
                self.db.sql(
                    f"INSERT INTO {self.standings} (event_id, written, fingerprint, standings, "
                    "standings_table) VALUES (?, ?, ?, ?, ?) ON CONFLICT (event_id) DO UPDATE "
                    "SET written = excluded.written, fingerprint = excluded.fingerprint, "
                    "standings = excluded.standings, standings_table = excluded.standings_table"
                ),
                (event_id, cut.standings_at, FINGERPRINT, standings, table),
            )
        return True

    def _write_players(self, cursor: Any, event_id: str, at: int, players: msgspec.Raw) -> None:
        """The players row labelled ``at`` with ``players``, left as it is when it is."""
        cursor.execute(
            self.db.sql(f"SELECT written, fingerprint FROM {self.players} WHERE event_id = ?"),
            (event_id,),
        )
        found = cursor.fetchone()
        if found is not None and (int(found[0]), found[1]) == (at, FINGERPRINT):
            return  # the bytes read from it, unchanged: not written again
        cursor.execute(
            self.db.sql(
                f"INSERT INTO {self.players} (event_id, written, fingerprint, players) VALUES "
                "(?, ?, ?, ?) ON CONFLICT (event_id) DO UPDATE SET written = excluded.written, "
                "fingerprint = excluded.fingerprint, players = excluded.players"
            ),
            (event_id, at, FINGERPRINT, bytes(players)),  # PostgreSQL's driver takes bytes
        )

    def drop(self, event_id: str) -> None:
        """Forget the event's snapshot (one that did not match its log)."""
        if self.read_only or self.db.absent():
            return
        try:
            with self.db.locked() as cursor:
                cursor.execute(self.standings_ddl)
                cursor.execute(self.players_ddl)
                cursor.execute(
                    self.db.sql(f"DELETE FROM {self.table} WHERE event_id = ?"), (event_id,)
                )
                cursor.execute(
                    self.db.sql(f"DELETE FROM {self.players} WHERE event_id = ?"), (event_id,)
                )
                cursor.execute(
                    self.db.sql(f"DELETE FROM {self.rounds} WHERE event_id = ?"), (event_id,)
                )
                cursor.execute(
                    self.db.sql(f"DELETE FROM {self.standings} WHERE event_id = ?"), (event_id,)
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
