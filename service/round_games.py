"""A round's new games sealed from one template of their creation's JSON.

Pairing a round creates a game a table, each opened by a ``GameCreated`` that differs from
its neighbours' only in its id, its time, its players, its drawn seeds and its table:
the rules, the variants, the defaults the setup added, the event's labels and the writer
are the round's. Encoding each whole, then copying it to seal it, was a good part of making
5,000 of them; ``RoundCreations`` encodes one sample per shape of table (how many players,
which have a player id) with placeholders in those fields (``events.codec.JsonTemplate``),
fills it for each game and seals the bytes as ``seal_after`` would, so what is stored is
byte for byte what the encoder writes. The first game sealed from each template is checked
against the encoder before the template is trusted; a game whose text the encoder would
escape (a quote in a name), one with a decklist to register, or one whose setup is not
resolved once for its number of players is made the ordinary way (``make``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

import msgspec

from events.codec import JsonTemplate, Sealed, plain_text, seal_after
from events.schema import GENESIS_HASH, GameCreated, GameEvent
from referee.contract import Player, Setup
from referee.kit.decks import Deck
from referee.tournament.model import Entrant, Pairing

__all__ = ["TEMPLATES", "RoundCreations", "sealed_facts"]

TEMPLATES = True
"""Whether a round's games are sealed from templates (a test compares both ways)."""

Known = tuple[Setup, dict[str, Any]]
"""A setup resolved once for a number of players, and the options resolving it added."""

Make = Callable[[Pairing, int, str, "dict[str, Any] | None"], list[GameEvent]]
"""The ordinary way: a game of a pairing, its number in the match, its id, its seeds."""

_ID, _TIME, _TABLE, _GAME, _PLAYERS = (
    "\x7fid\x7f",
    "\x7ftime\x7f",
    "\x7ftable\x7f",
    "\x7fgame\x7f",
    "\x7fplayers\x7f",
)
# placeholders: DEL is written as it is by the encoder and is in no real label
_EMPTY_HASH = b'"hash":""'


class _Shape:
    """A template, the event its fixed fields are taken from, and whether the encoder has
    confirmed it yet."""

    __slots__ = ("base", "checked", "template")

    def __init__(self, template: JsonTemplate | None, base: GameCreated) -> None:
        self.template = template
        self.base = base
        self.checked = False


class RoundCreations(msgspec.Struct, kw_only=True, frozen=True):
    """The creation of the new games of a round: the rules' ``game`` name and ``seats``,
    the options it draws a seed for (``seeds``, by ``draw_seed``), the labels every game
    shares (``labels``: the event, the round, the event's name), the writer ``by`` and its
    ``token``; the entrants (``players_of``), their decklists (``decks_of``), the setups
    resolved once for a number of players (``known``, filled by ``make``). (A Struct: a
    dataclass's ``__init__`` is compiled at import: 6 M instructions of the 64-player
    pairing.)"""

    game: str
    seats: tuple[str, ...]
    seeds: Sequence[str]
    labels: tuple[str, str, str]
    by: str
    token: str | None
    clock: Callable[[], datetime]
    draw_seed: Callable[[], int]
    players_of: Mapping[str, Entrant]
    decks_of: Mapping[str, Deck]
    known: Mapping[tuple[str, int], Known]
    make: Make
    shapes: dict[tuple[int, tuple[bool, ...]], _Shape] = msgspec.field(default_factory=dict)
    """A template a shape of table, made when a game of that shape is first made."""

    def streams(self, tables: Sequence[Pairing], ids: Sequence[str]) -> list[list[GameEvent]]:
        """The first game of each of ``tables``, with the id of the same place in ``ids``:
        each stream sealed (numbered 1, chained from the genesis hash)."""
        streams: list[list[GameEvent]] = []
        players_of, decks_of, known_of, make = self.players_of, self.decks_of, self.known, self.make
        game_name, seats, seeds, draw, clock = (
            self.game,
            self.seats,
            self.seeds,
            self.draw_seed,
            self.clock,
        )
        event, number, event_name = self.labels
        shapes, encode, sha256, replace = (
            self.shapes,
            msgspec.json.encode,
            hashlib.sha256,
            msgspec.structs.replace,
        )
        for pairing, game_id in zip(tables, ids, strict=True):
            taking = pairing.players
            known = known_of.get((game_name, len(taking)))
            if (
                not TEMPLATES
                or known is None
                or (decks_of and any(p in decks_of for p in taking))
                or len(taking) > len(seats)
            ):
                streams.append(make(pairing, 1, game_id, None))
                continue
            entrants = [players_of[p] for p in taking]
            names = [e.name for e in entrants]
            pids = [e.player_id or "" for e in entrants]
            taken = ",".join(taking)
            key = (len(taking), tuple(map(bool, pids)))
            shape = shapes.get(key)
            if shape is None:
                shape = shapes[key] = self._shape(key[1], known)
            template = shape.template
            if template is None or not plain_text("".join((game_id, taken, *names, *pids))):
                streams.append(make(pairing, 1, game_id, None))
                continue
            options = {key: draw() for key in seeds}  # as ``make`` draws them
            when = clock()
            table = str(pairing.table)
            fills = [game_id, encode(when).decode()]
            for name, pid in zip(names, pids, strict=True):
                fills.append(name)
                if pid:
                    fills.append(pid)
            for value in options.values():
                fills.append(str(value) if type(value) is int else encode(value).decode())
            fills += (table, "1", taken)
            parts = template.parts[:]
            parts[1::2] = fills
            body = "".join(parts).encode()
            digest = sha256(template.prefix + body).hexdigest()
            state = body.replace(_EMPTY_HASH, b'"hash":"' + digest.encode() + b'"', 1)
            meta = {"event": event, "round": number, "table": table, "game": "1", "players": taken}
            if event_name:
                meta["event_name"] = event_name
            created = replace(
                shape.base,
                originator_id=game_id,
                timestamp=when,
                hash=digest,
                players=tuple(map(Player, seats, names, pids)),
                options={**options, **known[1]},
                meta=meta,
            )
            if not shape.checked:  # the first of its shape: as the encoder writes it, or never
                if not JsonTemplate.matches(created, state):
                    shape.template = None
                    streams.append(make(pairing, 1, game_id, options))
                    continue
                shape.checked = True
            streams.append(Sealed.one(created, state))
        return streams

    def _shape(self, ids: tuple[bool, ...], known: Known) -> _Shape:
        """The template of a table of ``len(ids)`` players (``ids``: which have a player
        id), and its fixed fields."""
        resolved, added = known
        players = tuple(
            Player(seat, f"\x7fname{n}\x7f", f"\x7fid{n}\x7f" if has else "")
            for n, (seat, has) in enumerate(zip(self.seats, ids, strict=False))
        )
        seeds = {key: f"\x7fseed{n}\x7f" for n, key in enumerate(self.seeds)}
        head: dict[str, Any] = {"token_id": self.token} if self.token else {}
        event, number, event_name = self.labels
        meta = {"event": event, "round": number, "table": _TABLE, "game": _GAME}
        meta["players"] = _PLAYERS
        if event_name:
            meta["event_name"] = event_name
        sample = GameCreated(
            originator_id=_ID,
            originator_version=1,
            timestamp=_TIME,  # type: ignore[arg-type]  # a placeholder: encoded, never read
            prev_hash=GENESIS_HASH,
            **head,
            game=self.game,
            ruleset=str(resolved.ruleset),
            variants=resolved.variants,
            players=players,
            options={**seeds, **added},
            created_by=self.by,
            meta=meta,
            imported_from=None,
        )
        slots = [_ID, _TIME]
        for n, has in enumerate(ids):
            slots.append(f"\x7fname{n}\x7f")
            if has:
                slots.append(f"\x7fid{n}\x7f")
        slots += seeds.values()
        slots += (_TABLE, _GAME, _PLAYERS)
        return _Shape(JsonTemplate.of(sample, slots, raw={_TIME, *seeds.values()}), sample)


_LINK_RUN = 4
"""A run of at least this many games linked ends a write's facts: sealed from a template."""

_VERSION, _PREV, _ROUND, _LINKED_TABLE, _LINKED_GAME = (
    "\x7fversion\x7f",
    "\x7fprev\x7f",
    "\x7fround\x7f",
    "\x7ftable\x7f",
    "\x7fgame\x7f",
)


def sealed_facts(
    facts: Sequence[Any], base: dict[str, Any], version: int, prev: str
) -> list[GameEvent]:
    """``seal_after(version, prev, to_stored_all(facts, base))``: the facts as stored
    events (``base``: their common fields), numbered after ``version`` and chained after
    ``prev``, with the bytes each is sealed as (a ``Sealed``). A pairing's facts end with
    a game linked to each table (5,000 ``GameLinked``, alike but for their number, the
    previous hash, the table and the game): that run is sealed from one template of their
    JSON (``JsonTemplate``), each link's event made by one ``structs.replace`` of the
    first's, where each was made, copied to number it, encoded and copied to hash it. The
    first link so sealed is checked against the encoder before the rest are trusted (a
    mismatch, or a game id the encoder would escape, seals them the ordinary way)."""
    from events.tournament import stored_type, to_stored_all
    from referee.tournament import facts as f

    start = len(facts)
    while start and type(facts[start - 1]) is f.GameLinked:
        start -= 1
    run = facts[start:]
    if not TEMPLATES or len(run) < _LINK_RUN:
        return seal_after(version, prev, to_stored_all(facts, base))
    head = seal_after(version, prev, to_stored_all(facts[:start], base))
    assert isinstance(head, Sealed)
    states = head.states
    if head:
        prev = head[-1].hash
    version += start
    linked = _sealed_links(stored_type(f.GameLinked), run, base, version, prev)
    if linked is None:
        ordinary = seal_after(version, prev, to_stored_all(run, base))
        assert isinstance(ordinary, Sealed)
        linked = ordinary
    return Sealed([*head, *linked], [*states, *linked.states])


def _sealed_links(
    kind: Any, run: Sequence[Any], base: dict[str, Any], version: int, prev: str
) -> Sealed | None:
    """The games linked in ``run`` sealed after ``version`` and ``prev`` from one template,
    or ``None`` when it cannot be trusted with them."""
    games = [link.game for link in run]
    numbers = [link.round for link in run] + [link.table for link in run]
    if not plain_text("".join([prev, *games])) or set(map(type, numbers)) != {int}:
        return None  # text the encoder escapes, or a number that is not an int: not pasted
    sample: Any = kind(
        **{**base, "originator_version": _VERSION, "prev_hash": _PREV},
        round=_ROUND,
        table=_LINKED_TABLE,
        game=_LINKED_GAME,
    )
    slots = [_VERSION, _PREV, _ROUND, _LINKED_TABLE, _LINKED_GAME]
    template = JsonTemplate.of(sample, slots, raw={_VERSION, _ROUND, _LINKED_TABLE})
    if template is None:
        return None
    first = run[0]
    made: Any = kind(
        **{**base, "originator_version": version + 1, "prev_hash": prev},
        round=first.round,
        table=first.table,
        game=first.game,
    )
    events: list[GameEvent] = []
    states: list[bytes] = []
    pieces, prefix = template.parts, template.prefix
    sha256, replace = hashlib.sha256, msgspec.structs.replace
    number = version
    for link in run:
        number += 1
        parts = pieces[:]
        parts[1::2] = (str(number), prev, str(link.round), str(link.table), link.game)
        body = "".join(parts).encode()
        digest = sha256(prefix + body).hexdigest()
        events.append(
            replace(
                made,
                originator_version=number,
                prev_hash=prev,
                hash=digest,
                round=link.round,
                table=link.table,
                game=link.game,
            )
        )
        states.append(body.replace(_EMPTY_HASH, b'"hash":"' + digest.encode() + b'"', 1))
        prev = digest
    if not JsonTemplate.matches(events[0], states[0]):
        return None
    return Sealed(events, states)
