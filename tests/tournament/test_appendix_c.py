"""The worked examples of MTR Appendix C (Tiebreaker Explanation), reproduced exactly.

Source: Magic: The Gathering Tournament Rules, Appendix C, as published at
blogs.magicjudges.org/rules/mtr-appendix-c/ (the examples are the same in the
2024 and 2026 revisions). Each test names the example it repeats.
"""

from __future__ import annotations

from fractions import Fraction

from referee.tournament import (
    Entrant,
    MatchResult,
    Score,
    Settings,
    Standing,
    compute_standings,
)
from referee.tournament.standings import contributions

BO3 = Settings(game="prizmik")
POINT33 = Settings(game="prizmik", floor="0.33")


def _players(*ids: str) -> list[Entrant]:
    return [Entrant(id=p, name=p.title(), order=i) for i, p in enumerate(ids)]


def _line(standings: list[Standing], player: str) -> Standing:
    return next(s for s in standings if s.player == player)


def _record_results(player: str, record: str, rounds_from: int = 1) -> list[MatchResult]:
    """Matches for ``player`` with a W-L-D record against fresh opponents (2-0 / 0-2 / 1-1-1)."""
    wins, losses, draws = (int(x) for x in record.split("-"))
    out = []
    number = rounds_from
    for kind, count in (("w", wins), ("l", losses), ("d", draws)):
        for _ in range(count):
            score = {"w": Score(2, 0), "l": Score(0, 2), "d": Score(1, 1, 1)}[kind]
            out.append(MatchResult(round=number, players=(player, f"x{number}"), score=score))
            number += 1
    return out


def _fresh(results: list[MatchResult], main: str) -> list[Entrant]:
    ids = [main, *sorted({p for r in results for p in r.players if p != main})]
    return _players(*ids)


def test_match_points_examples() -> None:
    """MTR Appendix C, Match Points: 6-2-0 is 18 match points and 4-2-2 is 14 (EV-4.2)."""
    for record, points in (("6-2-0", 18), ("4-2-2", 14)):
        results = _record_results("me", record)
        line = _line(compute_standings(_fresh(results, "me"), results, BO3), "me")
        assert line.points == points


def test_game_points_examples() -> None:
    """MTR Appendix C, Game Points: 2-0-0 gives 6 and 0, 2-1-0 gives 6 and 3, 2-0-1 gives 7
    and 1 (EV-4.3)."""
    for score, mine, theirs in (
        (Score(2, 0, 0), 6, 0),
        (Score(2, 1, 0), 6, 3),
        (Score(2, 0, 1), 7, 1),
    ):
        shares = contributions(MatchResult(round=1, players=("a", "b"), score=score), BO3)
        assert (shares["a"].game_points, shares["b"].game_points) == (mine, theirs)


def test_match_win_percentage_examples() -> None:
    """MTR Appendix C, Match-win percentage, three players of an 8-round event: 5-2-1 is
    16/24; 1-3-0 then withdrawing is 3/12 = 0.25, raised to the floor; 3-2-0 with a first-round
    bye then withdrawing is 9/15 = 0.60 (EV-4.5, EV-4.4, EV-2.5)."""
    results = _record_results("a", "5-2-1")
    line = _line(compute_standings(_fresh(results, "a"), results, BO3), "a")
    assert Fraction(line.mw) == Fraction(16, 24)

    results = _record_results("b", "1-3-0")
    for settings, floor in ((BO3, Fraction(1, 3)), (POINT33, Fraction(33, 100))):
        line = _line(compute_standings(_fresh(results, "b"), results, settings), "b")
        assert Fraction(line.mw) == floor

    results = [MatchResult(round=1, players=("c",), bye=True), *_record_results("c", "2-2-0", 2)]
    line = _line(compute_standings(_fresh(results, "c"), results, BO3), "c")
    assert Fraction(line.mw) == Fraction(9, 15) == Fraction(6, 10)
    assert line.record.byes == 1
    assert line.points == 9


def test_game_win_percentage_examples() -> None:
    """MTR Appendix C, Game-win percentage: 21 game points in 10 games is 0.70; 9 game points
    in 11 games (1-2, 1-2, 0-2, 1-2) is 0.27, raised to the floor (EV-4.5)."""
    scores = [Score(2, 0), Score(2, 1), Score(1, 2), Score(2, 0)]
    results = [
        MatchResult(round=i + 1, players=("a", f"x{i}"), score=s) for i, s in enumerate(scores)
    ]
    line = _line(compute_standings(_fresh(results, "a"), results, BO3), "a")
    assert Fraction(line.gw) == Fraction(21, 30) == Fraction(7, 10)

    scores = [Score(1, 2), Score(1, 2), Score(0, 2), Score(1, 2)]
    results = [
        MatchResult(round=i + 1, players=("b", f"y{i}"), score=s) for i, s in enumerate(scores)
    ]
    line = _line(compute_standings(_fresh(results, "b"), results, BO3), "b")
    assert Fraction(line.gw) == Fraction(1, 3)
    line = _line(compute_standings(_fresh(results, "b"), results, POINT33), "b")
    assert Fraction(line.gw) == Fraction(33, 100)


# Appendix C, Opponents' match-win percentage: a player goes 6-2-0 in 8 rounds; opponents'
# records 4-4-0, 7-1-0, 1-3-1, 3-3-1, 6-2-0, 5-2-1, 4-3-1, 6-1-1 (the 1-3-1 and 3-3-1
# opponents left early), i.e. 12/24, 21/24, 4/15, 10/21, 18/24, 16/24, 13/24, 19/24.
OPPONENTS = ["4-4-0", "7-1-0", "1-3-1", "3-3-1", "6-2-0", "5-2-1", "4-3-1", "6-1-1"]


def _omw_event(with_bye: bool) -> tuple[list[Entrant], list[MatchResult]]:
    """The player 'me' meets o0..o7 in rounds 1..8 (or has a bye in round 1 instead of o0);
    each opponent's remaining record is made up against fillers."""
    results: list[MatchResult] = []
    my_results = ["l", "w", "w", "w", "l", "w", "w", "w"]  # 6-2-0 in all
    for index, record in enumerate(OPPONENTS):
        number = index + 1
        opponent = f"o{index}"
        if with_bye and index == 0:
            results.append(MatchResult(round=1, players=("me",), bye=True))
            continue
        mine = my_results[index]
        score = Score(2, 0) if mine == "w" else Score(0, 2)
        results.append(MatchResult(round=number, players=("me", opponent), score=score))
        wins, losses, draws = (int(x) for x in record.split("-"))
        # the match against 'me' already counts once for the opponent
        if mine == "w":
            losses -= 1
        else:
            wins -= 1
        filler_round = 100 * (index + 1)
        for kind, count in (("w", wins), ("l", losses), ("d", draws)):
            for _ in range(count):
                s = {"w": Score(2, 0), "l": Score(0, 2), "d": Score(1, 1, 1)}[kind]
                filler = f"f{filler_round}"
                results.append(MatchResult(round=filler_round, players=(opponent, filler), score=s))
                filler_round += 1
    ids = ["me"] + [f"o{i}" for i in range(8)]
    ids += sorted({p for r in results for p in r.players if p.startswith("f")})
    return _players(*ids), results


def test_opponents_match_win_percentage_example() -> None:
    """MTR Appendix C, Opponents' match-win percentage, first example: the mean of the eight
    opponents' percentages, the 4/15 raised to the floor, is 0.62 (EV-4.5)."""
    entrants, results = _omw_event(with_bye=False)
    standings = compute_standings(entrants, results, BO3)
    expected = [Fraction(12, 24), Fraction(21, 24), Fraction(1, 3), Fraction(10, 21)]
    expected += [Fraction(18, 24), Fraction(16, 24), Fraction(13, 24), Fraction(19, 24)]
    for index, mw in enumerate(expected):
        assert Fraction(_line(standings, f"o{index}").mw) == mw
    me = _line(standings, "me")
    assert me.points == 18
    assert Fraction(me.omw) == sum(expected, Fraction(0)) / 8
    assert round(float(Fraction(me.omw)), 2) == 0.62
    # with the printed floor the figure still rounds to the book's 0.62
    printed = _line(compute_standings(entrants, results, POINT33), "me")
    assert round(float(Fraction(printed.omw)), 2) == 0.62


def test_opponents_match_win_percentage_with_a_bye() -> None:
    """MTR Appendix C, second example: the same player with a round-1 bye instead of the
    4-4-0 opponent; the bye is ignored, so the mean is over seven opponents: 0.63 (EV-4.4)."""
    entrants, results = _omw_event(with_bye=True)
    me = _line(compute_standings(entrants, results, BO3), "me")
    expected = [Fraction(21, 24), Fraction(1, 3), Fraction(10, 21), Fraction(18, 24)]
    expected += [Fraction(16, 24), Fraction(13, 24), Fraction(19, 24)]
    assert Fraction(me.omw) == sum(expected, Fraction(0)) / 7
    assert round(float(Fraction(me.omw)), 2) == 0.63
    assert me.record.byes == 1


def test_bye_is_a_two_nil_win_and_never_an_opponent() -> None:
    """MTR Appendix C, Byes: 3 match points and 6 game points (a 2-0 win in a bo3), ignored in
    the opponents' figures; in bo1 and bo5 it is a 2-0 win as well, and the record counts it
    among the wins (EV-4.4, EV-I.5)."""
    results = [MatchResult(round=1, players=("a",), bye=True)]
    line = _line(compute_standings(_players("a"), results, BO3), "a")
    assert (line.points, line.gw, line.omw) == (3, "1/1", "1/3")
    assert (line.record.wins, line.record.byes) == (1, 1)
    for match in ("bo1", "bo5"):
        share = contributions(results[0], Settings(game="x", match=match))["a"]
        assert (share.game_points, share.games, share.wins) == (6, 2, 1)
