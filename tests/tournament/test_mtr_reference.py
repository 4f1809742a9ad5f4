"""The project's standings agree with an independent reading of the MTR (3.1, Appendix C):
random events -- 2 to 40 players, 1 to 8 rounds, random pairings with byes for odd counts,
every slip the match length allows (2-0, 2-1, 1-1, 1-1-1, 0-0-3, 0-0-0 intentional draws,
game and match losses being games lost), drops after any round, late entries starting with
nothing (EV-I.6) or with match losses (EV-2.9) -- are scored by ``compute_standings`` and by
``tests/tournament/mtr_reference.py``, and every player's match points, record, MW%, GW%,
OMW%, OGW%, rank and the whole order must be equal (EV-4.1 to EV-4.7, EV-I.1 to EV-I.3,
EV-I.5, EV-I.6). The reference takes the project's interpretations as parameters where the
MTR leaves room (the floor, EV-I.1), so a difference is one of arithmetic, not reading.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.tournament import (
    CreateEvent,
    Drop,
    Entrant,
    LinkGame,
    MatchResult,
    PairNext,
    RecordGameResult,
    RecordPenalty,
    Register,
    ReportResult,
    Score,
    Settings,
    Tournament,
    compute_standings,
)
from referee.tournament.model import games_to_win
from referee.tournament.standings import Standings, advanced, table_of
from tests.tournament import mtr_reference as mtr
from tests.tournament.helpers import run
from tests.tournament.helpers import slips as every_slip

FORMATS = {"bo1": 1, "bo3": 2, "bo5": 3}


@dataclass(frozen=True)
class Event:
    match: str
    floor: str
    missed: str  # EV-I.12: a missed round lost 0-2, or by the games the match needs
    rounds: int
    entrants: tuple[Entrant, ...]
    outcomes: tuple[mtr.Outcome, ...]
    after_round: int | None
    # the incremental table's inputs: the order results arrive in, and which of them are
    # first reported wrong (the bye-less slip swapped) and then corrected (EV-8.1)
    arrival: tuple[int, ...]
    corrected: frozenset[int]


@st.composite
def events(draw: st.DrawFn, most_players: int = 40) -> Event:
    match = draw(st.sampled_from(sorted(FORMATS)))
    slips = every_slip(FORMATS[match])
    # the usual slips weigh more, so decided matches dominate as in a real event
    common = [s for s in [(2, 0, 0), (2, 1, 0), (1, 1, 1), (1, 1, 0), (0, 0, 3)] if s in slips]
    rounds = draw(st.integers(1, 8))
    count = draw(st.integers(2, most_players))
    entrants = []
    for order in range(count):
        late = draw(st.sampled_from([1] * 5 + list(range(1, rounds + 1))))
        as_losses = late > 1 and draw(st.booleans())
        # late - 1: gone before their first round, having played nothing (EV-I.3)
        dropped = draw(st.none() | st.integers(late - 1, rounds))
        entrants.append(
            Entrant(
                id=f"p{order}",
                name=f"P{order}",
                order=order,
                entry_round=late,
                dropped_after=dropped,
                late_as_losses=True if as_losses else msgspec.UNSET,
            )
        )
    missed = draw(st.sampled_from(["0-2", "match"]))
    lost_by = games_to_win(match) if missed == "match" else 2  # type: ignore[arg-type]
    outcomes: list[mtr.Outcome] = []
    for entrant in entrants:
        if entrant.late_as_losses is True:
            outcomes += [
                mtr.MissedLoss(n, entrant.id, lost_by) for n in range(1, entrant.entry_round)
            ]
    for number in range(1, rounds + 1):
        active = [e.id for e in entrants if e.active_in(number)]
        active = draw(st.permutations(active))
        if len(active) % 2:
            outcomes.append(mtr.Bye(number, active.pop()))
        for first, second in zip(active[::2], active[1::2], strict=True):
            a, b, d = draw(st.sampled_from(common * 3 + slips))
            outcomes.append(mtr.Played(number, first, second, a, b, d))
    after = draw(st.none() | st.integers(1, rounds))
    floor = draw(st.sampled_from(["1/3", "0.33"]))
    arrival = tuple(draw(st.permutations(range(len(outcomes)))))
    corrected = frozenset(draw(st.sets(st.sampled_from(arrival))) if arrival else ())
    return Event(
        match, floor, missed, rounds, tuple(entrants), tuple(outcomes), after, arrival, corrected
    )


def _project_result(outcome: mtr.Outcome) -> MatchResult:
    if isinstance(outcome, mtr.Bye):
        return MatchResult(round=outcome.round, players=(outcome.player,), bye=True)
    if isinstance(outcome, mtr.MissedLoss):
        return MatchResult(round=outcome.round, players=(outcome.player,), loss=True)
    score = Score(outcome.first_wins, outcome.second_wins, outcome.draws)
    return MatchResult(round=outcome.round, players=(outcome.first, outcome.second), score=score)


def _player_of(outcome: mtr.Outcome) -> str:
    return outcome.first if isinstance(outcome, mtr.Played) else outcome.player


def _check(event: Event) -> None:
    game_settings = Settings(
        game="prizmik",
        match=event.match,  # type: ignore[arg-type]
        floor=event.floor,  # type: ignore[arg-type]
        missed_losses=event.missed,  # type: ignore[arg-type]
    )
    got = compute_standings(
        event.entrants,
        [_project_result(o) for o in event.outcomes],
        game_settings,
        after_round=event.after_round,
    )
    last = event.after_round if event.after_round is not None else event.rounds
    players = [e.id for e in event.entrants if e.entry_round <= last]
    want = mtr.standings(
        players,
        # a late entry's losses for rounds missed belong to a player not yet entered there
        [o for o in event.outcomes if o.round <= last and _player_of(o) in players],
        floor=mtr.ONE_THIRD if event.floor == "1/3" else mtr.PRINTED,
    )
    assert [s.player for s in got] == [line.player for line in want]
    for line, mine in zip(got, want, strict=True):
        record = line.record
        assert (line.player, line.points, line.rank) == (mine.player, mine.match_points, mine.rank)
        assert (record.wins, record.losses, record.draws, record.byes) == (
            mine.wins,
            mine.losses,
            mine.draws,
            mine.byes,
        ), line.player
        figures = tuple(Fraction(x) for x in (line.mw, line.gw, line.omw, line.ogw))
        assert figures == (mine.mw, mine.gw, mine.omw, mine.ogw), line.player
    if event.after_round is None:
        # the table the service keeps current (one result at a time, corrections included)
        # lists exactly the same lines
        table = Standings(game_settings, event.entrants)
        for index in event.arrival:
            result = _project_result(event.outcomes[index])
            if index in event.corrected and result.score is not None:
                table.record(
                    (result.round, index),
                    msgspec.structs.replace(result, score=result.score.flipped()),
                )
            table.record((result.round, index), result)
        assert table.table() == got
        # and the service's kept counts, moved by the rest of the results in one pass
        results = {(o.round, i): _project_result(o) for i, o in enumerate(event.outcomes)}
        half = dict(list(results.items())[: len(results) // 2])
        kept = Standings.built(game_settings, event.entrants, half).counts()
        rest = {k: r for k, r in results.items() if k not in half}
        moved = advanced(kept, game_settings, event.entrants, rest)
        assert table_of(moved, game_settings, event.entrants) == got


@given(events(most_players=16))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_standings_agree_with_the_mtr_reference_quick(event: Event) -> None:
    """EV-4.1 to EV-4.7 against MTR 3.1 and Appendix C, small events (quick loop)."""
    _check(event)


@pytest.mark.slow
@given(events())
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_standings_agree_with_the_mtr_reference(event: Event) -> None:
    """EV-4.1 to EV-4.7 against MTR 3.1 and Appendix C, up to 40 players and 8 rounds."""
    _check(event)


@st.composite
def played_events(draw: st.DrawFn) -> tuple[Tournament, list[mtr.Outcome], list[str]]:
    """An event run through ``decide``: players registered (some with awarded byes, EV-2.4),
    late entries before any round (with match losses or not, EV-2.9, EV-I.6), every table
    reported with a random slip, intentional draws as 0-0-0 (EV-3.4), a slip counting a game
    loss given to one of its players, its game recorded before the slip or not (EV-3.10), or
    decided by a match loss (EV-8.6), and drops after any
    round (EV-2.5). Returns the state, the outcomes as this test saw them happen, and the
    players in order."""
    rounds = draw(st.integers(1, 5))
    names = [f"N{i}" for i in range(draw(st.integers(2, 12)))]
    state = run(Tournament(), CreateEvent(settings=Settings(game="prizmik", rounds=rounds)))
    state = run(
        state, *(Register(name=n, byes=draw(st.sampled_from([0] * 6 + [1, 2]))) for n in names)
    )
    outcomes: list[mtr.Outcome] = []
    slips = every_slip(2)
    for number in range(1, rounds + 1):
        if number > 1:
            for _ in range(draw(st.integers(0, 2))):
                name = f"L{len(names)}"
                as_losses = draw(st.booleans())
                state = run(state, Register(name=name, late_as_losses=as_losses))
                names.append(name)
                if as_losses:
                    player = _id(state, name)
                    outcomes += [mtr.MissedLoss(n, player) for n in range(1, number)]
        state = run(state, PairNext())
        for pairing in state.rounds[number].pairings:
            if pairing.bye:
                outcomes.append(mtr.Bye(number, pairing.players[0]))
                continue
            assert pairing.table is not None
            first, second = pairing.players
            how = draw(st.sampled_from(["slip"] * 6 + ["match-loss", "game-loss"]))
            if how == "slip":
                a, b, d = draw(st.sampled_from(slips))
            else:
                loser = draw(st.sampled_from([first, second]))
                if how == "game-loss":
                    # the penalty ends the game in progress as a loss (EV-8.6, IPG 1.2); the
                    # slip then counts that game as one the penalized player lost (EV-3.10)
                    game = f"g{number}-{pairing.table}"
                    state = run(state, LinkGame(round=number, table=pairing.table, game=game))
                state = run(
                    state,
                    RecordPenalty(
                        player=state.players[loser].name,
                        infraction="outside-assistance",
                        penalty=how,  # type: ignore[arg-type]
                    ),
                )
                if how == "game-loss":
                    other = second if loser == first else first
                    placings = {state.players[loser].name: 2, state.players[other].name: 1}
                    # the game's end may reach the table after the slip: the slip counts
                    # the game loss all the same (EV-3.10)
                    if draw(st.booleans()):
                        state = run(state, RecordGameResult(game=game, placings=placings))
                    a, b, d = draw(
                        st.sampled_from([x for x in slips if x[0 if other == first else 1]])
                    )
                else:
                    # a match loss: lost by the games the match needs, 0-2 (EV-8.6, EV-I.12)
                    a, b, d = (0, 2, 0) if loser == first else (2, 0, 0)
            if how != "match-loss":
                state = run(
                    state, ReportResult(round=number, table=pairing.table, slip=f"{a}-{b}-{d}")
                )
            outcomes.append(mtr.Played(number, first, second, a, b, d))
        if number < rounds:
            for player in draw(st.sets(st.sampled_from(sorted(state.players)), max_size=2)):
                staying = [e for e in state.players.values() if e.dropped_after is None]
                if state.players[player].dropped_after is None and len(staying) > 2:
                    state = run(state, Drop(player=state.players[player].name))
    return state, outcomes, [_id(state, n) for n in names]


def _id(state: Tournament, name: str) -> str:
    return next(p for p, e in state.players.items() if e.name == name)


@given(played_events())
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_an_event_played_through_decide_agrees_with_the_mtr_reference(
    played: tuple[Tournament, list[mtr.Outcome], list[str]],
) -> None:
    """The standings of an event run command by command (awarded byes, late entries, match
    losses from penalties, intentional draws, drops) are the MTR's, now and after each
    round (EV-4.1 to EV-4.7,
    EV-2.4, EV-2.5, EV-2.9, EV-8.6)."""
    state, outcomes, players = played
    last = state.current_round
    for after in [None, *range(1, last)]:  # and as they stood after each round (EV-4.7)
        upto = last if after is None else after
        entered = [p for p in players if state.players[p].entry_round <= upto]
        counted = [o for o in outcomes if o.round <= upto and _player_of(o) in entered]
        want = mtr.standings(entered, counted)
        got = state.standings(after_round=after)
        assert [s.player for s in got] == [line.player for line in want], after
        for line, mine in zip(got, want, strict=True):
            assert (line.points, line.rank) == (mine.match_points, mine.rank), line.player
            figures = tuple(Fraction(x) for x in (line.mw, line.gw, line.omw, line.ogw))
            assert figures == (mine.mw, mine.gw, mine.omw, mine.ogw), (after, line.player)
