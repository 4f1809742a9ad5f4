"""The interpretations and the remaining rules, each pinned by a case that could go the
other way (EV-1.2, EV-5.6, EV-5.8, EV-6.5, EV-8.3, EV-I.1, EV-I.3, EV-I.6, EV-I.8,
EV-I.12)."""

from __future__ import annotations

from fractions import Fraction

import msgspec

from referee.tournament import (
    AwardBye,
    CorrectResult,
    CreateEvent,
    Drop,
    Entrant,
    MatchResult,
    PairNext,
    RecordPenalty,
    Register,
    ReportResult,
    Score,
    Settings,
    Tournament,
    compute_standings,
    decide,
    games_to_win,
)
from referee.tournament.facts import MatchReported
from tests.tournament.helpers import refused, run


def test_match_lengths() -> None:
    """EV-1.2: one, two or three game wins take a bo1, bo3, bo5 match."""
    assert [games_to_win("bo1"), games_to_win("bo3"), games_to_win("bo5")] == [1, 2, 3]


def test_round_one_by_rating_then_registration() -> None:
    """EV-5.6: round 1 seats by rating (highest first), unrated after, then registration;
    the top half meets the bottom half."""
    state = run(Tournament(), CreateEvent(settings=Settings(game="x")))
    state = run(
        state,
        Register(name="Low", rating=1000),
        Register(name="Unrated"),
        Register(name="High", rating=2000),
        Register(name="Mid", rating=1500),
    )
    seats = [s.id for s in state.seats(1)]
    assert seats == ["p3", "p4", "p1", "p2"]
    state = run(state, PairNext())
    assert state.rounds[1].table(1).players == ("p3", "p1")  # type: ignore[union-attr]


def test_dropped_players_are_not_paired_but_still_count_as_met() -> None:
    """EV-5.8 and EV-2.5: a dropped player is not paired and still counts for former opponents."""
    state = run(Tournament(), CreateEvent(settings=Settings(game="x")))
    state = run(state, *(Register(name=n) for n in ("A", "B", "C", "D", "E")), PairNext())
    for pairing in state.rounds[1].pairings:
        if pairing.table is not None:
            state = run(state, ReportResult(round=1, table=pairing.table, slip="2-0"))
    loser = state.rounds[1].table(1).players[1]  # type: ignore[union-attr]
    winner = state.rounds[1].table(1).players[0]  # type: ignore[union-attr]
    state = run(state, Drop(player=loser), PairNext())
    assert loser not in state.rounds[2].players()
    line = next(s for s in state.standings() if s.player == winner)
    assert line.omw == "1/3"  # the dropped 0-1 opponent, at the floor, still counts


def swiss_played_before_a_cut() -> Tournament:
    """Eight players, two Swiss rounds before a top-4 cut, every first-listed player
    winning 2-1: the cut is next."""
    state = run(Tournament(), CreateEvent(settings=Settings(game="x", rounds=2, cut=4)))
    state = run(state, *(Register(name=f"P{i}") for i in range(8)))
    for _ in range(2):
        state = run(state, PairNext())
        for pairing in state.rounds[state.current_round].pairings:
            if pairing.table is not None:
                state = run(
                    state, ReportResult(round=state.current_round, table=pairing.table, slip="2-1")
                )
    return state


def test_playoffs_do_not_change_the_swiss_standings() -> None:
    """EV-6.5: cut results leave the standings as they were after the Swiss rounds;
    EV-8.3: a correction that changes a playoff winner is refused once the next bracket round
    is paired from it."""
    state = swiss_played_before_a_cut()
    before = state.standings()
    state = run(state, PairNext())
    for table in (1, 2):
        state = run(state, ReportResult(round=3, table=table, slip="0-2"))
    assert state.standings() == before
    state = run(state, PairNext())
    assert refused(state, CorrectResult(round=3, table=1, slip="2-0", reason="misread")) == "EV-8.3"
    # a correction that keeps the winner is fine
    state = run(state, CorrectResult(round=3, table=1, slip="1-2", reason="game count"))


def test_floor_is_exactly_one_third_unless_the_variant() -> None:
    """EV-I.1: one win in three is exactly on the floor with 1/3; with floor=0.33 the raw 1/3
    is above 33/100 and stays 1/3, while 0/3 becomes 33/100."""
    people = [Entrant(id=p, name=p, order=i) for i, p in enumerate("abcd")]
    results = [
        MatchResult(round=1, players=("a", "b"), score=Score(2, 0)),
        MatchResult(round=2, players=("a", "c"), score=Score(0, 2)),
        MatchResult(round=3, players=("a", "d"), score=Score(0, 2)),
    ]
    exact = {s.player: s for s in compute_standings(people, results, Settings(game="x"))}
    printed = {
        s.player: s for s in compute_standings(people, results, Settings(game="x", floor="0.33"))
    }
    assert exact["a"].mw == printed["a"].mw == "1/3"
    assert exact["b"].mw == "1/3"
    assert printed["b"].mw == "33/100"


def test_nothing_played_gives_the_floor() -> None:
    """EV-I.3: an intentional draw 0-0-0 gives no games, so the game figure is the floor;
    a player who has met nobody has the floor as opponents' figures."""
    people = [Entrant(id=p, name=p, order=i) for i, p in enumerate("abc")]
    results = [MatchResult(round=1, players=("a", "b"), score=Score(0, 0, 0))]
    lines = {s.player: s for s in compute_standings(people, results, Settings(game="x"))}
    assert lines["a"].points == 1
    assert lines["a"].gw == "1/3"
    assert lines["c"].omw == "1/3"
    assert lines["c"].ogw == "1/3"


def test_late_entry_missed_rounds_are_not_played() -> None:
    """EV-I.6: a late entry has no points for missed rounds, and they do not count as played:
    one win from one round is MW 1/1."""
    state = run(Tournament(), CreateEvent(settings=Settings(game="x")))
    state = run(state, *(Register(name=n) for n in ("A", "B", "C", "D")), PairNext())
    for table in (1, 2):
        state = run(state, ReportResult(round=1, table=table, slip="2-0"))
    state = run(state, Register(name="Late"), Register(name="Later"), PairNext())
    late = state.find("Late")
    seat = next(p for p in state.rounds[2].pairings if late in p.players)
    assert seat.table is not None
    slip = "2-0" if seat.players[0] == late else "0-2"
    state = run(state, ReportResult(round=2, table=seat.table, slip=slip))
    line = next(s for s in state.standings() if s.player == late)
    assert line.points == 3
    assert Fraction(line.mw) == 1


def test_awarded_bye_counts_as_a_bye_for_the_odd_bye() -> None:
    """EV-I.8 and EV-5.5: a player who had an awarded bye does not get the odd-count bye while
    another player can take it, even standing last."""
    state = run(Tournament(), CreateEvent(settings=Settings(game="x")))
    state = run(state, *(Register(name=n) for n in ("A", "B", "C", "D", "E", "F")))
    state = run(state, AwardBye(player="A", round=1), PairNext())
    assert any(p.bye and p.players == ("p1",) for p in state.rounds[1].pairings)
    for pairing in state.rounds[1].pairings:
        if pairing.table is not None:
            state = run(state, ReportResult(round=1, table=pairing.table, slip="2-0"))
    # make A the lowest: it cannot get the odd bye in round 2 (5 of 6 play: A + 5 → 6 even)
    state = run(state, Drop(player="B"), PairNext())
    byes = [p.players[0] for p in state.rounds[2].pairings if p.bye]
    assert byes
    assert "p1" not in byes


def test_final_ranking_after_a_cut() -> None:
    """EV-I.9 (MTR): cut players rank by how far they went, then by Swiss standing; the
    rest follow in Swiss order; the Swiss ranks themselves are untouched (EV-6.5)."""
    state = swiss_played_before_a_cut()
    swiss = [s.player for s in state.standings()]
    assert state.final_ranking(swiss) == []  # no cut yet
    state = run(state, PairNext())
    seeds = list(state.cut)
    assert seeds == swiss[:4]
    # the semi-finals: 1 v 4 and 2 v 3; the lower seeds win both
    for pairing in state.rounds[3].pairings:
        assert pairing.table is not None
        state = run(state, ReportResult(round=3, table=pairing.table, slip="0-2"))
    mid = state.final_ranking(swiss)
    finalists = sorted((seeds[3], seeds[2]), key=swiss.index)
    losers = sorted((seeds[0], seeds[1]), key=swiss.index)
    assert mid == [*finalists, *losers, *swiss[4:]]  # the final not played yet
    state = run(state, PairNext())
    (final,) = state.rounds[4].pairings
    assert final.table is not None
    state = run(state, ReportResult(round=4, table=final.table, slip="0-2"))
    champion, runner_up = final.players[1], final.players[0]
    assert state.final_ranking(swiss) == [champion, runner_up, *losers, *swiss[4:]]
    assert [s.player for s in state.standings()] == swiss


def test_a_match_lost_without_play_by_the_games_it_needs_or_a_missed_round_0_2() -> None:
    """EV-I.12: a late entry's missed round is lost 0-2 whatever the match length, the
    mirror of a bye; with missed_losses=match, by the games the match needs. In best of
    one, a missed round then a 1-0 win is GW 3/9 = 1/3 by default, 3/6 = 1/2 with the
    variant. A penalty's match loss is always by the games the match needs (EV-8.6): 0-3
    in best of five. In a pod event the missed round is nothing of the bye's 9 possible."""
    people = [Entrant(id=p, name=p, order=i) for i, p in enumerate("ab")]
    results = [
        MatchResult(round=1, players=("a",), loss=True),
        MatchResult(round=2, players=("a", "b"), score=Score(1, 0)),
    ]
    mirror = {
        s.player: s for s in compute_standings(people, results, Settings(game="x", match="bo1"))
    }
    needed = Settings(game="x", match="bo1", missed_losses="match")
    by_match = {s.player: s for s in compute_standings(people, results, needed)}
    assert (mirror["a"].gw, by_match["a"].gw) == ("1/3", "1/2")
    assert mirror["a"].record == by_match["a"].record
    assert Settings(game="x").missed_losses is msgspec.UNSET  # stored as before
    pods = [
        MatchResult(round=1, players=("a",), loss=True),
        MatchResult(round=2, players=("a",), bye=True),
    ]
    pod = compute_standings(people[:1], pods, Settings(game="x", pods=True))
    assert pod[0].mw == "1/2"  # 9 of 18, not 9 of 12
    state = run(Tournament(), CreateEvent(settings=Settings(game="x", match="bo5")))
    state = run(state, Register(name="A"), Register(name="B"), PairNext())
    first = state.rounds[1].pairings[0].players[0]
    facts = decide(
        state, RecordPenalty(player=state.players[first].name, infraction="outside-assistance")
    )
    reported = next(x for x in facts if isinstance(x, MatchReported))
    assert reported.score == Score(0, 3)
