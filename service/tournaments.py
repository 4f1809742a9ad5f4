"""Events (tournaments) on the ledger: the application layer every face calls.

An event is a stream of its own in the store (``events.tournament``). Each method
loads the event (its facts folded by the pure core), asks ``decide`` for the new
facts (or a ``Refusal`` naming its ``EV-`` clause, which stores nothing), appends
them, and returns plain values. Pairing a round stores the round, each table's
first game and the links between them in ONE transaction.

A game of a match is an ordinary game whose ``meta`` names its event, round and
table. When it ends, its result is recorded into the match (``match_update``, stored
in the same transaction as the game's end by the write pipeline, ``service.pipeline``); if
the match is not decided yet, the next game is created and linked at once, in
the same transaction (documented choice: "when the previous game ends").

Standings are a projection kept incrementally per event in this process
(``_Loaded.standings``): each new fact touches only the tables it names.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from events.schema import GENESIS_HASH, GameCreated, GameEnded, GameEvent
from events.store import GameStore
from events.tournament import (
    EVENT_PREFIX,
    TournamentEvent,
    fold_stored,
    stored_type,
    to_fact,
    to_stored,
)
from referee import games as rulebooks
from referee.contract import Player, Setup
from referee.errors import CitedError
from referee.game.facts import game_opened
from referee.game.setup import drawn_seeds
from referee.kit.decks import Deck
from referee.tournament import decisions as d
from referee.tournament import facts as f
from referee.tournament import fixing
from referee.tournament.errors import Refusal, unpaired
from referee.tournament.model import Entrant, Pairing, Score, Settings, TableKey
from referee.tournament.playoff import next_game_order, round_words
from referee.tournament.standings import (
    MatchResult,
    Standing,
    Standings,
    StandingsCounts,
    advanced,
    explain,
    ranked,
    table_of,
)
from referee.tournament.state import Tournament, apply
from service.access import PLAYER_ID, PLAYER_ID_WORDS, new_player_id
from service.bounds import LookAlikes, check_cut, check_name, check_reason, check_rounds
from service.errors import GameNotFoundError, RefusedError
from service.pipeline import (
    Terms,
    after_commit,
    authorize_write,
    check_terms,
    commit,
    event_write,
    held,
    stage_event,
    stream_lock,
    terms,
    uncollected,
)
from service.procedure import WRITING_TOKEN, header
from service.round_games import RoundCreations

if TYPE_CHECKING:
    from projections.event_state import EventSnapshot, EventSnapshots, KeptLater
    from referee.contract import GameRules, Setup
    from referee.tournament.model import Round
    from service.ports import GameDoor

__all__ = [
    "DropRow",
    "EventInfo",
    "EventNotFoundError",
    "EventRefusedError",
    "MatchUpdate",
    "PairingRow",
    "PenaltyOutcome",
    "StandingRow",
    "Tournaments",
    "authorize_write",
    "event_write",
    "split_slip",
]


class EventNotFoundError(GameNotFoundError):
    """No event (tournament) with that id is in the store."""


class EventRefusedError(CitedError, RefusedError):
    """A tournament rule refused the command (names its ``EV-`` clause); nothing stored."""


class PairingRow(msgspec.Struct, kw_only=True):
    """One table of a round (or a bye) as postings show it: display names, game ids."""

    table: int | None
    players: list[str]
    bye: bool
    games: list[str]


class PenaltyOutcome(msgspec.Struct, kw_only=True):
    """An event penalty as given: its number (for a withdrawal), the penalty, the IPG's
    suggestion, and what it did to the match (EV-8.6)."""

    number: int
    player: str
    penalty: str
    suggested: str
    effect: str


class DropRow(msgspec.Struct, kw_only=True):
    """A drop as every face says it: the round the player leaves after, and in a playoff
    the match their drop conceded (EV-2.10; ``table`` 0 when none)."""

    player: str
    after_round: int
    line: str
    table: int = 0


def drop_row(state: Tournament, facts: Sequence[f.Fact]) -> DropRow:
    """The drop ``facts`` stored, in words: ``Cal drops after round 3``; in a playoff
    ``Cal drops in the final (round 5) and concedes the match at table 1: Ann wins 2-0``."""
    dropped = facts[0]
    assert isinstance(dropped, f.PlayerDropped)
    name = state.players[dropped.player].name
    after = dropped.after_round
    words = round_words(state, after)
    if not words.startswith("round "):
        words = f"the {words}"  # the final (round 5) (EV-6.6)
    conceded = next((x for x in facts if isinstance(x, f.MatchReported)), None)
    if conceded is None or conceded.score is None:
        when = f"after {words}" if after else "before round 1"
        return DropRow(player=name, after_round=after, line=f"{name} drops {when}")
    players = state.tables[(conceded.round, conceded.table)].players
    winner = players[1] if players[0] == dropped.player else players[0]
    score = conceded.score if players[0] == winner else conceded.score.flipped()
    line = (
        f"{name} drops in {words} and concedes the match at table "
        f"{conceded.table}: {state.players[winner].name} wins {score.text} (EV-2.10)"
    )
    return DropRow(player=name, after_round=after, line=line, table=conceded.table)


class RecordRow(msgspec.Struct, kw_only=True):
    wins: int
    losses: int
    draws: int
    byes: int


class StandingRow(msgspec.Struct, kw_only=True):
    """One line of the standings; percentages exact ``n/d``, ``None`` (JSON ``null``) for
    a player who has played no round, whose percentages are of nothing (EV-I.3: they order
    as the floor, but are not shown as figures); ``dropped_after`` if dropped."""

    rank: int
    player: str
    points: int
    record: RecordRow
    mw: str | None
    omw: str | None
    gw: str | None
    ogw: str | None
    dropped_after: int | None = None
    final_rank: int | None = None  # once the cut is made: the final order (EV-I.9)
    went: str | None = None  # a player of the cut: how far they went (EV-6.7)


class EventInfo(msgspec.Struct, kw_only=True):
    """What an event is and where it stands."""

    event_id: str
    name: str
    game: str
    format: str
    pods: bool
    match: str
    rounds: int
    cut: int
    floor: str
    players: int
    active: int
    current_round: int
    open_round: int | None
    ended: bool
    version: int
    cut_seeds: list[str]
    rounds_from: str = ""
    """Where a Swiss event's ``rounds`` come from (EV-1.3, EV-I.14): ``organiser`` (set),
    ``round 1`` (the default fixed by round 1's pairing, from its ``rounds_players``),
    ``so far`` (round 1 not paired: the default from the players it would pair now);
    empty for a pod event, an event whose round 1 was paired before the default was
    recorded, and an event that is not Swiss."""
    rounds_players: int = 0
    """The players the default is read from (``rounds_from`` ``round 1`` or ``so far``)."""
    rounds_counted: int = 0
    """Those players as the table counts them: a player with awarded byes counts 2, 4 or 8."""

    def rounds_text(self) -> str:
        """``N Swiss rounds`` and where the number comes from, as the event is shown."""
        said = f"{self.rounds} Swiss rounds"
        players = f"{self.rounds_players} player{'' if self.rounds_players == 1 else 's'}"
        if self.rounds_counted != self.rounds_players:
            players += f", counted as {self.rounds_counted} with their byes"
        if self.rounds_from == "organiser":
            return f"{said} (set by the organiser)"
        if self.rounds_from == "round 1":
            return f"{said} (from the {players} of round 1)"
        if self.rounds_from == "so far":
            return f"{said} (from the {players} so far: fixed when round 1 is paired)"
        return said


class LogLine(msgspec.Struct, kw_only=True):
    number: int
    time: datetime
    kind: str
    text: str


RACE_TRIES = 5
"""How many times an event write lost to another process is judged again (``_raced``): at a
round's end two workers race for the one event stream; one retry left a third of the lost
writes lost again (measured: 995 of 7,234 writes at 10,000 players, two workers)."""
SETTLE_WAIT = 10.0
"""Seconds a load on another thread waits for facts the server's writer folded ahead of
their held commit (``Tournaments._settled``): a batch's commit takes milliseconds."""
SAVE_BEHIND = 500
"""A command keeps a new snapshot of an event once it folded this many facts past the kept
one (or built standings the kept one lacks): the next command folds at most this many."""
SERVED_SAVE_SECONDS = 30.0
"""How often, at most, a long-running server keeps a snapshot of an event it writes
(``Tournaments.save_seconds``): a snapshot costs in the event's size (2-3 s of CPU at
10,000 players: the standings' counts and table encoded, the head written), so one every
``SAVE_BEHIND`` facts was most of a result's cost at a round's end (7,500 writes, 20
snapshots). Past ``SAVE_BEHIND * 10`` facts it keeps one anyway."""


_MOVES_STANDINGS = (
    f.PlayerRegistered,
    f.PlayerDropped,
    f.PlayerUndropped,
    f.RoundUndone,
    f.RoundPaired,
    f.PairingChanged,
    f.GameResultRecorded,
    f.MatchReported,
    f.ResultCorrected,
    f.PenaltyApplied,  # a match loss at a pod places the player last (EV-I.11)
    f.PenaltyWithdrawn,
)
"""The facts that move the standings (``_Loaded._project`` moves them by these alone)."""


class _KeptPart:
    """A part of an event's snapshot kept beside its head (``part``: the standings, or their
    table), read from the snapshot's ``column`` when first asked for while ``_Loaded._later``
    says it is kept, then held in the ``_Loaded``'s ``_raw_<part>``. Setting it replaces
    what the snapshot kept: the flag is cleared under the snapshot's lock, so a read that
    races with the set keeps the newer value."""

    def __init__(self, part: Literal["standings", "table"], column: str) -> None:
        self.part = part
        self.column = column
        self.held = f"_raw_{part}"

    def __get__(self, loaded: _Loaded, owner: type[_Loaded] | None = None) -> msgspec.Raw | None:
        later = loaded._later
        if later is not None and getattr(later, self.part):
            raw = later.read(self.column)
            with later.lock:
                if getattr(later, self.part):  # not set meanwhile
                    self._hold(loaded, later, raw)
        held: msgspec.Raw | None = getattr(loaded, self.held)
        return held

    def __set__(self, loaded: _Loaded, raw: msgspec.Raw | None) -> None:
        later = loaded._later
        if later is None:
            setattr(loaded, self.held, raw)
            return
        with later.lock:
            self._hold(loaded, later, raw)

    def _hold(self, loaded: _Loaded, later: KeptLater, raw: msgspec.Raw | None) -> None:
        setattr(loaded, self.held, raw)
        setattr(later, self.part, False)


class _Loaded:
    """An event folded up to ``version``: its state and its standings (incremental once
    built; until then, a snapshot's counts and the tables touched since)."""

    def __init__(self, event_id: str) -> None:
        self.event_id = event_id
        self.stream_id = event_id  # the stream a write is sealed after (``pipeline.Head``)
        self.version = 0
        self.last_hash = "0" * 64
        self.state = Tournament()
        self.standings: Standings | None = None
        self.decks: dict[str, Deck] = {}
        self.name = ""
        self._by_player: tuple[int, dict[str, list[tuple[int, MatchResult]]]] | None = None
        # a snapshot's standings until the incremental ones are built: the counts (decoded
        # only when read), the tables whose results the facts after them may have changed,
        # and whether any did (then the counts are moved by them in one pass when read)
        self._counts: StandingsCounts | None = None
        self._raw_standings: msgspec.Raw | None = None
        self._touched: list[TableKey] = []
        self._moved = False
        # the counts' table as shown, while no fact since has moved it
        self._raw_table: msgspec.Raw | None = None
        self._later: KeptLater | None = None
        """The snapshot's standings not read yet (``_kept_standings``, ``_kept_table``)."""
        self._counted_table: list[Standing] | None = None
        self.saved = 0
        """The version of the snapshot kept for this event (0: none)."""
        self.saved_standings = False
        """Whether that snapshot's standings are counted up to its version."""
        self.saved_at = float("-inf")
        """When this process kept the snapshot (``time.monotonic``; never: minus infinity)."""
        self.keys: dict[tuple[str, str], int] = {}
        """The idempotency keys of the writes folded here, by (token, key): the event
        that carries each. Complete from ``keys_from`` on (a snapshot holds none)."""
        self.keys_from = 0
        self._holders: tuple[Mapping[str, Any], dict[str, str]] | None = None
        self.held_by: int | None = None
        """The thread that folded facts whose commit it holds (the server's writer,
        ``pipeline.held``), until they are stored: another thread's load waits for them."""
        self.forgotten = False
        """Dropped from the service's cache (``Tournaments.forget_events``): folded past
        the store by a held commit that failed, so never cached, folded or kept again."""
        self._ahead: list[tuple[Tournament, f.Fact, Tournament]] = []
        """Facts a write applied to this state before storing them (``applied``), with the
        states before and after: folding them once stored takes those states (a round's
        pairing is applied once, not twice: 5,000 tables)."""

    def applied(self, before: Tournament, fact: f.Fact) -> Tournament:
        """``apply(before, fact)``, remembered for the fold of ``fact`` once it is stored
        after ``before`` (a write's facts, in order, starting from this fold's state)."""
        after = apply(before, fact)
        if before is (self._ahead[-1][2] if self._ahead else self.state):
            self._ahead.append((before, fact, after))
        return after

    def _folded(self, before: Tournament, fact: f.Fact) -> Tournament:
        ahead = self._ahead
        if ahead:
            try:
                known, same, after = ahead.pop(0)
            except IndexError:  # taken meanwhile by another thread's fold
                return apply(before, fact)
            if known is before and same == fact:  # apply is pure: the same state again
                return after
            ahead.clear()  # another fact came first: nothing foreseen stands
        return apply(before, fact)

    def holder(self, player_id: str, name: str) -> str | None:
        """``state.holder``, by an index of the players' house ids kept while the players
        are the same map (a result does not touch them): a player's report and its
        confirmation each looked through every player (12 ms at 10,000 players)."""
        players = self.state.players
        kept = self._holders
        if kept is None or kept[0] is not players:
            index: dict[str, str] = {}
            for entrant in players.values():
                if entrant.player_id:
                    index.setdefault(entrant.player_id, entrant.id)
            kept = self._holders = (players, index)
        found = kept[1].get(player_id) if player_id else None
        return found if found is not None else self.state.holder(player_id, name)

    @classmethod
    def from_snapshot(
        cls, event_id: str, snapshot: EventSnapshot, later: KeptLater | None = None
    ) -> _Loaded:
        """The event as ``snapshot`` keeps it; its standings, when ``later`` says they
        are kept, read from there when first needed (``EventSnapshots.load_head``)."""
        loaded = cls(event_id)
        loaded.version = loaded.saved = loaded.keys_from = snapshot.version
        loaded.last_hash = snapshot.last_hash
        loaded.state = snapshot.state
        loaded.decks = dict(snapshot.decks)
        loaded.name = snapshot.name
        loaded._raw_standings = snapshot.standings
        kept = snapshot.standings is not None or (later is not None and later.standings)
        if kept:
            loaded._moved = snapshot.moved
            loaded._touched = list(snapshot.touched)
            loaded._raw_table = None if snapshot.moved else snapshot.table
        if later is not None and (later.standings or later.table):
            later.table = later.table and not snapshot.moved
            loaded._later = later
        loaded.saved_standings = kept and not snapshot.moved
        return loaded

    # the snapshot's standings and their table, read from it when first needed (``_later``)
    _kept_standings = _KeptPart("standings", "standings")
    _kept_table = _KeptPart("table", "standings_table")

    def _keeps_standings(self) -> bool:
        """Whether counts are kept (read or not): without reading them."""
        later = self._later
        return (
            self._counts is not None
            or self._raw_standings is not None
            or (later is not None and later.standings)
        )

    def snapshot(self) -> EventSnapshot:
        """This fold as a snapshot, with the standings when they were built or kept: counted
        up to this version where they were read since, else the kept counts and the tables
        touched after them (the next reader of the standings moves them by those)."""
        from projections.event_state import EventSnapshot, encode_counts, encode_table

        standings, table = self._kept_standings, self._kept_table
        if self.standings is not None:  # moved by every fact folded (their places settled here)
            standings = encode_counts(self.standings.counts())
            table = encode_table(self.standings.table())
        elif self._counts is not None:
            if standings is None:
                standings = encode_counts(self._counts)
            if table is None and not self._moved:
                table = encode_table(self.counted_table())
        moved = self.standings is None and self._moved
        later = self._later
        return EventSnapshot(
            version=self.version,
            last_hash=self.last_hash,
            name=self.name,
            state=self.state,
            decks=self.decks,
            standings=standings,
            table=None if moved else table,
            moved=moved,
            touched=self._touched if moved else [],
            standings_at=later.label(standings, None if moved else table, moved)
            if later is not None
            else 0,
        )

    def counted(self) -> bool:
        """Whether this fold has its standings counted up to its version (built, or the
        kept counts moved by every fact since)."""
        return self.standings is not None or (self._counts is not None and not self._moved)

    def kept_table(self) -> list[Standing] | None:
        """The standings table kept with the snapshot, when no fact since has moved it (a
        clock mark, a judge call, a decklist do not): read without restoring the counts."""
        if self.standings is not None or self._moved or self._kept_table is None:
            return None
        from projections.event_state import decode_table

        return decode_table(self._kept_table)

    def kept_counts(self) -> StandingsCounts | None:
        """The snapshot's standings counts moved by every fact folded since, in one pass
        (``standings.advanced``, in what those facts touched and the players cost), or
        ``None`` when no counts were kept."""
        if self._counts is None:
            if self._kept_standings is None:
                return None
            from projections.event_state import decode_counts

            self._counts = decode_counts(self._kept_standings)
        if self._moved:
            state = self.state
            assert state.settings is not None
            changes = _match_results(state, dict.fromkeys(self._touched))
            counts = advanced(self._counts, state.settings, state.players.values(), changes)
            if counts is not self._counts:
                self._counts, self._kept_standings = counts, None
            self._touched, self._moved = [], False
            self._kept_table = self._counted_table = None  # a player dropped moves it too
        return self._counts

    def counted_table(self) -> list[Standing]:
        """The standings table now, shown from the kept counts moved to this version (no
        ``Standings`` restored) or the incremental standings."""
        if self.standings is not None:
            return self.live_standings().table()
        kept = self.kept_table()
        if kept is not None:
            return kept
        counts = self.kept_counts()
        if counts is None:
            return self.live_standings().table()
        if self._counted_table is None:
            state = self.state
            assert state.settings is not None
            self._counted_table = table_of(counts, state.settings, state.players.values())
        return self._counted_table

    def ranking(self) -> tuple[tuple[str, int], ...] | None:
        """Every player best first with their points, as the standings have them now,
        where they are built or kept (``None``: a pairing works them out)."""
        if self.standings is not None:
            return tuple(self.live_standings().ranking())
        kept = self.kept_table()
        if kept is not None:
            return tuple((s.player, s.points) for s in kept)
        raw, state = self._kept_standings, self.state
        if self._counts is None and raw is not None and self._moved and state.settings:
            from projections.event_state import decode_figures

            figures, keys = decode_figures(raw)
            touched = dict.fromkeys(self._touched)
            if keys.isdisjoint(touched):  # no earlier result changed: they need not be read
                changes = _match_results(state, touched)
                return tuple(ranked(figures, state.settings, state.players.values(), changes))
        counts = self.kept_counts()
        if counts is None:
            return None
        return tuple(zip(counts.players, (f[0] for f in counts.figures), strict=True))

    def fold_all(self, events: Sequence[GameEvent]) -> None:
        """Each of ``events`` folded in turn (``fold``), except that a run of games linked
        to their tables (a pairing's 5,000) that no write foresaw is folded in one pass
        from the stored events (``fold_stored``: the same state, without a fact, a
        ``Tournament`` and a path of two maps made per game; a snapshot's state whose head
        holds the tables has them and the games updated in one pass each, ``linked``). A
        game linked moves no
        standings, names no event and carries no deck; one with an idempotency key is
        folded alone (``fold`` keeps its key)."""
        linked = stored_type(f.GameLinked)
        count, at = len(events), 0
        while at < count:
            end = at
            if not self._ahead:  # the run's test inlined: a pairing's 5,000 links
                number = self.version + 1 - at  # the version the event at 0 would have
                while end < count:
                    event: Any = events[end]
                    key = event.idempotency_key if type(event) is linked else None
                    if (
                        key is None
                        or event.originator_version != number + end
                        or (type(key) is str and key)  # as ``TournamentEvent.key``
                    ):
                        break
                    end += 1
            if end - at < 2:
                self.fold(events[at])
                at += 1
                continue
            from projections.event_state import linked as linked_in_head

            run = events[at:end]
            folded = linked_in_head(self.state, run)  # the head's maps updated in one pass
            self.state = folded if folded is not None else fold_stored(run, self.state)
            self.version = events[end - 1].originator_version
            self.last_hash = events[end - 1].hash
            at = end

    def fold(self, event: GameEvent) -> None:
        if event.originator_version != self.version + 1:
            return  # folded already (another thread read it first), never twice
        fact = to_fact(event)
        before = self.state
        self.state = self._folded(before, fact)
        kept = self._keeps_standings()
        if kept and self.standings is None and isinstance(fact, _MOVES_STANDINGS):
            self._moved = True
            self._touched.extend(_touched_by(before, fact, self.state))
        self.version = event.originator_version
        self.last_hash = event.hash
        if isinstance(event, TournamentEvent) and event.key:
            self.keys[(event.token, event.key)] = event.originator_version
        if isinstance(fact, f.EventCreated):
            self.name = str(getattr(event, "name", ""))
        deck = getattr(event, "deck", None)
        if isinstance(fact, f.PlayerRegistered) and deck is not None:
            self.decks[fact.player.id] = deck
        elif isinstance(fact, f.DecklistAttached) and deck is not None:
            self.decks[fact.player] = deck  # attached or replaced (EV-2.8)
        if self.standings is not None and isinstance(fact, _MOVES_STANDINGS):
            # moved now, by what the fact touched: the counts and the opponents' sums (a
            # few fraction sums); the players' places wait for the next reader, who sorts
            # them once however many results came in between (``Standings._settle``), so a
            # round's end costs neither a re-sort per result nor a rebuild when read
            self._project(before, fact, self.state)

    def results_by_player(self) -> dict[str, list[tuple[int, MatchResult]]]:
        """Every finished Swiss table (byes too), numbered in the event's order, under each
        of its players, kept per version: a player's explanation reads only theirs and their
        opponents'."""
        kept = self._by_player
        if kept is not None and kept[0] == self.version:
            return kept[1]
        index: dict[str, list[tuple[int, MatchResult]]] = {}
        for number, result in enumerate(self.state.match_results().values()):
            for player in result.players:
                index.setdefault(player, []).append((number, result))
        self._by_player = (self.version, index)
        return index

    # -- the standings projection: only what a fact touches moves
    def live_standings(self) -> Standings:
        """The projection, built once when first asked (a command that never reads the
        standings never pays for them): restored from the kept counts moved to this
        version, else from the folded state; then kept by ``_project``."""
        if self.standings is None:
            state = self.state
            assert state.settings is not None
            counts = self.kept_counts()
            if counts is not None:
                self.standings = Standings.restored(state.settings, state.players.values(), counts)
            else:
                self.standings = Standings.built(
                    state.settings, state.players.values(), state.match_results()
                )
            self._counts = self._kept_standings = self._kept_table = None
            self._counted_table = None
        return self.standings

    def _project(self, before: Tournament, fact: f.Fact, state: Tournament) -> None:
        """Move the standings by what ``fact`` changed (``before`` it, ``state`` after)."""
        table = self.standings
        if table is None:
            return
        if isinstance(fact, f.PlayerRegistered):
            table.add_player(fact.player)
        elif isinstance(fact, f.PlayerDropped | f.PlayerUndropped):
            table.update_player(state.players[fact.player])
        for key in _touched_by(before, fact, state):
            self._touch(key, state)

    def _touch(self, key: TableKey, state: Tournament | None = None) -> None:
        """Set table ``key``'s result in the standings as ``state`` (default: the newest)
        has it."""
        assert self.standings is not None
        result = _match_result(state if state is not None else self.state, key)
        known = key in self.standings._results
        if result is not None:
            self.standings.record(key, result)
        elif known:
            self.standings.remove(key)


def _touched_by(before: Tournament, fact: f.Fact, after: Tournament) -> list[TableKey]:
    """The tables whose results ``fact`` may change (``before`` it, ``after`` it): a late
    entry's missed rounds (EV-2.9), a round paired, re-paired or undone (its byes too), a
    game's or a match's result. A dropped player moves nothing but their line."""
    if isinstance(fact, f.PlayerRegistered):
        player = fact.player
        if player.late_as_losses is not True:
            return []
        return [(number, -(player.order + 1)) for number in range(1, player.entry_round)]
    if isinstance(fact, f.RoundUndone):
        old = before.rounds.get(fact.round)
        return _round_keys(before, old) if old is not None else []
    if isinstance(fact, f.RoundPaired | f.PairingChanged):
        old = before.rounds.get(fact.round.number)
        gone = _round_keys(before, old) if old is not None else []
        return [*gone, *_round_keys(after, fact.round)]
    if isinstance(fact, f.GameResultRecorded):
        return [after.games[fact.game]]
    if isinstance(fact, f.MatchReported | f.ResultCorrected | f.PenaltyApplied):
        return [(fact.round, fact.table)]  # a match loss at a pod places the player last
    if isinstance(fact, f.PenaltyWithdrawn) and fact.penalty in before.applied_penalties:
        return [before.applied_penalties[fact.penalty]]  # (EV-I.11)
    return []


class MatchUpdate:
    """A match's new events for one game's end, ready to store with it: ``batches`` as
    ``GameStore.append_with`` takes them (the event's facts, then any new game), and
    ``folded`` to call with the event's sealed events once stored."""

    def __init__(
        self,
        batches: list[tuple[int, str, Sequence[GameEvent]]],
        folded: Callable[[Sequence[GameEvent]], None],
    ) -> None:
        self.batches = batches
        self.folded = folded


def _defaults_added(
    rules: GameRules[Any, Any],
    players: tuple[Player, ...],
    options: dict[str, Any],
    setup: Setup,
    draw_seed: Callable[[], int],
) -> dict[str, Any] | None:
    """The options resolving a game's setup added (the catalog's digest, the first
    seat, ...) when they can be reused for every other table of the event: resolving
    kept the players and the given options, and a second resolution with fresh seeds
    adds the same. ``None`` (resolve each game) otherwise. Resolving a Gammasphere setup
    1,024 times was a tenth of pairing a 2,048-player round."""
    from referee.contract import Setup
    from referee.game.setup import resolve_options

    if setup.players != players or any(setup.options.get(k) != v for k, v in options.items()):
        return None
    added = {k: v for k, v in setup.options.items() if k not in options}
    reseeded = resolve_options(rules, {}, draw_seed)
    again = rules.resolve_setup(Setup(players=players, options=reseeded))
    if (again.ruleset, again.variants) != (setup.ruleset, setup.variants):
        return None
    if {k: v for k, v in again.options.items() if k not in reseeded} != added:
        return None
    return added


def _round_keys(state: Tournament, rnd: Round) -> list[TableKey]:
    if rnd.kind in ("cut", "elimination"):
        return []
    keys: list[TableKey] = []
    for pairing in rnd.pairings:
        if pairing.bye:
            keys.append((rnd.number, -(state.players[pairing.players[0]].order + 1)))
        elif pairing.table is not None:
            keys.append((rnd.number, pairing.table))
    return keys


def _match_results(
    state: Tournament, keys: Iterable[TableKey]
) -> dict[TableKey, MatchResult | None]:
    """``_match_result`` of each of ``keys``: a Swiss table with a slip (a round's 5,000
    before a pairing) taken from its round and table with one lookup each."""
    out: dict[TableKey, MatchResult | None] = {}
    rounds: dict[int, Any] = {}
    tables = state.tables
    for key in keys:
        number, table = key
        rnd = rounds.get(number)
        if rnd is None:
            rnd = rounds[number] = state.rounds.get(number, False)
        current = tables.get(key) if table >= 0 and rnd and rnd.kind == "swiss" else None
        if current is not None and type(current.reported) is Score:
            out[key] = MatchResult(round=number, players=current.players, score=current.reported)
        else:
            out[key] = _match_result(state, key)
    return out


def _match_result(state: Tournament, key: TableKey) -> MatchResult | None:
    number, table = key
    rnd = state.rounds.get(number)
    if rnd is None or rnd.kind in ("cut", "elimination"):
        return None
    if table < 0:
        for bye in rnd.pairings:
            if bye.bye and state.players[bye.players[0]].order == -table - 1:
                return MatchResult(round=number, players=bye.players, bye=True)
        return state.late_losses().get(key)  # a late entry's missed round (EV-2.9)
    current = state.tables.get(key)
    if current is None:
        return None
    if isinstance(current.reported, Score):  # a slip stands as given (``Tournament.result``)
        return MatchResult(round=number, players=current.players, score=current.reported)
    result = state.result(number, table)
    if result is None:
        return None
    if isinstance(result, Score):
        return MatchResult(round=number, players=current.players, score=result)
    return MatchResult(round=number, players=current.players, placement=result)


def pairing_rows(state: Tournament, number: int) -> list[PairingRow] | None:
    """Round ``number``'s tables then byes (``None``: not paired): what `event pairings`
    shows, and what a posting computed at a past fact shows."""
    from projections.event_state import round_part

    rnd = state.rounds.get(number)
    if rnd is None:
        return None
    rows: list[PairingRow] = []
    table_of = round_part(state.tables, number).get  # the round's tables: in the head
    players = state.players
    for pairing in rnd.pairings:
        games: list[str] = []
        if pairing.table is not None:
            table = table_of((number, pairing.table))
            games = list(table.games) if table else []
        rows.append(
            PairingRow(
                table=pairing.table,
                players=[players[p].name for p in pairing.players],
                bye=pairing.bye,
                games=games,
            )
        )
    rows.sort(key=lambda r: (r.table is None, r.table or 0))
    return rows


def _row(standing: Standing) -> StandingRow:
    r = standing.record
    played = r.wins + r.losses + r.draws > 0  # a bye is among the wins (EV-4.4)
    return StandingRow(
        rank=standing.rank,
        player=standing.name,
        points=standing.points,
        record=RecordRow(wins=r.wins, losses=r.losses, draws=r.draws, byes=r.byes),
        # no round played: no percentage to show, only the floor they order by (EV-I.3)
        mw=standing.mw if played else None,
        omw=standing.omw if played else None,
        gw=standing.gw if played else None,
        ogw=standing.ogw if played else None,
        dropped_after=standing.dropped_after,
    )


def in_final_order(
    state: Tournament, table: Sequence[Standing], rows: list[StandingRow]
) -> list[StandingRow]:
    """The standings rows (``rows[i]`` is ``table[i]``'s) listed by final place once the cut
    is made (or an elimination event paired), each player of the playoff with how far they
    went (EV-6.7, EV-I.9, EV-I.13)."""
    from referee.tournament.playoff import final_places

    listed = final_places(state, (s.player for s in table))
    places = {p.player: (n, p) for n, p in enumerate(listed)}
    listing: dict[int, int] = {}  # row -> its line in final order (shared places: EV-I.13)
    for index, (standing, row) in enumerate(zip(table, rows, strict=True)):
        found = places.get(standing.player)
        if found is not None:
            listing[index] = found[0]
            row.final_rank, row.went = found[1].place, found[1].went
    order = sorted(range(len(rows)), key=lambda i: listing.get(i, -1))
    return [rows[i] for i in order]


# The audit entries that name a fact's own fields, in the order the audit lists them (the
# entries that count or compute something are written out in ``event_audit``).
_PLAIN_AUDIT: dict[type[f.Fact], tuple[str, tuple[str, ...]]] = {
    f.PlayerDropped: ("drop", ("player", "after_round", "reason")),
    f.TimeExtended: ("time extension", ("round", "table", "minutes", "reason", "by")),
    f.RoundLengthSet: ("round length", ("minutes", "reason", "by")),
}


def _refused(exc: Refusal) -> EventRefusedError:
    return EventRefusedError(exc.clause, exc.reason)


class Tournaments:
    """Event (tournament) commands and reads: the base of the event service
    (``service.event_service.EventService``), which ``RefereeService`` holds."""

    def __init__(
        self,
        store: GameStore,
        clock: Callable[[], datetime],
        draw_seed: Callable[[], int],
        game_service: GameDoor,
    ) -> None:
        self.store = store
        self.clock = clock
        self.draw_seed = draw_seed
        self.game_service = game_service  # a game's load and penalty (``ports.GameDoor``)
        self._events_cache: dict[str, _Loaded] = {}
        self._event_snapshots: EventSnapshots | None = None
        self._snapshots_looked = False  # whether the store keeps snapshots was asked
        self._events_fold_lock = threading.Lock()
        self._events_settled = threading.Condition(self._events_fold_lock)
        self._setups: dict[tuple[str, int], tuple[Setup, dict[str, Any]]] = {}
        self.save_seconds = 0.0
        """Keep an event's snapshot at most this often (``_keep``): 0 in a command, which
        saves once; ``SERVED_SAVE_SECONDS`` in a long-running server (``CachedService``)."""

    # -- loading -------------------------------------------------------------
    def _event(self, event_id: str, *, check: bool = True) -> _Loaded:
        """The event folded up to its newest stored event (only new events are read).

        Inside a write (``event_write``) that names the version its writer saw
        (``expected_version``, HTTP ``If-Match``) or an ``idempotency_key``, these are
        checked here, once, when the write first loads its event to decide on it
        (``_check_write``); a look before the decision (who the caller is, which table a
        game is at: ``check=False``) leaves them to the load under the event's lock."""
        ref = event_id.strip()
        cache = self._events_cache
        loaded = cache.get(ref)
        from events.codec import decode

        if loaded is not None and loaded.held_by not in (None, threading.get_ident()):
            loaded = self._settled(ref, loaded)
        if loaded is not None and loaded.forgotten:
            loaded = None
        if loaded is None:
            loaded = self._from_snapshot(ref)
        if loaded is not None and loaded.held_by is not None:
            # this thread's facts folded ahead of their held commit: a writer that stored
            # past them loses that commit's race, and what it stored is read then
            stored = []
        elif loaded is not None:
            stored = self.store.rows(ref, after=loaded.version)
        else:
            loaded = _Loaded(ref)
            stored = self.store.rows(ref)
        with self._events_lock:
            for _, topic, state in stored:
                event = decode(topic, state)
                if not isinstance(event, TournamentEvent):
                    raise EventNotFoundError(f"{ref} is a game, not an event")
                loaded.fold(event)
        if loaded.version == 0:
            raise EventNotFoundError(
                f"no event {ref!r} in this store ('referee event new' makes one)"
            )
        with self._events_lock:
            forgotten = loaded.forgotten
            if not forgotten:
                cache[ref] = loaded
        if forgotten:  # dropped while this read folded it: read it again
            return self._event(event_id, check=check)
        self._keep(loaded)
        running = terms()
        if check and running is not None and not running.checked:
            self._check_write(loaded, running)
        return loaded

    def _check_write(self, loaded: _Loaded, running: Terms) -> None:
        """The write's terms checked on the event as loaded (``pipeline.check_terms``)."""
        stored = functools.partial(self._stored_key, loaded, folded_only=running.key_looked)
        check_terms(loaded.event_id, loaded.version, running, stored)

    def _stored_key(self, loaded: _Loaded, key: str, *, folded_only: bool = False) -> int | None:
        """The event stored with ``key`` by this writer's token, if any: the keys folded
        since the event was loaded, then (for an event loaded from a snapshot, unless the
        write looked there already: ``folded_only``) the stored events before it, read
        only where their bytes hold the key."""
        token = WRITING_TOKEN.get()
        number = loaded.keys.get((token, key))
        if number is not None or not loaded.keys_from or folded_only:
            return number
        from events.codec import decode

        needle = b'"idempotency_key":' + msgspec.json.encode(key)
        for version, topic, state in self.store.rows(loaded.event_id, upto=loaded.keys_from):
            if needle in state:
                event = decode(topic, state)
                if isinstance(event, TournamentEvent) and event.token == token:
                    return version
        return None

    def _table_of_game_now(self, game_id: str, clause: str, elsewhere: str) -> tuple[str, int]:
        """The event and the table of its current round a game is played at, or a refusal
        under ``clause``: a game outside any event (``elsewhere`` says where to turn
        instead), not linked to a table, or of an earlier round (a table number names
        other players in each round)."""
        created = self.game_service.load(game_id).created
        event_id = created.meta.get("event", "")
        if not event_id.startswith("ev-"):
            raise EventRefusedError(
                clause, f"game {game_id} is not played at an event's table: {elsewhere}"
            )
        state = self._event(event_id, check=False).state
        key = state.games.get(game_id)
        if key is None:
            raise EventRefusedError(clause, f"game {game_id} is not linked to a table")
        if key[0] != state.current_round:
            raise EventRefusedError(
                clause, f"game {game_id} was played in round {key[0]}, not the current round"
            )
        return event_id, key[1]

    # -- snapshots: the fold kept beside the read models (projections.event_state)
    def _snapshots(self) -> EventSnapshots | None:
        """Where event snapshots are kept, or ``None`` for a store in memory."""
        if not self._snapshots_looked:
            if keeps_snapshots(self.store):
                from projections.event_state import EventSnapshots

                self._event_snapshots = EventSnapshots(self.store)
            self._snapshots_looked = True
        return self._event_snapshots

    def close_snapshots(self) -> None:
        """Close the event snapshots' database if it was opened."""
        if self._event_snapshots is not None:
            self._event_snapshots.close()

    def _from_snapshot(self, ref: str) -> _Loaded | None:
        """The event from its kept snapshot, if one is kept and the stored stream continues
        it (the event at its version has its hash); else ``None`` (fold from the start)."""
        snapshots = self._snapshots()
        found = snapshots.load_head(ref) if snapshots is not None else None
        if found is None:
            return None
        snapshot, later = found
        from events.codec import decode

        at = self.store.rows(ref, after=snapshot.version - 1, upto=snapshot.version)
        if len(at) != 1 or decode(at[0][1], at[0][2]).hash != snapshot.last_hash:
            return None
        return _Loaded.from_snapshot(ref, snapshot, later)

    def _keep(self, loaded: _Loaded) -> None:
        """Keep a new snapshot of ``loaded`` when the kept one is far behind (or lacks the
        standings this command built). Best effort: a snapshot is a cache, and a store
        that cannot be written, or a race lost to another process, costs only speed."""
        far_behind = loaded.version - loaded.saved >= SAVE_BEHIND
        # standings counted afresh are worth keeping too, once the event is no longer small
        new_standings = (
            loaded.counted() and not loaded.saved_standings and loaded.version >= SAVE_BEHIND
        )
        if not far_behind and not new_standings:
            return
        if (
            time.monotonic() - loaded.saved_at < self.save_seconds
            and loaded.version - loaded.saved < SAVE_BEHIND * 10
        ):
            return  # a server writing the event: the last snapshot is recent enough
        snapshots = self._snapshots()
        if snapshots is None or snapshots.read_only:
            return
        with self._events_lock:
            snapshot = loaded.snapshot()
        try:
            parted = snapshots.save(loaded.event_id, snapshot)
        except Exception:  # a cache that could not be written is no error
            return
        with self._events_lock:
            if parted is not None and loaded.version == snapshot.version:
                # the same state, cut as it was written: the next save writes its head alone
                loaded.state = parted
        loaded.saved = snapshot.version
        loaded.saved_at = time.monotonic()
        loaded.saved_standings = snapshot.standings is not None and not snapshot.moved

    def _header(self, stream: str) -> dict[str, Any]:
        return header(stream, self.clock())  # with the writing token's id, as a game's

    def _decide(self, state: Tournament, command: d.Command) -> tuple[f.Fact, ...]:
        try:
            return d.decide(state, command)
        except Refusal as exc:
            raise _refused(exc) from None

    def _write(self, event_id: str, command: d.Command) -> tuple[_Loaded, tuple[f.Fact, ...]]:
        """Decide ``command`` on the event as loaded now and store its facts: the event
        (folded with them) and the facts."""
        loaded = self._event(event_id)
        facts = self._decide(loaded.state, command)
        self._append(loaded, facts)
        return loaded, facts

    def _append(
        self,
        loaded: _Loaded,
        facts: Sequence[f.Fact],
        *,
        extra: Mapping[int, dict[str, Any]] | None = None,
        games: Sequence[Sequence[GameEvent]] = (),
    ) -> list[GameEvent]:
        """Store ``facts`` (and whole new game streams) through the write pipeline
        (``pipeline.stage_event``: sealed with the write's key on its first fact and the
        games they close as void; ``commit``: one transaction, then folded); the event's
        events as stored."""
        staged = stage_event(self, loaded, loaded.state, facts, extra=extra, games=games)
        if games:
            # once the new games' streams are inserted (a game id stored already fails the
            # insert, before any fold), their ids are new to the store: in no earlier round,
            # so the fold of their links asks nothing of the history's digests
            from projections.event_state import known_new

            ids = [stream[0].originator_id for stream in games if stream]
            staged.follow.insert(0, functools.partial(known_new, loaded.state.games, ids))
        commit(self.store, [staged])
        sealed: list[GameEvent] = staged.answer
        return sealed

    def event_folded(self, head: Any, sealed: Sequence[GameEvent]) -> None:
        """A write's facts as stored, folded into the cached event (``stage_event``'s
        follow-up), and a snapshot kept when the kept one is far behind."""
        loaded: _Loaded = head
        with self._events_lock:
            loaded.fold_all(sealed)
            if held():  # not stored yet: for the writer's thread alone until it is
                loaded.held_by = threading.get_ident()
        after_commit(functools.partial(self._fold_stored, loaded))

    def _fold_stored(self, loaded: _Loaded) -> None:
        """After the commit of facts folded into ``loaded``: other threads read it again,
        and a snapshot is kept (only of what the store holds)."""
        with self._events_lock:
            if loaded.held_by is not None:
                loaded.held_by = None
                self._events_settled.notify_all()
        if not loaded.forgotten:
            self._keep(loaded)

    def _settled(self, ref: str, loaded: _Loaded) -> _Loaded | None:
        """``ref``'s cached fold once the facts another thread folded into it ahead of their
        commit are stored, or dropped (a failed commit: ``None``, read it again). A fold
        held past ``SETTLE_WAIT`` seconds (a writer that died) is dropped."""
        deadline = time.monotonic() + SETTLE_WAIT
        with self._events_lock:
            while loaded.held_by is not None and not loaded.forgotten:
                left = deadline - time.monotonic()
                if left <= 0:
                    self._events_cache.pop(ref, None)
                    loaded.forgotten = True
                    break
                self._events_settled.wait(left)
        return None if loaded.forgotten else loaded

    def forget_events(self, event_ids: Iterable[str]) -> None:
        """Drop these events' folds from the cache: the server's writer folded a held
        batch's facts into them and the batch's commit failed (``service.writer``); the
        next load reads each again from its snapshot and the store."""
        with self._events_lock:
            for event_id in event_ids:
                loaded = self._events_cache.pop(event_id, None)
                if loaded is not None:
                    loaded.forgotten = True
                    loaded.held_by = None
            self._events_settled.notify_all()

    def void_closings(
        self, before: Tournament, facts: Sequence[f.Fact]
    ) -> list[tuple[int, str, Sequence[GameEvent]]]:
        """Each game ``facts`` make void that is still open in its own stream, closed there
        as void (EV-3.9): one ``GameEnded`` (how ``void``) per game, as batches for the same
        transaction, so the game refuses entries from then on whatever face writes to it."""
        reasons: dict[str, str] = {}
        # the facts' kinds, told once a kind (a pairing's 5,001 facts are two kinds: a
        # test of each fact, twice, was 16 M instructions of a 10,000-player pairing)
        kinds = set(map(type, facts))
        if not any(issubclass(kind, _VOIDS_BY_FOLD) for kind in kinds):
            # only ``GamesVoided`` makes games void here (pairing a round, slips): its games
            # are the new ones, without folding the facts again (15,000 at a large round)
            if any(issubclass(kind, f.GamesVoided) for kind in kinds):
                for fact in facts:
                    if isinstance(fact, f.GamesVoided):
                        for game in fact.games:
                            if game not in before.voided:
                                reasons.setdefault(game, fact.reason)
            newly = list(reasons)
        else:
            after = before
            for fact in facts:
                if isinstance(fact, f.GamesVoided):
                    reasons.update(dict.fromkeys(fact.games, fact.reason))
                elif isinstance(fact, f.PairingChanged):
                    why = f"round {fact.round.number} was re-paired: {fact.reason}"
                    reasons.update(dict.fromkeys(_newly_voided(after, apply(after, fact)), why))
                elif isinstance(fact, f.RoundUndone):
                    why = f"round {fact.round} was undone: {fact.reason}"
                    reasons.update(dict.fromkeys(_newly_voided(after, apply(after, fact)), why))
                after = apply(after, fact)
            newly = _newly_voided(before, after)
        batches: list[tuple[int, str, Sequence[GameEvent]]] = []
        for game in sorted(newly):
            head = self._open_head(game)
            if head is None:
                continue
            closing = GameEnded(
                **self._header(game),
                winner=None,
                how="void",
                clause="EV-3.9",
                reason=reasons.get(game, "closed as void by its event"),
            )
            batches.append((*head, [closing]))
        return batches

    def _new_event_id(self) -> str:
        """A new event's id: drawn at random, or, for a write with an idempotency key (its
        terms), made from the key and the writing token, so that a retry finds the event its
        first try created (``RepeatedWriteError``: nothing stored again)."""
        running = terms()
        key = running.idempotency_key if running is not None else None
        if not key:
            return self.store.new_event_id()
        event_id = self.store.new_event_id(seed=f"{WRITING_TOKEN.get()}\n{key}")
        if self.store.exists(event_id):
            self._event(event_id)  # the retry's check (``_check_write``) refuses it
            raise RefusedError(f"event id {event_id} is taken; send another idempotency key")
        return event_id

    def _open_head(self, game: str) -> tuple[int, str] | None:
        """The version and last hash of ``game`` if it is stored and open, else ``None``. A
        game nobody has played yet (its creation and decklists alone: what a slip closes at a
        paper event) is read without folding it (resolving its setup was a millisecond a
        game: 5,000 slips took seconds); any other is loaded."""
        from events.codec import decode
        from events.schema import DeckRegistered

        rows = self.store.rows(game)
        if not rows:
            return None
        stored = [decode(topic, data) for _, topic, data in rows]
        if all(isinstance(e, GameCreated | DeckRegistered) for e in stored):
            return stored[-1].originator_version, stored[-1].hash
        try:
            view = self.store.load(game)
        except GameNotFoundError:
            return None
        return None if view.ended is not None else (view.version, view.last_hash)

    @property
    def _events_lock(self) -> threading.Lock:
        """Folding into the cached events is one thread at a time (the server's pool)."""
        return self._events_fold_lock

    # -- commands --------------------------------------------------------------
    @event_write("run")
    def event_new(
        self,
        name: str,
        game: str,
        *,
        format: str = "swiss",
        pods: bool = False,
        rounds: int | None = None,
        match: str = "bo3",
        cut: int = 0,
        floor: str = "1/3",
        seed: int | None = None,
        deck_deadline: int | None = None,
    ) -> EventInfo:
        """Create an event; its id (``ev-...``) is in the returned info. ``seed`` is the
        seed of its random choices (round 1's draw, EV-5.6); drawn at random when omitted,
        and recorded either way. ``deck_deadline``: decklists lock once that round is paired
        (default round 1, EV-2.8)."""
        from referee import games

        try:
            rules = games.load(game)
        except LookupError as exc:
            raise EventRefusedError("EV-1.1", str(exc)) from None
        if format not in ("swiss", "elimination", "round-robin"):
            raise EventRefusedError(
                "EV-1.1", f"no format {format!r}: swiss, elimination, round-robin"
            )
        if match not in ("bo1", "bo3", "bo5"):
            raise EventRefusedError("EV-1.2", f"no match length {match!r}: bo1, bo3 or bo5")
        if floor not in ("1/3", "0.33"):
            raise EventRefusedError("EV-I.1", "the floor is 1/3 (exact) or 0.33 (printed)")
        if pods and len(rules.seats) < 3:
            raise EventRefusedError("EV-7.1", f"{rules.name} is a two-player game: no pods")
        if not pods and len(rules.seats) != 2 and (rules.min_players or 0) > 2:
            raise EventRefusedError("EV-7.1", f"{rules.name} needs pods (--pods)")
        if not name.strip():
            raise EventRefusedError("EV-1.1", "an event needs a name")
        name = check_name(name, "an event's name")
        try:
            rounds = check_rounds(rounds)
            cut = check_cut(cut)
        except RefusedError as exc:  # one line naming the clause, as every refusal
            raise EventRefusedError("EV-1.1", str(exc)) from None
        settings = msgspec.convert(
            {
                "game": rules.name,
                "format": format,
                "pods": pods,
                "rounds": rounds,
                "match": match,
                "cut": cut,
                "floor": floor,
                "seed": seed if seed is not None else self.draw_seed() % 2**32,
                **({"deck_deadline": deck_deadline} if deck_deadline is not None else {}),
            },
            Settings,
        )
        event_id = self._new_event_id()
        loaded = _Loaded(event_id)
        facts = self._decide(loaded.state, d.CreateEvent(settings=settings))
        self._append(loaded, facts, extra={0: {"name": " ".join(name.split())}})
        self._events_cache[event_id] = loaded
        return self.event_info(event_id)

    @event_write("enter")
    def event_register(
        self,
        event_id: str,
        names: Sequence[str],
        *,
        deck: Deck | None = None,
        byes: int = 0,
        rating: int | None = None,
        table: int | None = None,
        player_id: str | None = None,
        late_as_losses: bool = False,
        player_ids: Sequence[str] = (),
        allow_similar: bool = False,
        ratings: Sequence[int | None] = (),
    ) -> list[str]:
        """Register players (a late entry once round 1 is paired); their ids, in order.

        ``ratings`` (or ``rating`` for one) in the order of ``names``, ``None`` or past
        them: no rating; each a whole number from 0 to 9,999 (EV-2.11). Round 1 is seeded
        by them, highest first (EV-5.6).

        ``deck`` (open or sealed) is the event decklist every game of the player uses;
        sealed lists stay sealed. Every player is bound to an id across the house (EV-2.2):
        ``player_ids`` (or ``player_id`` for one), in the order of ``names``, else a new
        one each, so their own tokens act for their seats and find their page. A name is
        display only, one line of printable text; one that looks like another of the event
        (case, Unicode confusables) is refused unless ``allow_similar``. All or none of
        the names are registered."""
        loaded = self._event(event_id)
        if not names:
            raise EventRefusedError("EV-2.2", "name at least one player (--player NAME)")
        if deck is not None and len(names) != 1:
            raise EventRefusedError("EV-2.2", "a decklist is registered for one player at a time")
        given = list(player_ids) if player_id is None else [player_id, *player_ids]
        if len(given) > len(names):
            raise EventRefusedError(
                "EV-2.2", f"{len(given)} player ids for {len(names)} players: one id a player"
            )
        ids: list[str] = []
        for wanted in given:
            wanted = wanted.strip()
            if not PLAYER_ID.fullmatch(wanted):
                raise EventRefusedError("EV-2.2", f"{PLAYER_ID_WORDS}, not {wanted!r}")
            if wanted in ids:
                raise EventRefusedError("EV-2.2", f"player id {wanted!r} is given twice")
            ids.append(wanted)
        ids += [new_player_id() for _ in names[len(ids) :]]
        rated = list(ratings) if rating is None else [rating, *ratings]
        if len(rated) > len(names):
            raise EventRefusedError(
                "EV-2.11",
                f"{len(rated)} rating{'' if len(rated) == 1 else 's'} for {len(names)} "
                f"player{'' if len(names) == 1 else 's'}: one rating a player",
            )
        rated += [None] * (len(names) - len(rated))
        cleaned: list[str] = []
        for name in names:
            try:
                cleaned.append(check_name(name, "a player's name"))
            except RefusedError as exc:
                raise EventRefusedError("EV-2.2", str(exc)) from None
        if not allow_similar:
            self._check_similar(loaded.state, cleaned)
        if deck is not None:
            self._check_event_deck(loaded, deck)
        each = [
            d.Register(
                name=name,
                byes=byes,
                rating=rated_one,
                table=table,
                player_id=house_id,
                late_as_losses=late_as_losses,
                allow_similar=allow_similar,
            )
            for name, house_id, rated_one in zip(cleaned, ids, rated, strict=True)
        ]
        facts = list(self._decide(loaded.state, d.RegisterMany(players=tuple(each))))
        extra = {0: {"deck": deck}} if deck is not None else None
        self._append(loaded, facts, extra=extra)
        return [fact.player.id for fact in facts if isinstance(fact, f.PlayerRegistered)]

    @staticmethod
    def _check_similar(state: Tournament, names: Sequence[str]) -> None:
        """Refuse (EV-2.2) a name that looks like another registered, or given, in this
        event: the same letters in another case, or Unicode confusables ("Аnn", a
        Cyrillic A): two such players are told apart by nobody reading a posting."""
        known = {e.id: e.name for e in state.players.values()}
        alike = LookAlikes(known)
        for number, name in enumerate(names):
            clash = alike.similar_to(name)
            if clash is not None:
                other = known[clash]
                # a name given earlier in the same registration is not in the event yet
                where = (
                    f"{other!r}, given earlier in this registration"
                    if clash.startswith("#")
                    else f"{other!r} ({clash}), already in this event"
                )
                how = (
                    "the same name"
                    if other == name
                    else "the same letters in another case, or look-alike letters from another "
                    "script"
                )
                raise EventRefusedError(
                    "EV-2.2",
                    f"{name!r} looks like {where} ({how}); give another name, or allow "
                    "similar names (--allow-similar)",
                )
            known[f"#{number}"] = name
            alike.add(f"#{number}", name)

    def _check_event_deck(self, loaded: _Loaded, deck: Deck) -> None:
        from referee import games
        from referee.capabilities import decks_of
        from referee.contract import Setup
        from referee.game.setup import resolve_options

        settings = loaded.state.settings
        assert settings is not None
        rules = games.load(settings.game)
        if decks_of(rules) is None:
            raise EventRefusedError("EV-2.8", f"{rules.name} is not played with decklists")
        seats = rules.seats[: max(2, rules.min_players or 2)]
        setup = rules.resolve_setup(
            Setup(
                players=tuple(Player(s, f"player {i}") for i, s in enumerate(seats)),
                options=resolve_options(rules, {}, lambda: 0),
            )
        )
        from service.decide import check_deck  # the referee's decisions: loaded when used

        try:
            check_deck(rules, setup, seats[0], deck)
        except RefusedError as exc:
            # EV-2.8 says a list must be legal for the game (EV-2.2 is names: not this)
            raise EventRefusedError("EV-2.8", f"the event decklist is refused: {exc}") from None
        size = setup.options.get("deck_size")
        if isinstance(size, int) and deck.size != size:  # the games' deck size (EV-2.8)
            raise EventRefusedError(
                "EV-2.8",
                f"the event's games are played with decks of {size} cards ({rules.name}'s "
                f"deck size); this list has {deck.size}",
            )

    @event_write("enter")
    def event_drop(self, event_id: str, player: str, *, reason: str = "") -> DropRow:
        """Drop a player after the current round (EV-2.5, EV-2.6); in a playoff the drop
        concedes their match (EV-2.10). The round they leave after, and the line saying so."""
        reason = check_reason(reason)
        loaded, facts = self._write(event_id, d.Drop(player=player, reason=reason))
        return drop_row(loaded.state, facts)

    @event_write("run")
    def event_pair(
        self, event_id: str, *, manual: dict[str, Any] | None = None, reason: str = "", by: str = ""
    ) -> list[PairingRow]:
        """Pair the next round (or by hand, ``manual``), create each table's first game
        and link it, all in one transaction; the round's pairings. (No cyclic collection
        meanwhile: ``pipeline.uncollected``, a tenth of the pairing at 10,000 players.)"""
        with uncollected():
            return self._pair(event_id, manual, reason, by)

    def _pair(
        self, event_id: str, manual: dict[str, Any] | None, reason: str, by: str
    ) -> list[PairingRow]:
        reason = check_reason(reason)
        if manual is None and reason:  # not kept anywhere: a reason given in vain is refused
            raise EventRefusedError(
                "EV-5.11",
                "a reason goes with a pairing by hand (--manual); the engine's pairing needs "
                "none and would not keep it",
            )
        loaded = self._event(event_id)
        # EV-5.11: a manual pairing's reason is required, never filled in
        command: d.Command = (
            d.PairManual(spec=manual, reason=reason, by=by)
            if manual is not None
            else d.PairNext(ranking=loaded.ranking())  # the kept standings, not summed again
        )
        facts = list(self._decide(loaded.state, command))
        state = loaded.state
        for fact in facts:
            state = loaded.applied(state, fact)  # folded once stored: not applied again
        waiting = fixing.pending_at_pairing(state)  # match losses given between rounds (EV-8.6)
        for fact in waiting:
            state = loaded.applied(state, fact)
        decided = {x.table for x in waiting if isinstance(x, f.MatchReported)}
        rnd = state.rounds[state.current_round]
        links, streams = self._first_games(loaded, state, rnd, by, skip=decided)
        self._append(loaded, [*facts, *waiting, *links], games=streams)
        self._pending_game_losses(loaded, by)
        return self.event_pairings(event_id)

    def _pending_game_losses(self, loaded: _Loaded, by: str) -> None:
        """Game losses given between matches end the player's first game of the round
        just paired (EV-8.6, IPG 1.2), each marked applied once its game has ended."""
        for number, penalty in fixing.pending_penalties(loaded.state):
            table = fixing.current_table(loaded.state, penalty.player)
            if penalty.penalty != "game-loss" or table is None:
                continue
            games = fixing.open_games(loaded.state, table)
            if not games:
                continue
            self._game_loss(penalty, number, games[-1], by)
            applied = f.PenaltyApplied(
                penalty=number, round=table.round, table=table.table, game=games[-1]
            )
            self._append(self._event(loaded.event_id), [applied])

    @event_write("run")
    def event_repair(
        self, event_id: str, manual: dict[str, Any] | None, *, reason: str, by: str = ""
    ) -> list[PairingRow]:
        """The head judge replaces the latest round's pairings (EV-5.12): by hand before
        any result (``manual``), or with the engine (``None``), keeping every table that
        has a result. New games are created for the tables that changed; the replaced
        tables' games are closed as void (EV-3.9)."""
        reason = check_reason(reason)
        loaded = self._event(event_id)
        command: d.Command = (
            d.ChangePairing(spec=manual, reason=reason, by=by)
            if manual is not None
            else fixing.RePair(reason=reason, by=by)
        )
        facts = list(self._decide(loaded.state, command))
        state = loaded.state
        for fact in facts:
            state = apply(state, fact)
        rnd = state.rounds[state.current_round]
        kept = {k[1] for k, t in state.tables.items() if k[0] == rnd.number and t.games}
        links, streams = self._first_games(loaded, state, rnd, by, skip=kept)
        self._append(loaded, [*facts, *links], games=streams)
        return self.event_pairings(event_id)

    def _first_games(
        self,
        loaded: _Loaded,
        state: Tournament,
        rnd: Round,
        by: str,
        skip: frozenset[int] | set[int] = frozenset(),
    ) -> tuple[list[f.Fact], list[list[GameEvent]]]:
        links: list[f.Fact] = []
        tables: list[tuple[int, Pairing]] = []
        for pairing in rnd.pairings:
            if not pairing.bye and pairing.table is not None and pairing.table not in skip:
                tables.append((pairing.table, pairing))
        settings = state.settings
        assert settings is not None
        # the ids drawn together: one read of the random source, not one a game
        ids = self.store.new_game_ids(rulebooks.load(settings.game).name, len(tables))
        rules = rulebooks.load(settings.game)
        creations = RoundCreations(
            game=rules.name,
            seats=tuple(rules.seats),
            seeds=drawn_seeds(rules),
            labels=(loaded.event_id, str(rnd.number), loaded.name),
            by=by,
            token=WRITING_TOKEN.get(),
            clock=self.clock,
            draw_seed=self.draw_seed,
            players_of=state.players,
            decks_of=loaded.decks,
            known=self._setups,
            make=self._game_maker(loaded, state, rnd.number, by),
        )
        streams = creations.streams([pairing for _, pairing in tables], ids)
        for table, game_id in zip((table for table, _ in tables), ids, strict=True):
            links.append(f.GameLinked(round=rnd.number, table=table, game=game_id))
        return links, streams

    def _game_stream(
        self,
        loaded: _Loaded,
        state: Tournament,
        number: int,
        pairing: Any,
        game: int,
        by: str,
        game_id: str,
    ) -> list[GameEvent]:
        """A new game ``game_id`` of a match: its creation (with the tournament labels) and
        the players' event decklists, ready to append."""
        return self._game_maker(loaded, state, number, by)(pairing, game, game_id, None)

    def _game_maker(
        self, loaded: _Loaded, state: Tournament, number: int, by: str
    ) -> Callable[[Any, int, str, dict[str, Any] | None], list[GameEvent]]:
        """What makes each new game of round ``number`` (``_game_stream``), with what
        every game of the round shares worked out once: the rules, the event's labels, the
        setup resolved for that many players (a pairing makes 5,000 games: ``_first_games``
        seals most from a template, ``RoundCreations``). (Its imports are the module's:
        four imports a game were a tenth of it.) Given the seeds drawn for a game, it
        draws none."""
        settings = state.settings
        assert settings is not None
        rules = rulebooks.load(settings.game)
        cache, draw_seed, players_of = self._setups, self.draw_seed, state.players
        seeds = drawn_seeds(rules)  # the options each game draws: worked out once
        event_id, name, decks_of, round_label = (
            loaded.event_id,
            loaded.name,
            loaded.decks,
            str(number),
        )

        def make(
            pairing: Any, game: int, game_id: str, drawn: dict[str, Any] | None = None
        ) -> list[GameEvent]:
            taking = pairing.players
            seats = rules.seats[: len(taking)]
            entrants = [players_of[p] for p in taking]
            players = tuple(
                Player(seat, e.name, e.player_id or "")
                for seat, e in zip(seats, entrants, strict=False)
            )
            # as ``resolve_options(rules, {}, ...)``, unless drawn for it already
            options = {key: draw_seed() for key in seeds} if drawn is None else drawn
            known = cache.get((rules.name, len(players)))
            if known is not None:  # same ruleset, variants and defaults: players, seeds differ
                resolved, added = known
                setup = msgspec.structs.replace(
                    resolved, players=players, options={**options, **added}
                )
            else:
                setup = rules.resolve_setup(Setup(players=players, options=options))
                reusable = _defaults_added(rules, players, options, setup, draw_seed)
                if reusable is not None:
                    cache[(rules.name, len(players))] = (setup, reusable)
            meta = {
                "event": event_id,
                "round": round_label,
                "table": str(pairing.table),
                "game": str(game),
                "players": ",".join(taking),
            }
            if name:
                meta["event_name"] = name
            decks = (
                {
                    seat: deck
                    for seat, player in zip(seats, taking, strict=False)
                    if (deck := decks_of.get(player)) is not None
                }
                if decks_of
                else {}
            )
            head = self._header(game_id)
            # numbered and chained as its stream's first event: sealed without a copy
            head["originator_version"], head["prev_hash"] = 1, GENESIS_HASH
            return game_opened(head, rules.name, setup, by=by, meta=meta, decks=decks)

        return make

    def match_update(self, created: GameCreated, ended: GameEnded) -> MatchUpdate | None:
        """What a linked game's end writes to its match: the game's result and, if the
        match is not decided yet, the next game created and linked. ``None`` when the
        game belongs to no event or its match does not take it (a slip decided first:
        the game's result stands alone). The caller stores it in the same transaction
        as the game's end (``Commands``), then calls ``MatchUpdate.folded``."""
        event_id = created.meta.get("event", "")
        if not event_id.startswith(EVENT_PREFIX):
            return None
        loaded = self._event(event_id)
        players = created.meta.get("players", "").split(",")
        seats = [p.seat for p in created.players]
        place_of = {p.seat: p.rank for p in ended.ranking}
        placings: dict[str, int] = {}
        for seat, player in zip(seats, players, strict=False):
            if place_of:
                placings[player] = place_of.get(seat, len(seats))
            else:
                placings[player] = 1 if ended.winner in (None, seat) else 2
        try:
            facts = list(
                d.decide(
                    loaded.state, d.RecordGameResult(game=created.originator_id, placings=placings)
                )
            )
        except Refusal as exc:
            if created.originator_id in loaded.state.games:
                # a result its match cannot take (decided, void, the event over): refused,
                # never stored beside the match unheard (EV-3.7, EV-3.9)
                raise _refused(exc) from None
            return None
        state = loaded.state
        for fact in facts:
            state = apply(state, fact)
        key = state.games[created.originator_id]
        streams: list[list[GameEvent]] = []
        if state.result(*key) is None:
            table = state.tables[key]
            rnd = state.rounds[key[0]]
            pairing = rnd.table(key[1])
            order = next_game_order(table, players)  # the loser sits first (EV-I.10)
            if pairing is not None and set(order) == set(pairing.players):
                pairing = msgspec.structs.replace(pairing, players=order)
            settings = state.settings
            assert settings is not None
            game_id = self.store.new_game_id(rulebooks.load(settings.game).name)
            stream = self._game_stream(
                loaded, state, key[0], pairing, len(table.games) + 1, "", game_id
            )
            facts.append(f.GameLinked(round=key[0], table=key[1], game=game_id))
            streams.append(stream)
        header = self._header(loaded.event_id)
        stored = [to_stored(fact, header) for fact in facts]
        batches: list[tuple[int, str, Sequence[GameEvent]]] = [
            (loaded.version, loaded.last_hash, stored)
        ]
        batches += [(0, "0" * 64, stream) for stream in streams]
        return MatchUpdate(batches, lambda sealed: self._fold_sealed(loaded, sealed))

    def _fold_sealed(self, loaded: _Loaded, sealed: Sequence[GameEvent]) -> None:
        with self._events_lock:
            for event in sealed:
                loaded.fold(event)

    def check_game_reopened(self, created: GameCreated) -> None:
        """Refuse (EV-8.5) undoing the end of a game its match counted."""
        event_id = created.meta.get("event", "")
        if not event_id.startswith(EVENT_PREFIX):
            return
        try:
            d.check_game_reopened(self._event(event_id).state, created.originator_id, event_id)
        except Refusal as exc:
            raise _refused(exc) from None

    def _raced(self, event_id: str, command: Callable[[], Any]) -> Any:
        """``command`` (one decision on the event and one append) under the event's write
        lock (``GameStore.stream_lock``): two server processes on one PostgreSQL store
        (``serve --workers 2``) take a round's results at once, and the second waits for
        the first, then reads what it stored and decides on that. A writer that takes no
        lock (a one-shot command) can still store first: then ``command`` is decided again
        on the event as stored (up to ``RACE_TRIES`` times: only a race lost that often,
        or a refusal on the new state, reaches the caller). Nothing of a refused commit
        was stored, so deciding again is as if it had come after the other. A write that
        named the version it saw (If-Match) is never decided again: on another version
        it is stale (``StaleVersionError``)."""
        from events.store import ConcurrentWriteError

        running = terms()
        with stream_lock(self.store, event_id.strip()):
            if running is not None and not running.appended:
                # checked (``check_terms``) when ``command`` loads the event under the lock;
                # a write that decided on a load before it is checked again there
                running.checked = False
            if running is not None and running.expected_version is not None:
                return command()
            for _ in range(RACE_TRIES - 1):
                try:
                    return command()
                except ConcurrentWriteError:
                    continue  # ``_event`` reads the other writer's facts first
            return command()

    @event_write(None)
    def event_result(self, event_id: str, slips: Sequence[str], *, by: str = "") -> int:
        """Report several slips ``TABLE=W-L-D`` (pods ``TABLE=Ann>Ben=Cal``) for the
        current round, all or none; how many were stored (judged again once if another
        writer stored first). Who may: the head referee and the scorekeeper, a table
        referee for their own tables of their own event (the slips' tables)."""
        authorize_write("result", event_id, lambda: tuple(split_slip(s)[0] for s in slips))
        counted: int = self._raced(event_id, lambda: self._event_result(event_id, slips, by=by))
        return counted

    def _event_result(self, event_id: str, slips: Sequence[str], *, by: str = "") -> int:
        loaded = self._event(event_id)
        state = loaded.state
        number = state.current_round
        if not number:
            raise EventRefusedError("EV-3.5", "no round has been paired yet")
        facts: list[f.Fact] = []
        seen: set[int] = set()
        for slip in slips:
            table, text = split_slip(slip)
            if table in seen:
                raise EventRefusedError("EV-3.6", f"table {table} is given twice")
            seen.add(table)
            new = self._decide(state, d.ReportResult(round=number, table=table, slip=text, by=by))
            for fact in new:
                state = apply(state, fact)
            facts.extend(new)
        if not facts:
            raise EventRefusedError("EV-3.1", "give at least one slip, TABLE=W-L-D")
        self._append(loaded, facts)
        return len(facts)

    @event_write("enter")
    def event_correct(
        self, event_id: str, round_number: int | None, slip: str, *, reason: str, by: str = ""
    ) -> int:
        """Correct a table's result with a reason and who (EV-8.1); ``round_number`` of
        ``None`` is the open round, else the latest. The round corrected."""
        reason = check_reason(reason)
        loaded = self._event(event_id)
        if round_number is None:
            state = loaded.state
            round_number = state.open_round() or state.current_round
            if not round_number:
                raise EventRefusedError("EV-8.2", "no round has been paired yet")
        table, text = split_slip(slip)
        facts = self._decide(
            loaded.state,
            d.CorrectResult(round=round_number, table=table, slip=text, reason=reason, by=by),
        )
        self._append(loaded, facts)
        return round_number

    @event_write("run")
    def event_penalize(
        self,
        event_id: str,
        player: str,
        infraction: str,
        *,
        penalty: str | None = None,
        reason: str = "",
        by: str = "",
    ) -> PenaltyOutcome:
        """Record an event penalty and apply it to the match (EV-8.6, IPG 1.2): a game loss
        ends the player's open game as a loss (a game penalty naming this one), a match loss
        decides the match, a disqualification drops the player. ``penalty`` is the head
        referee's choice; the IPG's suggestion is recorded beside it."""
        reason = check_reason(reason)
        if penalty is not None and penalty not in f.PENALTY_LEVELS:
            raise EventRefusedError(
                "EV-8.6", f"the penalty is one of {', '.join(f.PENALTY_LEVELS)}, not {penalty!r}"
            )
        loaded = self._event(event_id)
        facts = self._decide(
            loaded.state,
            d.RecordPenalty(
                player=player,
                infraction=infraction,
                penalty=penalty,  # type: ignore[arg-type]  # one of PENALTY_LEVELS: checked above
                reason=reason,
                by=by,
            ),
        )
        fact = facts[0]
        assert isinstance(fact, f.PenaltyRecorded)
        number = len(loaded.state.penalties) + 1
        entrant = loaded.state.players[fact.player]
        if fact.penalty == "disqualification" and entrant.dropped_after is None:
            # A disqualified player leaves the event (IPG 1.4): the drop is stored with the
            # penalty, in the same append, and the audit shows both.
            state = loaded.state
            for decided in facts:  # the penalty and the match it lost (IPG 1.1)
                state = apply(state, decided)
            facts = (
                *facts,
                *self._decide(state, d.Drop(player=fact.player, reason="disqualified")),
            )
        self._append(loaded, facts)
        effect = "recorded"
        if fact.penalty == "game-loss" and isinstance(fact.game, str):
            self._game_loss(fact, number, fact.game, by)
            effect = f"game {fact.game} ended as a loss for {entrant.name}"
        elif fact.penalty == "game-loss":
            effect = f"{entrant.name} has no game in progress: it ends their next game"
        elif fact.penalty in ("match-loss", "disqualification"):
            effect = _match_loss_effect(fact, facts, number, entrant.name)
        return PenaltyOutcome(
            number=number,
            player=entrant.name,
            penalty=fact.penalty,
            suggested=fact.suggested,
            effect=effect,
        )

    def _game_loss(self, fact: f.PenaltyRecorded, number: int, game: str, by: str) -> None:
        """End ``game`` as a loss for the penalized player: the game's own penalty event,
        naming the event's penalty, whose end the match then counts (EV-8.6)."""
        view = self.store.load(game)
        players = view.created.meta.get("players", "").split(",")
        seats = [p.seat for p in view.created.players]
        seat = dict(zip(players, seats, strict=False)).get(fact.player)
        if seat is None:
            return
        self.game_service.penalty(
            game,
            seat,
            "game_loss",
            fact.infraction,
            reason=f"event penalty {number}: {fact.infraction}"
            + (f" ({fact.reason})" if fact.reason else ""),
            by=by,
        )

    @event_write("run")
    def event_round(
        self, event_id: str, what: str, round_number: int | None = None, *, by: str = ""
    ) -> int:
        """Start (``start``) or end (``end``) a round (the latest by default): the clock's
        marks in the stream, each with who marked it (``by``); a round ends only once every
        table has its result."""
        loaded = self._event(event_id)
        number = round_number if round_number is not None else loaded.state.current_round
        command: d.Command = (
            d.StartRound(round=number, by=by)
            if what == "start"
            else d.EndRound(round=number, by=by)
        )
        self._append(loaded, self._decide(loaded.state, command))
        return number

    @event_write("run")
    def event_end(
        self, event_id: str, *, reason: str = "", void_open: bool = False, by: str = ""
    ) -> list[str]:
        """End the event (EV-1.4): refused while a game of the event is open, unless
        ``void_open`` closes those games as void (recorded, in the audit); the games closed."""
        reason = check_reason(reason)
        _, facts = self._write(event_id, d.EndEvent(reason=reason, void_open=void_open, by=by))
        return [g for fact in facts if isinstance(fact, f.GamesVoided) for g in fact.games]

    # -- reads -------------------------------------------------------------------
    def event_state(self, event_id: str) -> Tournament:
        """The folded tournament (the pure core's ``Tournament``)."""
        return self._event(event_id).state

    def event_info(self, event_id: str) -> EventInfo:
        loaded = self._event(event_id)
        state = loaded.state
        s = state.settings
        assert s is not None
        return EventInfo(
            event_id=loaded.event_id,
            name=loaded.name,
            game=s.game,
            format=s.format,
            pods=s.pods,
            match=s.match,
            rounds=state.planned_swiss_rounds() if s.format == "swiss" else (s.rounds or 0),
            cut=s.cut,
            floor=s.floor,
            players=len(state.players),
            active=len(state.active(state.current_round + 1)),
            current_round=state.current_round,
            open_round=state.open_round(),
            ended=state.ended,
            version=loaded.version,
            cut_seeds=[state.players[p].name for p in state.cut],
            **_rounds_from(state),
        )

    def event_pairings(self, event_id: str, round_number: int | None = None) -> list[PairingRow]:
        """A round's pairings (the latest without ``round_number``), tables then byes."""
        state = self._event(event_id).state
        number = round_number if round_number is not None else state.current_round
        rows = pairing_rows(state, number)
        if rows is None:
            raise EventRefusedError("EV-5.1", unpaired(number))
        return rows

    def event_standings(self, event_id: str, round_number: int | None = None) -> list[StandingRow]:
        """The standings now (the incremental projection), or after round N."""
        loaded = self._event(event_id)
        state = loaded.state
        if round_number is not None:
            _check_standings_round(state, round_number)
            return [_row(s) for s in state.standings(after_round=round_number)]
        with self._events_lock:  # no fact folded (moving the live standings) meanwhile
            table = loaded.counted_table()
        self._keep(loaded)
        rows = [_row(s) for s in table]
        if state.bracket_players():  # after the cut, or in an elimination event: each
            # player's final place (EV-I.9, EV-I.13), listed by it (EV-6.7)
            return in_final_order(state, table, rows)
        return rows

    def event_swiss_rows(self, event_id: str, version: int) -> list[StandingRow] | None:
        """The standings now in the Swiss order (before any final place: what a posting
        shows), from the table this service keeps, or ``None`` when the event kept here is
        not at ``version`` (a fact was folded since, or it is behind): a posting at the
        newest fact costs the rows, not the standings from scratch (issue 32 goal 3; its
        check still computes them from the facts)."""
        table = self._swiss_table(self._event(event_id), version)
        return [_row(s) for s in table] if table is not None else None

    def event_standing_lines(self, event_id: str) -> list[Standing] | None:
        """The standings now as the live table keeps its lines (``Standings.table``: after a
        result, the lines that did not move are the same objects as before), or ``None``
        once the cut is made (the standings are then listed by final place:
        ``event_standings``)."""
        return self._swiss_table(self._event(event_id), None, live=True)

    def event_player_standing(
        self, event_id: str, player: str, at_least: int = 0
    ) -> StandingRow | None:
        """One player's line of the standings now (``player``: their id), its rank found by
        a bisection of the live table, not by listing it (a player's own page after each
        result at 10,000 players: issue 32 goal 4); ``None`` for no such player, or once the
        cut is made (a final place needs the whole table: ``event_standings``). The event is
        read from the store only when the one kept here is older than ``at_least``."""
        loaded = self._events_cache.get(event_id.strip())
        if loaded is None or loaded.version < at_least:
            loaded = self._event(event_id)
        with self._events_lock:  # no fact folded while the rank is found
            if loaded.state.settings is None or loaded.state.bracket_players():
                return None
            try:
                return _row(loaded.live_standings().row(player))
            except KeyError:
                return None

    def _swiss_table(
        self, loaded: _Loaded, version: int | None, *, live: bool = False
    ) -> list[Standing] | None:
        """``loaded``'s standings table when it is at ``version`` (any, for ``None``), else
        ``None``: the one kept with its snapshot while no fact has moved it (read without
        restoring the counts: a command's), else the live one; with ``live``, the live one
        always (its lines kept from one call to the next: a server's), and ``None`` once the
        cut is made."""
        with self._events_lock:  # no fact folded between the version and the table
            state = loaded.state
            if version is not None and loaded.version != version:
                return None
            if state.settings is None or (live and state.bracket_players()):
                return None
            kept = None if live else loaded.kept_table()
            if kept is not None:
                return kept
            built = loaded.standings is None
            table = loaded.live_standings().table()
        if built:
            self._keep(loaded)  # the standings built afresh: kept with the snapshot
        return table

    def event_explain(self, event_id: str, player: str, round_number: int | None = None) -> str:
        loaded = self._event(event_id)
        state = loaded.state
        found = state.find(player)
        if found is None:
            raise EventRefusedError("EV-2.1", f"{player!r} is not a registered player")
        entrant = state.players[found]
        if round_number is not None:
            _check_standings_round(state, round_number)
        if round_number is not None and entrant.entry_round > round_number:
            raise EventRefusedError(  # as the standings after that round leave them out
                "EV-I.6",
                f"{entrant.name} entered in round {entrant.entry_round}: the standings after "
                f"round {round_number} do not list them",
            )
        if round_number is not None or state.settings is None:
            return state.explain(found, after_round=round_number)
        # A player's figures read only their own results and their opponents' (the
        # explanation's every line is one of those tallies): give the core just those, from
        # the results indexed by player once per version, not every table of the event.
        by_player = loaded.results_by_player()
        met = {p for _, r in by_player.get(found, []) for p in r.players} | {found}
        relevant = dict(item for p in met for item in by_player.get(p, []))
        ordered = [relevant[n] for n in sorted(relevant)]  # as the whole event lists them
        people = [state.players[p] for p in met if p in state.players]
        return explain(found, people, ordered, state.settings)

    def event_version(self, event_id: str) -> int:
        """The number of the event's newest stored fact (one indexed query once the event is
        folded): what the pages' shared renderings are keyed by."""
        return self._event(event_id).version

    def event_log(self, event_id: str) -> list[LogLine]:
        """Every stored event of the event's stream, in order, as one line each."""
        from events.codec import decode
        from events.schema import kind_of
        from events.tournament import summary

        self._event(event_id)
        lines: list[LogLine] = []
        for number, topic, state in self.store.rows(event_id.strip()):
            event = decode(topic, state)
            lines.append(
                LogLine(
                    number=number, time=event.timestamp, kind=kind_of(event), text=summary(event)
                )
            )
        return lines

    def event_pairing_warnings(self, event_id: str, since: int) -> list[str]:
        """The warnings recorded with the pairings stored after version ``since`` (a pairing
        by hand or a re-pairing: rematches EV-5.4, second byes EV-5.5), as the audit words
        them: what the head judge is told at once when pairing by hand, not only later in
        the audit. Reads only the facts after ``since``."""
        from events.codec import decode

        said: list[str] = []
        for _, topic, state in self.store.rows(event_id.strip(), after=since):
            fact = to_fact(decode(topic, state))
            if isinstance(fact, f.RoundPaired | f.PairingChanged):
                said += [f"{w.clause}: {w.reason}" for w in fact.warnings]
        return said

    def event_audit(
        self, event_id: str, *, late: Callable[[Entrant], str] | None = None
    ) -> dict[str, Any]:
        """What the audit shows: overrides and re-pairings with their reasons and warnings,
        corrections with reason and who, penalties, drops, time extensions and round
        lengths (EV-9.1, EV-9.4). ``late``: the late entries too (EV-2.3), each player
        named by it, in the same one reading of the event's log (``audit_named``)."""
        from events.codec import decode
        from service.fix_audit import fix_item

        self._event(event_id)
        entries: list[dict[str, Any]] = []
        penalties = 0
        for number, topic, state in self.store.rows(event_id.strip()):
            fact = to_fact(decode(topic, state))
            item: dict[str, Any] | None = None
            if isinstance(fact, f.RoundPaired) and (fact.override or fact.warnings):
                item = {
                    "what": "manual pairing",
                    "round": fact.round.number,
                    "reason": fact.override or "",
                    "by": fact.by if isinstance(fact.by, str) else "",  # who, when recorded
                    "warnings": [f"{w.clause}: {w.reason}" for w in fact.warnings],
                }
            elif isinstance(fact, f.PairingChanged):
                item = {
                    "what": "pairing changed",
                    "round": fact.round.number,
                    "reason": fact.reason,
                    "by": fact.by,
                    "warnings": [f"{w.clause}: {w.reason}" for w in fact.warnings],
                }
            elif isinstance(fact, f.ResultCorrected):
                result = (
                    fact.score.text if fact.score else fact.placement.text if fact.placement else ""
                )
                item = {
                    "what": "result corrected",
                    "round": fact.round,
                    "table": fact.table,
                    "result": result,
                    "reason": fact.reason,
                    "by": fact.by,
                }
            elif isinstance(fact, f.PenaltyRecorded):
                penalties += 1
                item = {
                    "what": "penalty",
                    "number": penalties,  # what a withdrawal names (EV-8.7)
                    "player": fact.player,
                    "round": fact.round,
                    "infraction": fact.infraction,
                    "penalty": fact.penalty,
                    "suggested": fact.suggested,
                    "reason": fact.reason,
                    "by": fact.by,
                }
            elif (plain := _PLAIN_AUDIT.get(type(fact))) is not None:
                what, fields = plain
                item = {"what": what, **{name: getattr(fact, name) for name in fields}}
            else:
                item = fix_item(fact)  # undone rounds, undrops, voided games, ...
            if item is not None:
                entries.append({"event": number, **item})
            if late is not None and isinstance(fact, f.PlayerRegistered):
                entry_round = fact.player.entry_round
                if entry_round > 1:
                    player = late(fact.player)
                    item = {"what": "late entry", "player": player, "round": entry_round}
                    if fact.player.late_as_losses is True:  # what the standings count (EV-2.9)
                        item["match_losses"] = entry_round - 1
                    entries.append({"event": number, **item})
        return {"event_id": event_id.strip(), "entries": entries}

    def event_export(self, event_id: str) -> list[str]:
        """The event's stream as a JSONL record (the same format as a game's), which
        ``referee import`` reads back, chain checked."""
        from service.interchange import export_records

        self._event(event_id)
        return list(export_records(self.store, [event_id.strip()], "jsonl"))

    def event_ids(self) -> list[str]:
        return [g for g in self.store.game_ids() if g.startswith(EVENT_PREFIX)]


_VOIDS_BY_FOLD = (f.PairingChanged, f.RoundUndone)
"""The facts whose voided games only their fold tells (``void_closings``)."""


def _newly_voided(before: Tournament, after: Tournament) -> list[str]:
    """Games void in ``after`` that were not in ``before`` (a snapshot's earlier rounds are
    not read for it)."""
    from projections.event_state import new_keys

    return new_keys(before.voided, after.voided)


def keeps_snapshots(store: GameStore) -> bool:
    """Whether ``store`` keeps event snapshots: not one in memory (nothing to keep it in)."""
    return store.backend is not None and not (store.path or "").startswith(
        (":memory:", "file::memory:")
    )


def check_event_snapshot(store: GameStore, snapshots: EventSnapshots, event_id: str) -> str | None:
    """What is wrong with the event's kept snapshot, if anything: the event folded again
    from its log up to the snapshot's version must be the snapshot (state, lists, name,
    standings: their counts, moved by the tables touched since they were taken, and the
    table kept as shown). A snapshot that is not is dropped (the next command folds the log
    and keeps a new one); one written by other code is not read at all, so it is not
    checked."""
    from events.codec import decode

    snapshot = snapshots.load(event_id)
    if snapshot is None:
        return None
    # what a pairing reads of the earlier rounds, as the head keeps it (before they are read)
    paired = (snapshot.state.history(), snapshot.state.round_kinds())
    fresh = _Loaded(event_id)
    for _, topic, state in store.rows(event_id, upto=snapshot.version):
        event = decode(topic, state)
        if isinstance(event, TournamentEvent):
            fresh.fold(event)
    problem = None
    if fresh.version != snapshot.version or fresh.last_hash != snapshot.last_hash:
        problem = f"the log has no event {snapshot.version} with the snapshot's hash"
    elif (fresh.state, fresh.decks, fresh.name) != (
        snapshot.state,
        snapshot.decks,
        snapshot.name,
    ):
        problem = f"the snapshot at event {snapshot.version} is not what the log folds to"
    elif paired != (fresh.state.history(), fresh.state.round_kinds()):
        problem = f"the snapshot's pairing history at event {snapshot.version} is not the log's"
    elif snapshot.standings is not None and not _same_standings(event_id, snapshot, fresh):
        problem = f"the snapshot's standings at event {snapshot.version} are not the log's"
    if problem is not None:
        snapshots.drop(event_id)
    return problem


def _same_standings(event_id: str, snapshot: EventSnapshot, fresh: _Loaded) -> bool:
    """Whether the snapshot's standings are ``fresh``'s (folded from the log): the table
    kept as shown, and the counts every later change starts from (each player's counts,
    opponents and opponents' sums), moved by the tables touched since they were taken."""
    kept = _Loaded.from_snapshot(event_id, snapshot)
    table = kept.kept_table()
    counts = kept.kept_counts()
    mine = fresh.live_standings()
    if counts is None or (table is not None and table != mine.table()):
        return False
    settings = fresh.state.settings
    assert settings is not None
    restored = Standings.restored(settings, fresh.state.players.values(), counts)
    if restored.table() != mine.table():
        return False

    def lines(c: StandingsCounts) -> dict[str, Any]:
        return {
            p: (row, sorted(met), sums)
            for p, row, met, sums in zip(c.players, c.counts, c.opponents, c.sums, strict=True)
        }

    theirs = mine.counts()
    return lines(counts) == lines(theirs) and sorted(counts.results) == sorted(theirs.results)


def split_slip(slip: str) -> tuple[int, str]:
    """``TABLE=RESULT`` as (table number, result text); refused (EV-3.1, EV-3.5) otherwise."""
    table, sep, text = slip.partition("=")
    if not sep or not text.strip():
        raise EventRefusedError(
            "EV-3.1", f"{slip!r}: a slip is TABLE=W-L-D (a pod: TABLE=1:Ann,2:Ben,3:Cal, EV-7.5)"
        )
    digits = table.strip()
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 6):
        # ASCII digits only (issue 31): int() would read "２" or "٢" as a table number
        raise EventRefusedError("EV-3.5", f"{digits!r} is not a table number")
    return int(digits), text.strip()


def _match_loss_effect(
    fact: f.PenaltyRecorded, facts: Sequence[f.Fact], number: int, name: str
) -> str:
    """Where a match loss (or a disqualification's lost match) took effect (EV-8.6): the
    two-player match it decided, the pod where it places the player last (EV-I.11), or,
    with no match in progress, the player's next match."""
    dq = fact.penalty == "disqualification"
    dropped = ", and dropped" if dq else ""
    if any(isinstance(x, f.MatchReported) for x in facts):
        return f"round {fact.round} table {fact.table}: a match loss for {name}" + (
            ", who is dropped" if dq else ""
        )
    applied = next(
        (x for x in facts if isinstance(x, f.PenaltyApplied) and x.penalty == number), None
    )
    if applied is not None:
        return (
            f"round {applied.round} table {applied.table}: {name} is placed last in the pod "
            f"(EV-I.11){dropped}"
        )
    if dq:
        return f"{name} is dropped"
    return f"{name} has no match in progress: it decides their next match"


def _rounds_from(state: Tournament) -> dict[str, Any]:
    """``EventInfo``'s account of where a Swiss event's number of rounds comes from."""
    settings = state.settings
    if settings is None or settings.format != "swiss":
        return {}
    if settings.rounds is not None:
        return {"rounds_from": "organiser"}
    plan = state.default_plan()
    if plan is None:
        return {}
    return {
        "rounds_from": "round 1" if state.current_round else "so far",
        "rounds_players": plan.players,
        "rounds_counted": plan.counted,
    }


def _check_standings_round(state: Tournament, round_number: int) -> None:
    """The standings after round N are computed from round N's results (EV-4.1): a round
    that is not one (0, -1) or is not paired yet has none. The one check of every door
    (the API's ``?round=``, ``event standings --round``, ``--explain``), so they refuse
    alike."""
    if round_number < 1:
        raise EventRefusedError(
            "EV-4.1", f"there is no round {round_number}: rounds are numbered from 1"
        )
    if round_number not in state.rounds:
        raise EventRefusedError("EV-4.1", unpaired(round_number))
