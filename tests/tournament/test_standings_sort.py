"""The from-scratch standings compute exactly in integers over one common denominator: the
figures are the exact fractions of EV-4.2 to EV-4.5 with the floor of EV-I.3, in lowest terms,
and the order (EV-4.1, then registration, EV-I.2) holds where the figures differ by less than
a float can tell. (tests/tournament/test_standings_incremental.py holds them equal to the
Fraction-based incremental table on random events.)"""

from __future__ import annotations

from fractions import Fraction

from referee.tournament.model import Entrant, Score, Settings
from referee.tournament.standings import MatchResult, compute_standings


def test_figures_are_exact_fractions_in_lowest_terms_with_the_floor() -> None:
    people = [Entrant(id=p, name=p.title(), order=i) for i, p in enumerate("abcd")]
    results = [
        MatchResult(round=1, players=("a", "b"), score=Score(2, 1)),
        MatchResult(round=1, players=("c", "d"), score=Score(2, 0)),
        MatchResult(round=2, players=("a", "c"), score=Score(0, 2)),
        MatchResult(round=2, players=("b",), bye=True),
    ]
    table = {s.player: s for s in compute_standings(people, results, Settings(game="x"))}
    # a: beat b, lost to c -> 3/6; b: lost, then a bye -> 3/6; c: two wins -> 6/6;
    # d: one loss -> 0/3, raised to the floor 1/3 (EV-I.3)
    assert (table["a"].mw, table["b"].mw, table["c"].mw, table["d"].mw) == (
        "1/2",
        "1/2",
        "1/1",
        "1/3",
    )
    # OMW (EV-4.5): a met b (1/2) and c (1/1): 3/4; d met c only: 1/1; c met d and a
    assert table["a"].omw == "3/4"
    assert table["d"].omw == "1/1"
    assert Fraction(table["c"].omw) == (Fraction(1, 3) + Fraction(1, 2)) / 2
    # GW: a won 2 of 3 and lost 0-2: 6 game points of 3 x 5 games
    assert table["a"].gw == "2/5"
    assert [s.player for s in compute_standings(people, results, Settings(game="x"))] == [
        "c",
        "a",
        "b",
        "d",
    ]


def test_an_opponents_mean_differing_past_float_precision_still_orders() -> None:
    """Two players level on points whose OMWs differ: the integers tell them apart and the
    one ahead on OMW is ahead, whatever their registration order (EV-4.1 before EV-I.2)."""
    people = [Entrant(id=f"p{n}", name=f"P{n}", order=n) for n in range(6)]
    results = [
        MatchResult(round=1, players=("p0", "p2"), score=Score(2, 0)),
        MatchResult(round=1, players=("p1", "p3"), score=Score(2, 0)),
        MatchResult(round=1, players=("p4", "p5"), score=Score(2, 1)),
        MatchResult(round=2, players=("p2", "p4"), score=Score(2, 1)),  # p2's MW rises
        MatchResult(round=2, players=("p3", "p5"), score=Score(0, 2)),
    ]
    table = compute_standings(people, results, Settings(game="x"))
    p0, p1 = (next(s for s in table if s.player == p) for p in ("p0", "p1"))
    assert p0.points == p1.points
    assert Fraction(p0.omw) > Fraction(p1.omw)
    assert table.index(p0) < table.index(p1)
    assert p0.rank < p1.rank
