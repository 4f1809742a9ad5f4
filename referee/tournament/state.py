"""The tournament as folded from its facts: a pure reducer and the reads built on it.

``apply(state, fact)`` returns a new ``Tournament``; only the containers a fact
changes are copied, so folding an event is linear in its facts for the most
part. Reads answer what decisions and faces ask: who is active, whether a round
is open, each table's final result (a reported slip, else what the linked games
decided), the standings, and the seats for the next pairing.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from referee.tournament.facts import (
    ByeAwarded,
    CutMade,
    EventCreated,
    EventEnded,
    Fact,
    GameLinked,
    GameResultRecorded,
    MatchReported,
    PairingChanged,
    PenaltyRecorded,
    PlayerDropped,
    PlayerRegistered,
    ResultCorrected,
    RoundEnded,
    RoundPaired,
    RoundStarted,
)
from referee.tournament.model import (
    Entrant,
    Placement,
    Round,
    Score,
    Settings,
    TableKey,
    games_to_win,
)
from referee.tournament.pairing import Seat
from referee.tournament.rounds import default_rounds, effective_players
from referee.tournament.standings import MatchResult, Standing, compute_standings, explain

__all__ = ["TableState", "Tournament", "apply", "fold"]

Result = Score | Placement


class TableState(msgspec.Struct, frozen=True, kw_only=True):
    """A table of a paired round: its games and what was reported or corrected."""

    round: int
    table: int
    players: tuple[str, ...]
    games: tuple[str, ...] = ()
    game_results: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    reported: Result | None = None
    corrections: int = 0


class Tournament(msgspec.Struct, frozen=True, kw_only=True):
    """Everything decided so far. Build it with ``fold(facts)``."""

    settings: Settings | None = None
    players: dict[str, Entrant] = {}
    rounds: dict[int, Round] = {}
    overrides: dict[int, str] = {}
    tables: dict[TableKey, TableState] = {}
    games: dict[str, TableKey] = {}
    awarded: dict[int, frozenset[str]] = {}
    penalties: tuple[PenaltyRecorded, ...] = ()
    started: frozenset[int] = frozenset()
    ended_rounds: frozenset[int] = frozenset()
    cut: tuple[str, ...] = ()
    ended: bool = False

    # -- players

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
        ordered = sorted(self.players.values(), key=lambda e: e.order)
        return [e for e in ordered if e.active_in(round_number)]

    # -- rounds and tables

    @property
    def current_round(self) -> int:
        return max(self.rounds, default=0)

    def result(self, round_number: int, table: int) -> Result | None:
        """The table's final result: the slip or correction, else the games' verdict."""
        state = self.tables.get((round_number, table))
        if state is None:
            return None
        if state.reported is not None:
            return state.reported
        return self.decided_by_games(state)

    def decided_by_games(self, state: TableState) -> Result | None:
        """What the linked games decided, if they decided the match (EV-3.8)."""
        if not state.game_results:
            return None
        if len(state.players) != 2:
            return Placement(state.game_results[0][1])
        first, second = state.players
        wins = losses = draws = 0
        for _, placings in state.game_results:
            places = dict(placings)
            if places.get(first) == places.get(second):
                draws += 1
            elif places.get(first, 99) < places.get(second, 99):
                wins += 1
            else:
                losses += 1
        assert self.settings is not None
        need = games_to_win(self.settings.match)
        if wins >= need or losses >= need:
            return Score(wins, losses, draws)
        return None

    def open_round(self) -> int | None:
        """The latest round if some table still lacks a final result (EV-5.10)."""
        number = self.current_round
        if not number:
            return None
        for pairing in self.rounds[number].pairings:
            if pairing.table is not None and self.result(number, pairing.table) is None:
                return number
        return None

    def kind_rounds(self, *kinds: str) -> list[Round]:
        return [self.rounds[n] for n in sorted(self.rounds) if self.rounds[n].kind in kinds]

    def planned_swiss_rounds(self) -> int:
        """Swiss (or pod) rounds to play: the setting, else the default table (EV-1.3)."""
        assert self.settings is not None
        if self.settings.rounds is not None:
            return self.settings.rounds
        starters = [e.byes for e in self.players.values() if e.entry_round == 1]
        return default_rounds(effective_players(starters))

    # -- standings

    def match_results(self, after_round: int | None = None) -> dict[TableKey, MatchResult]:
        """Final results of the Swiss, round-robin and pod rounds, byes included (EV-6.5)."""
        out: dict[TableKey, MatchResult] = {}
        for number, rnd in self.rounds.items():
            if rnd.kind in ("cut", "elimination"):
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
        for rnd in self.rounds.values():
            if rnd.kind in ("cut", "elimination"):
                continue
            for pairing in rnd.pairings:
                if pairing.bye:
                    byes[pairing.players[0]] += 1
                for p in pairing.players:
                    met[p].update(q for q in pairing.players if q != p)
        return met, byes

    def awarded_in(self, round_number: int) -> list[str]:
        """Players with an awarded bye in ``round_number`` (EV-2.4)."""
        extra = self.awarded.get(round_number, frozenset())
        return [
            e.id
            for e in self.active(round_number)
            if e.awarded_bye_in(round_number) or e.id in extra
        ]

    def final_ranking(self, swiss: Iterable[str]) -> list[str]:
        """Every player in final order once a cut is made (EV-I.9, MTR): the cut players
        by how far they went in the playoff (the champion, the finalist, the semi-final
        losers, ...), those who went equally far by their Swiss standing; then everyone
        else in Swiss order. ``swiss`` is the player ids in Swiss standing order. Empty
        before the cut."""
        if not self.cut:
            return []
        order = list(swiss)
        position = {p: i for i, p in enumerate(order)}
        reached = dict.fromkeys(self.cut, 0)
        won: dict[str, int] = {}
        for number in sorted(self.rounds):
            rnd = self.rounds[number]
            if rnd.kind != "cut":
                continue
            for pairing in rnd.pairings:
                for player in pairing.players:
                    reached[player] = number
                result = self.result(number, pairing.table) if pairing.table is not None else None
                if isinstance(result, Score) and result.winner is not None:
                    won[pairing.players[result.winner]] = number

        def how_far(player: str) -> tuple[int, int, int]:
            last = reached[player]
            return (-last, 0 if last and won.get(player) == last else 1, position[player])

        cut = sorted((p for p in self.cut if p in position), key=how_far)
        return cut + [p for p in order if p not in reached]

    def seats(self, round_number: int) -> list[Seat]:
        """Everyone active in ``round_number``, best first, as the pairing sees them.

        Round 1 (nothing played): by rating, highest first, where ratings are
        given, then registration order (EV-5.6). Later: the current standings.
        """
        active = {e.id: e for e in self.active(round_number)}
        met, byes = self.history()
        played = any(r.kind not in ("cut", "elimination") for r in self.rounds.values())
        if played:
            standing = self.standings()
            order = [s.player for s in standing if s.player in active]
            points = {s.player: s.points for s in standing}
        else:
            order = sorted(
                active,
                key=lambda p: (
                    active[p].rating is None,
                    -(active[p].rating or 0),
                    active[p].order,
                ),
            )
            points = {}
        return [
            Seat(
                id=p,
                points=points.get(p, 0),
                opponents=frozenset(met[p]),
                byes=byes[p],
                table=active[p].table,
            )
            for p in order
        ]


def _set_table(state: Tournament, key: TableKey, table: TableState) -> dict[TableKey, TableState]:
    tables = dict(state.tables)
    tables[key] = table
    return tables


def _round_tables(state: Tournament, rnd: Round) -> dict[TableKey, TableState]:
    tables = {k: v for k, v in state.tables.items() if k[0] != rnd.number}
    for pairing in rnd.pairings:
        if pairing.table is not None:
            tables[(rnd.number, pairing.table)] = TableState(
                round=rnd.number, table=pairing.table, players=pairing.players
            )
    return tables


def apply(state: Tournament, fact: Fact) -> Tournament:
    """The state after ``fact`` (facts were checked when decided; this never refuses)."""
    replace = msgspec.structs.replace
    match fact:
        case EventCreated(settings=settings):
            return replace(state, settings=settings)
        case PlayerRegistered(player=player):
            return replace(state, players={**state.players, player.id: player})
        case PlayerDropped(player=player, after_round=after):
            entrant = replace(state.players[player], dropped_after=after)
            return replace(state, players={**state.players, player: entrant})
        case ByeAwarded(player=player, round=number):
            awarded = dict(state.awarded)
            awarded[number] = awarded.get(number, frozenset()) | {player}
            return replace(state, awarded=awarded)
        case RoundPaired(round=rnd, override=override):
            overrides = dict(state.overrides)
            if override is not None:
                overrides[rnd.number] = override
            return replace(
                state,
                rounds={**state.rounds, rnd.number: rnd},
                tables=_round_tables(state, rnd),
                overrides=overrides,
            )
        case PairingChanged(round=rnd, reason=reason):
            return replace(
                state,
                rounds={**state.rounds, rnd.number: rnd},
                tables=_round_tables(state, rnd),
                overrides={**state.overrides, rnd.number: reason},
            )
        case GameLinked(round=number, table=table, game=game):
            current = state.tables[(number, table)]
            linked = replace(current, games=(*current.games, game))
            return replace(
                state,
                tables=_set_table(state, (number, table), linked),
                games={**state.games, game: (number, table)},
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
        case RoundStarted(round=number):
            return replace(state, started=state.started | {number})
        case RoundEnded(round=number):
            return replace(state, ended_rounds=state.ended_rounds | {number})
        case CutMade(seeds=seeds):
            return replace(state, cut=seeds)
        case EventEnded():
            return replace(state, ended=True)
    raise TypeError(f"not a tournament fact: {fact!r}")


def fold(facts: Iterable[Fact], state: Tournament | None = None) -> Tournament:
    """The state after every fact in order."""
    current = state or Tournament()
    for fact in facts:
        current = apply(current, fact)
    return current
