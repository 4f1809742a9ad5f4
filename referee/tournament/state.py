"""The tournament as folded from its facts: a pure reducer and the reads built on it.

``apply(state, fact)`` returns a new ``Tournament``. The containers that grow with
the event (players, tables, games) are persistent maps (``immutables.Map``, a
hash array mapped trie): a fact makes a new map sharing all but a path of the old
one, so every state handed out stays as it was, and folding an event costs its
facts times a logarithm, not its facts times its size (a copied dict per fact made
a 10,000-player event's load quadratic: 28 s in round 4).

Reads answer what decisions and faces ask: who is active, whether a round is open,
each table's final result (a reported slip, else what the linked games decided), the
standings, and the seats for the next pairing.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from datetime import datetime
from operator import attrgetter
from typing import Any, TypeVar

import immutables
import msgspec

from referee.tournament.brackets import bracket_seeds
from referee.tournament.clock import DEFAULT_MINUTES, RoundClock, extended, marked
from referee.tournament.draw import seeded_order
from referee.tournament.errors import Refusal
from referee.tournament.facts import (
    ByeAwarded,
    CallClaimed,
    CallEscalated,
    CallResolved,
    ClockMarked,
    CutMade,
    DecklistAttached,
    EventCreated,
    EventEnded,
    EventHandedOver,
    Fact,
    GameLinked,
    GameResultRecorded,
    GamesVoided,
    JudgeCalled,
    MatchReported,
    PairingChanged,
    PenaltyApplied,
    PenaltyRecorded,
    PenaltyWithdrawn,
    PlayerDropped,
    PlayerRegistered,
    PlayerUndropped,
    RatingCorrected,
    ReportConfirmed,
    ReportDisputed,
    ReportFiled,
    ResultCorrected,
    RoundEnded,
    RoundLengthSet,
    RoundPaired,
    RoundStarted,
    RoundUndone,
    SettingsChanged,
    TimeExtended,
)
from referee.tournament.model import (
    PLAYOFF_KINDS,
    Entrant,
    Placement,
    Round,
    Score,
    Settings,
    SwissPlan,
    TableKey,
    games_to_win,
    history_pairings,
)
from referee.tournament.pairing import Seat
from referee.tournament.rounds import default_rounds, effective_players
from referee.tournament.standings import MatchResult, Standing, compute_standings, explain

__all__ = [
    "RUN_STEPS",
    "CallState",
    "ReportState",
    "TableState",
    "Tournament",
    "apply",
    "fold",
    "fold_carried",
]

Result = Score | Placement

_HAS_BYES = attrgetter("byes")
_BY_ORDER = attrgetter("order")


class TableState(msgspec.Struct, frozen=True, kw_only=True):
    """A table of a paired round: its games and what was reported or corrected."""

    round: int
    table: int
    players: tuple[str, ...]
    games: tuple[str, ...] = ()
    game_results: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    reported: Result | None = None
    corrections: int = 0

    def games_score(self) -> Score:
        """The linked games' results so far, for the first-listed of the two players: a game
        with both placed alike (or neither placed) is a draw, the better place wins."""
        first, second = self.players
        wins = losses = draws = 0
        for _, placings in self.game_results:
            places = dict(placings)
            if places.get(first) == places.get(second):
                draws += 1
            elif places.get(first, 99) < places.get(second, 99):
                wins += 1
            else:
                losses += 1
        return Score(wins, losses, draws)


class CallState(msgspec.Struct, frozen=True, kw_only=True):
    """A judge call (EV-10): where, who called and why, and where it stands now."""

    number: int
    round: int
    table: int
    by: str
    reason: str
    at: datetime
    game: str = ""
    status: str = "open"
    """``open`` (nobody holds it), ``claimed``, ``escalated`` (waiting for the head
    referee, or held by them) or ``resolved``."""
    holder: str = ""
    escalated: bool = False
    changed: datetime | None = None
    note: str = ""
    players: tuple[str, ...] = ()
    """The players of the table when the call was made: the call is about them (EV-10.8)."""
    escalated_by: str = ""
    """Who handed it to the head referee (EV-10.5), and ``escalation`` why: what the head
    reads in the queue before walking to the table."""
    escalation: str = ""
    taken_back: bool = False
    """Its round was taken back, or its table re-paired with other players, while it was
    not resolved (EV-10.8): it stays with its players for the judges, and no longer holds
    the table (EV-10.3)."""


class ReportState(msgspec.Struct, frozen=True, kw_only=True):
    """A player's own report (EV-11): the score for the table's first-listed player."""

    number: int
    round: int
    table: int
    player: str
    score: Score
    at: datetime
    status: str = "pending"
    """``pending``, ``confirmed``, ``disputed``, ``replaced`` (the same player filed
    again while it was pending or disputed) or ``void`` (its pairing was taken back or
    replaced while it was open, EV-11.7); a pending or disputed report of a table with a
    result is superseded (``Tournament.report_status``)."""
    answered_by: str = ""
    answered_at: datetime | None = None
    reason: str = ""


class Tournament(msgspec.Struct, frozen=True, kw_only=True):
    """Everything decided so far. Build it with ``fold(facts)``."""

    settings: Settings | None = None
    players: immutables.Map[str, Entrant] = immutables.Map()
    rounds: dict[int, Round] = {}
    overrides: dict[int, str] = {}
    tables: immutables.Map[TableKey, TableState] = immutables.Map()
    games: immutables.Map[str, TableKey] = immutables.Map()
    awarded: dict[int, frozenset[str]] = {}
    penalties: tuple[PenaltyRecorded, ...] = ()
    started: frozenset[int] = frozenset()
    ended_rounds: frozenset[int] = frozenset()
    cut: tuple[str, ...] = ()
    ended: bool = False
    round_minutes: int = DEFAULT_MINUTES
    """The event's round length (EV-9.1)."""
    clocks: dict[int, RoundClock] = {}
    """Each round's clock, once something was marked or extended in it (EV-9.2)."""
    voided: immutables.Map[str, bool] = immutables.Map()
    """Games closed as void (EV-3.9), as a set: one a slip at most, so a persistent map."""
    withdrawn_penalties: frozenset[int] = frozenset()  # 1-based numbers (EV-8.7)
    applied_penalties: dict[int, TableKey] = {}  # number -> where it took effect (EV-8.6)
    penalty_games: dict[int, str] = {}  # number -> the game a game loss ended (EV-8.6)
    run_from: str = ""
    run_from_since: datetime | None = None
    """When the event was last handed over (``None``: never)."""
    """The store that writes the event since its last hand-over ("": the one it was made on)."""
    calls: immutables.Map[int, CallState] = immutables.Map()
    reports: immutables.Map[int, ReportState] = immutables.Map()
    table_calls: immutables.Map[TableKey, tuple[int, ...]] = immutables.Map()
    """Each table's calls by number, in order: a decision looks at its table's alone."""
    table_reports: immutables.Map[TableKey, tuple[int, ...]] = immutables.Map()
    """Each table's reports by number, in order (5,000 a round at the largest events)."""
    swiss_plan: SwissPlan | None = None
    """The default number of Swiss rounds fixed by round 1's pairing (EV-I.14); ``None``
    before it, when the organiser set the rounds, and for round 1 paired before it was
    recorded."""

    def report_status(self, report: ReportState) -> str:
        """``superseded`` for a pending or disputed report of a table that has its result
        another way (a staff slip or correction, the games, EV-11.6); else its status."""
        known = self.result(report.round, report.table)
        if report.status in ("pending", "disputed") and known is not None:
            return "superseded"
        return report.status

    # -- players

    def created(self) -> Settings:
        """The event's settings, or the refusal that no event has been created (EV-1.1)."""
        if self.settings is None:
            raise Refusal("EV-1.1", "no event has been created yet")
        return self.settings

    def running(self) -> Settings:
        """``created``'s settings, or the refusal that the event has ended (EV-1.4)."""
        settings = self.created()
        if self.ended:
            raise Refusal("EV-1.4", "the event has ended: nothing more can be entered")
        return settings

    def registered(self, who: str) -> str:
        """The id of the player ``who`` identifies (``find``), or the refusal that it names
        no registered player (EV-2.1)."""
        found = self.find(who)
        if found is None:
            raise Refusal("EV-2.1", f"{who!r} is not a registered player")
        return found

    def find(self, who: str) -> str | None:
        """The id of the player identified by ``who``: their event id (``p3``) or house
        player id exactly, else their display name exactly as registered (spaces
        collapsed, case kept: ``ann`` is not Ann, issue 31). Ids are their own namespace
        and come first, so a player named ``P2`` never stands in for ``p2``; a name two
        players share finds neither (give the id)."""
        wanted = " ".join(who.split())
        if wanted in self.players:
            return wanted
        named: list[str] = []
        for entrant in self.players.values():
            if entrant.player_id and entrant.player_id == wanted:
                return entrant.id
            if entrant.name == wanted:
                named.append(entrant.id)
        return named[0] if len(named) == 1 else None

    def holder(self, player_id: str, name: str) -> str | None:
        """The id of the registered player who is the person ``player_id`` (their id across
        the house, EV-2.2), or, failing that, who registered as ``name`` without one."""
        for entrant in self.players.values():
            if player_id and entrant.player_id == player_id:
                return entrant.id
        found = self.find(name) if name.strip() else None
        if found is not None and self.players[found].player_id:
            return None  # someone else of that name, bound to their own id
        return found

    def names(self) -> dict[str, str]:
        return {p: e.name for p, e in self.players.items()}

    def active(self, round_number: int) -> list[Entrant]:
        """Players taking part in ``round_number``, in registration order."""
        # by a C key and the test of ``Entrant.active_in`` written out: a pairing of 10,000
        # players asks twice (the pairing, the decklists' warning), 40,000 Python calls
        ordered = sorted(self.players.values(), key=_BY_ORDER)
        return [
            e
            for e in ordered
            if e.entry_round <= round_number
            and (e.dropped_after is None or round_number <= e.dropped_after)
        ]

    # -- rounds and tables

    def clock(self, round_number: int | None = None) -> RoundClock:
        """The clock of ``round_number`` (the current round by default); a round nothing
        was marked in has a waiting clock of the event's length (EV-9.1, EV-9.2)."""
        number = self.current_round if round_number is None else round_number
        found = self.clocks.get(number)
        return found if found is not None else RoundClock(round=number, minutes=self.round_minutes)

    @property
    def current_round(self) -> int:
        return max(self.rounds, default=0)

    def result(self, round_number: int, table: int) -> Result | None:
        """The table's final result: the slip or correction, else the games' verdict; at a
        pod table, with the players a match loss was applied to placed last (EV-I.11)."""
        state = self.tables.get((round_number, table))
        if state is None:
            return None
        found = state.reported if state.reported is not None else self.decided_by_games(state)
        if found is not None and not isinstance(found, Placement):
            return found
        last = self.placed_last((round_number, table))
        if not last:
            return found
        if found is not None:
            return found.with_last(last)
        others = [p for p in state.players if p not in last]
        if len(others) == 1:  # every other player has lost: the one left is first
            return Placement(((others[0], 1), *((p, 2) for p in state.players if p in last)))
        return None

    def placed_last(self, key: TableKey) -> frozenset[str]:
        """The players of a pod table whose match loss or disqualification was applied
        there and stands (EV-8.6, EV-I.11)."""
        if self.settings is None or not self.settings.pods:
            return frozenset()
        return frozenset(
            self.penalties[number - 1].player
            for number, at in self.applied_penalties.items()
            if at == key
            and number not in self.withdrawn_penalties
            and self.penalties[number - 1].penalty in ("match-loss", "disqualification")
        )

    def decided_by_games(self, state: TableState) -> Result | None:
        """What the linked games decided, if they decided the match (EV-3.8)."""
        if not state.game_results:
            return None
        if len(state.players) != 2:  # a pod is one game, its places read as a slip's are
            return Placement(state.game_results[0][1]).counted()  # (EV-7.5, EV-I.15)
        played = state.games_score()
        assert self.settings is not None
        need = games_to_win(self.settings.match)
        if played.wins < need and played.losses < need:
            return None
        rnd = self.rounds.get(state.round)
        if self.settings.pods and rnd is not None and rnd.kind not in PLAYOFF_KINDS:
            # a pod of two, reported in places (EV-7.1, EV-7.5): the match its games played
            # is the pod's result, its winner first (EV-I.15), as the slip would give it
            first, second = state.players
            winner, loser = (first, second) if played.wins >= need else (second, first)
            return Placement(((winner, 1), (loser, 2)))
        return played

    def open_round(self) -> int | None:
        """The latest round if some table still lacks a final result (EV-5.10)."""
        number = self.current_round
        if not number:
            return None
        tables = self.tables
        for pairing in self.rounds[number].pairings:
            table = pairing.table
            if table is None:
                continue
            state = tables.get((number, table))
            if state is not None and type(state.reported) is Score:
                continue  # a slip stands as given (``result``): a round's 5,000, one lookup each
            if self.result(number, table) is None:
                return number
        return None

    def kind_rounds(self, *kinds: str) -> list[Round]:
        return [self.rounds[n] for n in sorted(self.rounds) if self.rounds[n].kind in kinds]

    def round_kinds(self) -> dict[int, str]:
        """Every round's kind by number. Rounds that keep their earlier rounds apart (an
        event snapshot's, ``kinds``) answer without reading those rounds' pairings."""
        kept = getattr(self.rounds, "kinds", None)
        if kept is not None:
            return dict(kept())
        return {number: rnd.kind for number, rnd in self.rounds.items()}

    def planned_swiss_rounds(self) -> int:
        """Swiss (or pod) rounds to play: the setting, else the default table (EV-1.3)."""
        assert self.settings is not None
        if self.settings.rounds is not None:
            return self.settings.rounds
        plan = self.default_plan()
        if plan is not None:
            return plan.rounds
        # a pod event, or round 1 paired before the plan was recorded: every player
        # registered for round 1, dropped before it or not, as such events always counted
        starters = [e.byes for e in self.players.values() if e.entry_round == 1]
        return default_rounds(effective_players(starters))

    def default_plan(self) -> SwissPlan | None:
        """The default number of Swiss rounds of a Swiss event without pods (EV-I.14): the
        one round 1's pairing fixed, or, before round 1 is paired, the one it would fix
        now, from the players who would take part in it. ``None`` for a pod event and for
        an event whose round 1 was paired before the plan was recorded."""
        if self.swiss_plan is not None:
            return self.swiss_plan
        settings = self.settings
        if settings is None or settings.format != "swiss" or settings.pods or self.current_round:
            return None
        starters = [e.byes for e in self.active(1)]
        counted = effective_players(starters)
        return SwissPlan(rounds=default_rounds(counted), players=len(starters), counted=counted)

    # -- standings

    def match_results(self, after_round: int | None = None) -> dict[TableKey, MatchResult]:
        """Final results of the Swiss, round-robin and pod rounds, byes included (EV-6.5)."""
        out: dict[TableKey, MatchResult] = self.late_losses(after_round)
        for number, rnd in self.rounds.items():
            if rnd.kind in PLAYOFF_KINDS:
                continue
            if after_round is not None and number > after_round:
                continue
            for pairing in rnd.pairings:
                if pairing.bye:
                    player = pairing.players[0]
                    key = (number, -(self.players[player].order + 1))
                    out[key] = MatchResult(round=number, players=pairing.players, bye=True)
                    continue
                assert pairing.table is not None
                result = self.result(number, pairing.table)
                if isinstance(result, Score):
                    out[(number, pairing.table)] = MatchResult(
                        round=number, players=pairing.players, score=result
                    )
                elif isinstance(result, Placement):
                    out[(number, pairing.table)] = MatchResult(
                        round=number, players=pairing.players, placement=result
                    )
        return out

    def late_losses(self, after_round: int | None = None) -> dict[TableKey, MatchResult]:
        """The match losses of late entries who took them for the rounds they missed
        (EV-2.9), keyed like byes: ``(round, -(registration + 1))``."""
        out: dict[TableKey, MatchResult] = {}
        for entrant in self.players.values():
            if entrant.late_as_losses is not True:
                continue
            for number in range(1, entrant.entry_round):
                if after_round is None or number <= after_round:
                    key = (number, -(entrant.order + 1))
                    out[key] = MatchResult(round=number, players=(entrant.id,), loss=True)
        return out

    def standings(self, after_round: int | None = None) -> list[Standing]:
        assert self.settings is not None
        return compute_standings(
            self.players.values(),
            self.match_results(after_round).values(),
            self.settings,
            after_round=after_round,
        )

    def explain(self, player: str, after_round: int | None = None) -> str:
        assert self.settings is not None
        return explain(
            player,
            self.players.values(),
            self.match_results(after_round).values(),
            self.settings,
            after_round=after_round,
        )

    # -- pairing inputs

    def history(self) -> tuple[dict[str, set[str]], dict[str, int]]:
        """Opponents met in non-playoff rounds, and byes had, per player."""
        met: dict[str, set[str]] = {p: set() for p in self.players}
        byes: dict[str, int] = {p: 0 for p in self.players}
        # rounds that keep their earlier rounds apart (an event snapshot's) may keep those
        # rounds' history as this walk makes it (opponents, byes): the 45,000 earlier
        # pairings of a large event's round 10 are then not read; the rest are walked
        kept = getattr(self.rounds, "kept_history", None)
        older = kept() if kept is not None else None
        if older is not None:
            old_met, old_byes, numbers = older
            for player, opponents in old_met.items():
                met[player].update(opponents)
            for player, count in old_byes.items():
                byes[player] += count
            rounds: Iterable[Round] = [self.rounds[n] for n in self.rounds if n not in numbers]
        else:
            rounds = self.rounds.values()
        for pairing in history_pairings(rounds):
            players = pairing.players
            if pairing.bye:
                byes[players[0]] += 1
            if len(players) == 2:  # a table (45,000 by round 9 of the largest events)
                met[players[0]].add(players[1])
                met[players[1]].add(players[0])
                continue
            for p in players:
                met[p].update(q for q in players if q != p)
        return met, byes

    def meetings(self) -> tuple[dict[str, Collection[str]], dict[str, int]]:
        """``history`` as a pairing's seats take it: each player's opponents as a list (a
        repeat listed twice), the kept history's own lists where the head keeps it (never
        changed: a player the walked rounds move gets a new list). A large event's round 10
        then makes 10,000 short lists, where ``history`` makes 10,000 sets and the seats
        froze each again."""
        kept = getattr(self.rounds, "kept_history", None)
        older = kept() if kept is not None else None
        if older is None:
            sets, counted = self.history()
            walked: dict[str, Collection[str]] = dict(sets)
            return walked, counted
        old_met, old_byes, numbers = older
        none: tuple[str, ...] = ()
        met: dict[str, Collection[str]] = dict.fromkeys(self.players, none)
        met.update(old_met)  # copied with their hashes: no name hashed or looked up again
        whole = len(met) == len(self.players)  # else kept opponents of someone not a player
        if not whole:
            met = {p: old_met.get(p, none) for p in self.players}
        byes: dict[str, int] = dict.fromkeys(met, 0)
        for player, count in old_byes.items():
            byes[player] += count
        rounds = [self.rounds[n] for n in self.rounds if n not in numbers]
        for pairing in history_pairings(rounds):
            players = pairing.players
            if pairing.bye:
                byes[players[0]] += 1
            if len(players) == 2:
                first, second = players
                met[first] = [*met[first], second]
                met[second] = [*met[second], first]
                continue
            for p in players:
                met[p] = [*met[p], *(q for q in players if q != p)]
        keep = getattr(self.rounds, "keep_meetings", None)
        if keep is not None and whole:  # a snapshot's rounds: its next save keeps the walk
            keep(old_met, rounds, met, byes)
        return met, byes

    def awarded_in(
        self, round_number: int, taking_part: Sequence[Entrant] | None = None
    ) -> list[str]:
        """Players with an awarded bye in ``round_number`` (EV-2.4); ``taking_part``:
        ``active(round_number)`` where the caller has it (not sorted again)."""
        extra = self.awarded.get(round_number, frozenset())
        players = taking_part if taking_part is not None else self.active(round_number)
        if not extra:  # only a player given byes at entry has one (10,000 calls spared)
            return [e.id for e in filter(_HAS_BYES, players) if e.awarded_bye_in(round_number)]
        return [e.id for e in players if e.awarded_bye_in(round_number) or e.id in extra]

    def bracket_players(self) -> tuple[str, ...]:
        """The players of the playoff, best seed first: the cut (EV-6.1), or an elimination
        event's, by their seeds in its first round (EV-6.8, EV-I.13). Empty before either."""
        if self.cut:
            return self.cut
        if self.settings is None or self.settings.format != "elimination":
            return ()
        first = self.kind_rounds("elimination")[:1]
        return tuple(bracket_seeds(first[0])) if first else ()

    def final_ranking(self, swiss: Iterable[str]) -> list[str]:
        """Every player in final order once the playoff has begun (EV-I.9, EV-I.13; MTR):
        the players of the cut (or of an elimination event) by how far they went in the
        playoff (the champion, the finalist, the semi-final losers, ...), those who went
        equally far by their Swiss standing (an elimination event's: by seed, EV-I.13); then
        everyone else in Swiss order. ``swiss`` is the player ids in Swiss standing order.
        Empty before the playoff."""
        return [player for player, _ in self.playoff_order(swiss)]

    def playoff_order(self, swiss: Iterable[str]) -> list[tuple[str, tuple[int, int] | None]]:
        """``final_ranking`` with, for each player of the playoff, how far they went as
        ``(-latest playoff round reached, 0 if through it else 1)``: players with the same
        key went equally far (EV-I.13's shared places); ``None`` outside the playoff."""
        seeds = self.bracket_players()
        if not seeds:
            return []
        kind = "cut" if self.cut else "elimination"
        order = list(swiss)
        position = {p: i for i, p in enumerate(order)}
        if kind == "elimination":  # no Swiss standing: the seeds order the equals (EV-I.13)
            position = {p: i for i, p in enumerate(seeds)}
        reached = dict.fromkeys(seeds, 0)
        won: dict[str, int] = {}
        before = 0  # the playoff round before this one
        for number in sorted(self.rounds):
            rnd = self.rounds[number]
            if rnd.kind != kind:
                continue
            here = set(rnd.players())
            for player in [p for p, last in won.items() if last == before and p not in here]:
                # through the round before, not paired in this one (dropped, EV-6.9): out
                # here, as if they had lost it
                reached[player] = number
            before = number
            for pairing in rnd.pairings:
                for player in pairing.players:
                    reached[player] = number
                if pairing.bye:  # a bye goes through its round as a win does (EV-I.9)
                    won[pairing.players[0]] = number
                    continue
                result = self.result(number, pairing.table) if pairing.table is not None else None
                if isinstance(result, Score) and result.winner is not None:
                    won[pairing.players[result.winner]] = number

        def how_far(player: str) -> tuple[int, int]:
            last = reached[player]
            return (-last, 0 if last and won.get(player) == last else 1)

        ranked = sorted(
            (p for p in seeds if p in position), key=lambda p: (how_far(p), position[p])
        )
        return [(p, how_far(p)) for p in ranked] + [(p, None) for p in order if p not in reached]

    def seats(
        self,
        round_number: int,
        ranking: Sequence[tuple[str, int]] | None = None,
        *,
        taking_part: Sequence[Entrant] | None = None,
    ) -> list[Seat]:
        """Everyone active in ``round_number``, best first, as the pairing sees them.

        Round 1 (nothing played): by rating, highest first, where ratings are
        given, then registration order (EV-5.6). Later: the current standings, or
        ``ranking`` where the caller keeps them (every player best first with their
        points, as ``standings()`` has them: it is then not worked out again).
        ``taking_part``: ``active(round_number)`` where the caller has it (not sorted
        again: 10,000 players).
        """
        if taking_part is None:
            taking_part = self.active(round_number)
        active = {e.id: e for e in taking_part}
        met, byes = self.meetings()
        played = any(k not in PLAYOFF_KINDS for k in self.round_kinds().values())
        if played:
            ranked = (
                ranking if ranking is not None else [(s.player, s.points) for s in self.standings()]
            )
            return [  # in one pass over the ranking (10,000 players)
                Seat(
                    id=p,
                    points=points,
                    opponents=met[p],
                    byes=byes[p],
                    table=active[p].table,
                )
                for p, points in ranked
                if p in active
            ]
        seed = self.settings.seed if self.settings is not None else msgspec.UNSET
        if isinstance(seed, int):  # the seeded draw stands in for registration (EV-5.6)
            drawn = {p: i for i, p in enumerate(seeded_order(seed, round_number, active))}
        else:
            drawn = {p: active[p].order for p in active}
        order = sorted(
            active,
            key=lambda p: (
                active[p].rating is None,
                -(active[p].rating or 0),
                drawn[p],
            ),
        )
        return [
            Seat(
                id=p,
                opponents=met[p],
                byes=byes[p],
                table=active[p].table,
            )
            for p in order
        ]


def _set_table(
    state: Tournament, key: TableKey, table: TableState
) -> immutables.Map[TableKey, TableState]:
    return state.tables.set(key, table)


def _round_tables(state: Tournament, rnd: Round) -> immutables.Map[TableKey, TableState]:
    """The tables with round ``rnd.number``'s replaced by its pairings' (a re-pairing
    forgets the old tables of that round)."""
    tables = state.tables.mutate()
    old = state.rounds.get(rnd.number)
    for pairing in old.pairings if old is not None else ():
        if pairing.table is not None:
            tables.pop((rnd.number, pairing.table), None)
    for pairing in rnd.pairings:
        if pairing.table is not None:
            tables[(rnd.number, pairing.table)] = TableState(
                round=rnd.number, table=pairing.table, players=pairing.players
            )
    return tables.finish()


def _kept_tables(
    state: Tournament, rnd: Round
) -> tuple[immutables.Map[TableKey, TableState], frozenset[str], frozenset[TableKey]]:
    """The tables after a re-pairing of ``rnd.number`` (EV-5.12): a table with the same
    number and players keeps its games and results; every other old table's games are
    void (EV-3.9). The new tables, the games made void and the old tables that changed."""
    tables = _round_tables(state, rnd).mutate()
    void: set[str] = set()
    changed: set[TableKey] = set()
    old_round = state.rounds.get(rnd.number)
    for pairing in old_round.pairings if old_round is not None else ():
        if pairing.table is None:
            continue
        key = (rnd.number, pairing.table)
        old = state.tables.get(key)
        if old is None:
            continue
        new = tables.get(key)
        if new is not None and new.players == old.players:
            tables[key] = old
        else:
            void.update(old.games)
            changed.add(key)
    return tables.finish(), frozenset(void), frozenset(changed)


_Item = TypeVar("_Item", CallState, ReportState)


def _unseated(
    items: immutables.Map[int, _Item],
    index: immutables.Map[TableKey, tuple[int, ...]],
    keys: Iterable[TableKey],
    change: Callable[[_Item, TableKey], _Item | None],
) -> tuple[immutables.Map[int, _Item], immutables.Map[TableKey, tuple[int, ...]]]:
    """``items`` with ``change`` made to those of the tables ``keys`` (``None``: left as
    they are), and ``index`` without those tables: their pairing was taken back or replaced."""
    keys = [k for k in keys if k in index]
    if not keys:
        return items, index
    changed = items.mutate()
    left = index.mutate()
    for key in keys:
        for n in left.pop(key, ()):
            done = change(changed[n], key)
            if done is not None:
                changed[n] = done
    return changed.finish(), left.finish()


def _unseat(state: Tournament, keys: Iterable[TableKey]) -> Tournament:
    """``state`` after the pairing of the tables ``keys`` was taken back or replaced: their
    open reports are void (EV-11.7), so no report of it can become a result; their calls not
    resolved stay open with the players they were made at, marked ``taken_back`` (EV-10.8).
    The tables start without reports or calls, so the new match may report and call."""
    keys = list(keys)
    reports, table_reports = _unseated(
        state.reports,
        state.table_reports,
        keys,
        lambda r, _: (
            msgspec.structs.replace(r, status="void")
            if r.status in ("pending", "disputed")
            else None
        ),
    )

    def kept(call: CallState, key: TableKey) -> CallState | None:
        # the players it was made at; a call folded before calls kept them (EV-10.8) has
        # none, and takes them from the table as it stands, before the change: the
        # players a fold of the log from the start gives it
        if call.status == "resolved":
            return None
        seated = call.players or (found.players if (found := state.tables.get(key)) else ())
        return msgspec.structs.replace(call, taken_back=True, players=seated)

    calls, table_calls = _unseated(state.calls, state.table_calls, keys, kept)
    return msgspec.structs.replace(
        state, reports=reports, table_reports=table_reports, calls=calls, table_calls=table_calls
    )


def _without_round_tables(
    state: Tournament, number: int
) -> tuple[immutables.Map[TableKey, TableState], frozenset[str]]:
    """The tables without round ``number``'s, and the games those tables had."""
    tables = state.tables.mutate()
    games: set[str] = set()
    rnd = state.rounds.get(number)
    for pairing in rnd.pairings if rnd is not None else ():
        if pairing.table is not None:
            old = tables.pop((number, pairing.table), None)
            if old is not None:
                games.update(old.games)
    return tables.finish(), frozenset(games)


def _undone(state: Tournament, number: int) -> Tournament:
    """The state with round ``number`` taken back (EV-5.13): not met, its games void."""
    replace = msgspec.structs.replace
    tables, games = _without_round_tables(state, number)
    rounds = {n: r for n, r in state.rounds.items() if n != number}
    cut = state.cut
    if state.rounds[number].kind == "cut" and not any(r.kind == "cut" for r in rounds.values()):
        cut = ()  # the first playoff round taken back takes the cut with it
    overrides = {n: o for n, o in state.overrides.items() if n != number}
    keys = [(number, p.table) for p in state.rounds[number].pairings if p.table is not None]
    state = _unseat(state, keys)
    return replace(
        state,
        rounds=rounds,
        tables=tables,
        overrides=overrides,
        voided=_with(state.voided, games),
        started=state.started - {number},
        ended_rounds=state.ended_rounds - {number},
        cut=cut,
        clocks={n: c for n, c in state.clocks.items() if n != number},  # its clock too (EV-9.2)
        # round 1 taken back takes its plan with it: the next round 1 fixes it again
        swiss_plan=None if number == 1 else state.swiss_plan,
    )


def _with(voided: immutables.Map[str, bool], games: Iterable[str]) -> immutables.Map[str, bool]:
    """``voided`` with ``games`` added."""
    added = voided.mutate()
    for game in games:
        added[game] = True
    return added.finish()


def apply(state: Tournament, fact: Fact) -> Tournament:
    """The state after ``fact`` (facts were checked when decided; this never refuses)."""
    fold = _FOLDS.get(type(fact))
    if fold is None:
        raise TypeError(f"not a tournament fact: {fact!r}")
    return fold(state, fact)


def _fold_entrants(state: Tournament, fact: Fact) -> Tournament:
    """The event itself and its players."""
    replace = msgspec.structs.replace
    match fact:
        case EventCreated(settings=settings):
            return replace(state, settings=settings)
        case PlayerRegistered(player=player):
            return replace(state, players=state.players.set(player.id, player))
        case PlayerDropped(player=player, after_round=after):
            entrant = replace(state.players[player], dropped_after=after)
            return replace(state, players=state.players.set(player, entrant))
        case EventEnded():
            return replace(state, ended=True)
        case PlayerUndropped(player=player):
            entrant = replace(state.players[player], dropped_after=None)
            return replace(state, players=state.players.set(player, entrant))
        case RatingCorrected(player=player, rating=rating):
            entrant = replace(state.players[player], rating=rating)
            return replace(state, players=state.players.set(player, entrant))
        case SettingsChanged(rounds=rounds, cut=cut):
            assert state.settings is not None
            settings = state.settings
            if rounds is not None:
                settings = replace(settings, rounds=rounds)
            if cut is not None:
                settings = replace(settings, cut=cut)
            return replace(state, settings=settings)
        case DecklistAttached():
            return state  # the list rides on the stored event (the service keeps it)
        case EventHandedOver(to=to, at=at):
            return replace(state, run_from=to, run_from_since=at)
    raise TypeError(f"not a tournament fact: {fact!r}")


def _fold_rounds(state: Tournament, fact: Fact) -> Tournament:
    """Rounds paired, started, ended and undone; byes, the cut, void games."""
    replace = msgspec.structs.replace
    match fact:
        case ByeAwarded(player=player, round=number):
            awarded = dict(state.awarded)
            awarded[number] = awarded.get(number, frozenset()) | {player}
            return replace(state, awarded=awarded)
        case RoundPaired(round=rnd, override=override, plan=plan):
            overrides = dict(state.overrides)
            if override is not None:
                overrides[rnd.number] = override
            return replace(
                state,
                rounds=state.rounds | {rnd.number: rnd},  # a kept snapshot's rounds stay unread
                tables=_round_tables(state, rnd),
                overrides=overrides,
                swiss_plan=plan if isinstance(plan, SwissPlan) else state.swiss_plan,
            )
        case PairingChanged(round=rnd, reason=reason):
            tables, void, changed = _kept_tables(state, rnd)
            return replace(
                _unseat(state, changed),
                rounds=state.rounds | {rnd.number: rnd},  # a kept snapshot's rounds stay unread
                tables=tables,
                overrides={**state.overrides, rnd.number: reason},
                voided=_with(state.voided, void),
            )
        case RoundStarted(round=number):
            return replace(state, started=state.started | {number})
        case RoundEnded(round=number):
            return replace(state, ended_rounds=state.ended_rounds | {number})
        case CutMade(seeds=seeds):
            return replace(state, cut=seeds)
        case RoundUndone(round=number):
            return _undone(state, number)
        case GamesVoided(games=games):
            return replace(state, voided=_with(state.voided, games))
    raise TypeError(f"not a tournament fact: {fact!r}")


def _fold_results(state: Tournament, fact: Fact) -> Tournament:
    """Games linked to tables, their results, match results and penalties."""
    replace = msgspec.structs.replace
    match fact:
        case GameLinked(round=number, table=table, game=game):
            current = state.tables[(number, table)]
            linked = replace(current, games=(*current.games, game))
            return replace(
                state,
                tables=_set_table(state, (number, table), linked),
                games=state.games.set(game, (number, table)),
            )
        case GameResultRecorded(game=game, placings=placings):
            key = state.games[game]
            current = state.tables[key]
            ended = replace(current, game_results=(*current.game_results, (game, placings)))
            return replace(state, tables=_set_table(state, key, ended))
        case MatchReported(round=number, table=table, score=score, placement=placement):
            current = state.tables[(number, table)]
            reported = replace(current, reported=score if score is not None else placement)
            return replace(state, tables=_set_table(state, (number, table), reported))
        case ResultCorrected(round=number, table=table, score=score, placement=placement):
            current = state.tables[(number, table)]
            fixed = replace(
                current,
                reported=score if score is not None else placement,
                corrections=current.corrections + 1,
            )
            return replace(state, tables=_set_table(state, (number, table), fixed))
        case PenaltyRecorded():
            return replace(state, penalties=(*state.penalties, fact))
        case PenaltyWithdrawn(penalty=number):
            return replace(state, withdrawn_penalties=state.withdrawn_penalties | {number})
        case PenaltyApplied(penalty=number, round=at, table=table, game=game):
            applied = {**state.applied_penalties, number: (at, table)}
            if not game:
                return replace(state, applied_penalties=applied)
            games = {**state.penalty_games, number: game}
            return replace(state, applied_penalties=applied, penalty_games=games)
    raise TypeError(f"not a tournament fact: {fact!r}")


def _fold_clock(state: Tournament, fact: Fact) -> Tournament:
    """The round clock."""
    replace = msgspec.structs.replace
    match fact:
        case RoundLengthSet(minutes=minutes):
            clocks = dict(state.clocks)
            running = state.clocks.get(state.current_round)
            if running is not None and running.ended is None:  # the round in progress too
                clocks[state.current_round] = replace(running, minutes=minutes)
            return replace(state, round_minutes=minutes, clocks=clocks)
        case ClockMarked(round=number, action=action, at=at):
            return replace(
                state, clocks={**state.clocks, number: marked(state.clock(number), action, at)}
            )
        case TimeExtended(round=number, table=table, minutes=minutes, reason=reason):
            clock = extended(state.clock(number), table, minutes, reason)
            return replace(state, clocks={**state.clocks, number: clock})
    raise TypeError(f"not a tournament fact: {fact!r}")


def _fold_calls(state: Tournament, fact: Fact) -> Tournament:
    """Judge calls."""
    replace = msgspec.structs.replace
    match fact:
        case JudgeCalled():
            key = (fact.round, fact.table)
            seated = state.tables.get(key)
            call = CallState(
                players=seated.players if seated is not None else (),
                number=fact.call,
                round=fact.round,
                table=fact.table,
                by=fact.by,
                reason=fact.reason,
                at=fact.at,
                game=fact.game,
                changed=fact.at,
            )
            return replace(
                state,
                calls=state.calls.set(fact.call, call),
                table_calls=state.table_calls.set(
                    key, (*state.table_calls.get(key, ()), fact.call)
                ),
            )
        case CallClaimed(call=number, by=by, at=at):
            held = state.calls[number]
            status = "escalated" if held.escalated else "claimed"
            claimed = replace(held, status=status, holder=by, changed=at)
            return replace(state, calls=state.calls.set(number, claimed))
        case CallEscalated(call=number, by=by, at=at, reason=why):
            raised = replace(state.calls[number], status="escalated", holder="", escalated=True,
                             changed=at, escalated_by=by, escalation=why)  # fmt: skip
            return replace(state, calls=state.calls.set(number, raised))
        case CallResolved(call=number, by=by, at=at, note=note):
            done = replace(state.calls[number], status="resolved", holder=by, changed=at, note=note)
            return replace(state, calls=state.calls.set(number, done))
    raise TypeError(f"not a tournament fact: {fact!r}")


def _fold_reports(state: Tournament, fact: Fact) -> Tournament:
    """Players' own reports of their results."""
    replace = msgspec.structs.replace
    match fact:
        case ReportFiled():
            key = (fact.round, fact.table)
            at_table = state.table_reports.get(key, ())
            reports = state.reports.mutate()
            for n in at_table:  # the player's earlier report still open
                old = state.reports[n]
                if old.player == fact.player and old.status in ("pending", "disputed"):
                    reports[n] = replace(old, status="replaced")
            reports[fact.report] = ReportState(
                number=fact.report,
                round=fact.round,
                table=fact.table,
                player=fact.player,
                score=fact.score,
                at=fact.at,
            )
            return replace(
                state,
                reports=reports.finish(),
                table_reports=state.table_reports.set(key, (*at_table, fact.report)),
            )
        case ReportConfirmed(report=number, player=who, at=at):
            new = replace(state.reports[number], status="confirmed", answered_by=who,
                          answered_at=at)  # fmt: skip
            return replace(state, reports=state.reports.set(number, new))
        case ReportDisputed(report=number, player=who, at=at, reason=why):
            new = replace(state.reports[number], status="disputed", answered_by=who,
                          answered_at=at, reason=why)  # fmt: skip
            return replace(state, reports=state.reports.set(number, new))
    raise TypeError(f"not a tournament fact: {fact!r}")


_FOLDS: dict[type, Callable[[Tournament, Any], Tournament]] = {
    EventCreated: _fold_entrants,
    PlayerRegistered: _fold_entrants,
    PlayerDropped: _fold_entrants,
    PlayerUndropped: _fold_entrants,
    RatingCorrected: _fold_entrants,
    SettingsChanged: _fold_entrants,
    EventEnded: _fold_entrants,
    EventHandedOver: _fold_entrants,
    DecklistAttached: _fold_entrants,
    ByeAwarded: _fold_rounds,
    RoundPaired: _fold_rounds,
    PairingChanged: _fold_rounds,
    RoundStarted: _fold_rounds,
    RoundEnded: _fold_rounds,
    CutMade: _fold_rounds,
    RoundUndone: _fold_rounds,
    GamesVoided: _fold_rounds,
    GameLinked: _fold_results,
    GameResultRecorded: _fold_results,
    MatchReported: _fold_results,
    ResultCorrected: _fold_results,
    PenaltyRecorded: _fold_results,
    PenaltyWithdrawn: _fold_results,
    PenaltyApplied: _fold_results,
    RoundLengthSet: _fold_clock,
    ClockMarked: _fold_clock,
    TimeExtended: _fold_clock,
    JudgeCalled: _fold_calls,
    CallClaimed: _fold_calls,
    CallEscalated: _fold_calls,
    CallResolved: _fold_calls,
    ReportFiled: _fold_reports,
    ReportConfirmed: _fold_reports,
    ReportDisputed: _fold_reports,
}
"""The fold of each fact, by its type."""


class _Run:
    """A run of facts that each set entries of the event's maps (a registration, a game
    linked or voided, a result), folded into mutable copies of those maps and made a
    ``Tournament`` once at the run's end: the same state as ``apply`` fact by fact, less a
    new ``Tournament`` and a path of each map per fact (a 10,000-player event in round 9
    holds 125,000 such facts of its 135,000, so a posting's check folds them in turn)."""

    __slots__ = ("games", "players", "state", "tables", "voided")

    def __init__(self, state: Tournament) -> None:
        self.state = state
        self.players: immutables.MapMutation[str, Entrant] | None = None
        self.tables: immutables.MapMutation[TableKey, TableState] | None = None
        self.games: immutables.MapMutation[str, TableKey] | None = None
        self.voided: immutables.MapMutation[str, bool] | None = None

    def finish(self) -> Tournament:
        """The state after the run: only the maps it set are new."""
        changed: dict[str, Any] = {}
        for name in self.__slots__:
            if name != "state" and (mutation := getattr(self, name)) is not None:
                changed[name] = mutation.finish()
        return msgspec.structs.replace(self.state, **changed) if changed else self.state


def _run_registered(run: _Run, fact: PlayerRegistered) -> None:
    if run.players is None:
        run.players = run.state.players.mutate()
    run.players[fact.player.id] = fact.player


def _run_linked(run: _Run, fact: GameLinked) -> None:
    tables = run.tables if run.tables is not None else _run_tables(run)
    key = (fact.round, fact.table)
    current = tables[key]
    tables[key] = msgspec.structs.replace(current, games=(*current.games, fact.game))
    if run.games is None:
        run.games = run.state.games.mutate()
    run.games[fact.game] = key


def _run_game_result(run: _Run, fact: GameResultRecorded) -> None:
    tables = run.tables if run.tables is not None else _run_tables(run)
    key = (run.games if run.games is not None else run.state.games)[fact.game]
    current = tables[key]
    results = (*current.game_results, (fact.game, fact.placings))
    tables[key] = msgspec.structs.replace(current, game_results=results)


def _run_reported(run: _Run, fact: MatchReported) -> None:
    tables = run.tables if run.tables is not None else _run_tables(run)
    key = (fact.round, fact.table)
    result = fact.score if fact.score is not None else fact.placement
    tables[key] = msgspec.structs.replace(tables[key], reported=result)


def _run_corrected(run: _Run, fact: ResultCorrected) -> None:
    tables = run.tables if run.tables is not None else _run_tables(run)
    key = (fact.round, fact.table)
    current = tables[key]
    result = fact.score if fact.score is not None else fact.placement
    tables[key] = msgspec.structs.replace(
        current, reported=result, corrections=current.corrections + 1
    )


def _run_voided(run: _Run, fact: GamesVoided) -> None:
    if run.voided is None:
        run.voided = run.state.voided.mutate()
    for game in fact.games:
        run.voided[game] = True


def _run_tables(run: _Run) -> immutables.MapMutation[TableKey, TableState]:
    run.tables = run.state.tables.mutate()
    return run.tables


RUN_STEPS: dict[type, Callable[[_Run, Any], None]] = {
    PlayerRegistered: _run_registered,
    GameLinked: _run_linked,
    GameResultRecorded: _run_game_result,
    MatchReported: _run_reported,
    ResultCorrected: _run_corrected,
    GamesVoided: _run_voided,
}
"""The facts folded in a run (``_Run``), by type, each the same as its fold in ``_FOLDS``;
each step reads only its fact's own fields, by name."""


def fold(facts: Iterable[Fact], state: Tournament | None = None) -> Tournament:
    """The state after every fact in order (``apply`` of each; runs of facts that only set
    map entries are folded together, ``_Run``)."""
    return fold_carried(facts, RUN_STEPS, _itself, state)


def _itself(fact: Any) -> Fact:
    found: Fact = fact
    return found


def fold_carried(
    items: Iterable[Any],
    steps: Mapping[type, Callable[[_Run, Any], None]],
    fact_of: Callable[[Any], Fact],
    state: Tournament | None = None,
) -> Tournament:
    """``fold(fact_of(item) for item in items)``, where an item of a type in ``steps`` (the
    step of ``RUN_STEPS`` for its fact's type) carries its fact's fields itself, by the same
    names and values, and is folded without making its fact: a stored event of the store's
    tournament stream (``events.tournament.fold_stored``)."""
    current = state or Tournament()
    run: _Run | None = None
    for item in items:
        step = steps.get(type(item))
        if step is not None:
            if run is None:
                run = _Run(current)
            step(run, item)
            continue
        if run is not None:
            current, run = run.finish(), None
        current = apply(current, fact_of(item))
    return run.finish() if run is not None else current
