"""The incremental standings equal the from-scratch ones after any results and corrections
(EV-4.1 to EV-4.7, EV-8.1), and ranks are shared exactly when all four figures agree (EV-4.6)."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.tournament import (
    Entrant,
    MatchResult,
    Placement,
    Score,
    Settings,
    Standings,
    compute_standings,
)

SCORES = [
    Score(2, 0),
    Score(0, 2),
    Score(2, 1),
    Score(1, 2),
    Score(1, 1, 1),
    Score(0, 0, 0),
    Score(1, 0),
    Score(0, 0, 3),
    Score(2, 0, 1),
]


@st.composite
def events(
    draw: st.DrawFn,
) -> tuple[Settings, list[Entrant], list[tuple[tuple[int, int], MatchResult]]]:
    pods = draw(st.booleans())
    settings_ = Settings(
        game="x",
        pods=pods,
        floor=draw(st.sampled_from(["1/3", "0.33"])),
        pod_points=draw(st.sampled_from(["pairwise", "pod"])),
    )
    n = draw(st.integers(2, 9))
    entrants = [Entrant(id=f"p{i}", name=f"P{i}", order=i) for i in range(n)]
    steps: list[tuple[tuple[int, int], MatchResult]] = []
    keys: list[tuple[int, int]] = []
    for _ in range(draw(st.integers(1, 25))):
        correcting = bool(keys) and draw(st.booleans())
        if correcting:
            key = draw(st.sampled_from(keys))
            rnd = key[0]
        else:
            rnd = draw(st.integers(1, 6))
            key = (rnd, len(keys) + 1)
        if draw(st.integers(0, 5)) == 0 and not correcting:
            player = draw(st.sampled_from(entrants)).id
            result = MatchResult(round=rnd, players=(player,), bye=True)
        elif pods and n >= 3:
            size = draw(st.integers(2, min(4, n)))
            players = draw(st.permutations([e.id for e in entrants]))[:size]
            places = sorted(draw(st.lists(st.integers(1, size), min_size=size, max_size=size)))
            ranks = [1 + sum(1 for q in places if q < p) for p in places]
            placement = Placement(tuple(zip(players, ranks, strict=True)))
            result = MatchResult(round=rnd, players=tuple(players), placement=placement)
        else:
            a, b = draw(st.permutations([e.id for e in entrants]))[:2]
            result = MatchResult(round=rnd, players=(a, b), score=draw(st.sampled_from(SCORES)))
        steps.append((key, result))
        if key not in keys:
            keys.append(key)
    return settings_, entrants, steps


@settings(max_examples=150, deadline=None)
@given(events())
def test_incremental_equals_from_scratch(
    event: tuple[Settings, list[Entrant], list[tuple[tuple[int, int], MatchResult]]],
) -> None:
    """Any sequence of results and corrections (a second result for a key replaces the first,
    EV-8.1) leaves the incremental table equal to the from-scratch one, line for line."""
    settings_, entrants, steps = event
    live = Standings(settings_, entrants)
    final: dict[tuple[int, int], MatchResult] = {}
    for key, result in steps:
        live.record(key, result)
        final[key] = result
        assert live.table() == compute_standings(entrants, final.values(), settings_)
    # built in one pass from the final results: the same table, and the same object state
    built = Standings.built(settings_, entrants, final)
    assert built.table() == live.table()
    assert built.order() == live.order()
    for key, result in steps[-3:]:
        built.record(key, result)
        live.record(key, result)
        assert built.table() == live.table()
    # removing everything brings every player back to nothing played
    for key in list(final):
        live.remove(key)
    assert all(s.points == 0 and s.omw == s.gw for s in live.table())


@settings(max_examples=60, deadline=None)
@given(events())
def test_shared_rank_is_one_plus_those_strictly_ahead(
    event: tuple[Settings, list[Entrant], list[tuple[tuple[int, int], MatchResult]]],
) -> None:
    """EV-4.6: rank = 1 + players strictly ahead on (points, OMW, GW, OGW); the list is ordered
    by those figures, then registration order (EV-I.2)."""
    settings_, entrants, steps = event
    table = compute_standings(entrants, dict(steps).values(), settings_)
    figures = [s.figures() for s in table]
    for line in table:
        ahead = sum(1 for f in figures if f > line.figures())
        assert line.rank == ahead + 1
    for before, after in itertools.pairwise(table):
        assert before.figures() >= after.figures()
        if before.figures() == after.figures():
            assert int(before.player[1:]) < int(after.player[1:])


def test_a_table_keeps_each_line_that_did_not_move_and_makes_the_others_again() -> None:
    """``Standings.table()`` after one result: the lines of players it did not touch and
    whose rank stayed are the same objects as before (issue 32 goal 4: a page after a result
    makes again only what moved); every line is still the from-scratch one (EV-4.1), a
    rank moved by the result is new (EV-4.6) and a drop shows at once (EV-2.5)."""
    settings_ = Settings(game="x")
    entrants = [Entrant(id=f"p{i}", name=f"P{i}", order=i) for i in range(12)]
    live = Standings(settings_, entrants)
    results = {(1, t): MatchResult(round=1, players=(f"p{2 * t}", f"p{2 * t + 1}"),
                                   score=Score(2, 0)) for t in range(6)}  # fmt: skip
    for key, result in results.items():
        live.record(key, result)
    before = {line.player: line for line in live.table()}
    # two players without a win draw: the winners' ranks and figures stay (the losers' MW is
    # at the floor either way); theirs, and the ranks of the players they pass, move
    results[(2, 1)] = MatchResult(round=2, players=("p5", "p7"), score=Score(1, 1, 1))
    live.record((2, 1), results[(2, 1)])
    after = live.table()
    assert after == compute_standings(entrants, results.values(), settings_)
    kept = {line.player for line in after if line is before[line.player]}
    moved = {line.player for line in after if line != before[line.player]}
    assert {"p5", "p7", "p9", "p11"} <= moved  # the two who drew rose above these two
    assert {"p0", "p2", "p8", "p10"} <= kept  # untouched, at the same rank: the same lines
    assert not kept & moved
    live.update_player(Entrant(id="p5", name="P5", order=5, dropped_after=2))
    dropped = next(line for line in live.table() if line.player == "p5")
    assert dropped.dropped_after == 2


def test_explain_names_opponents_and_the_floor() -> None:
    """EV-4.5: explain() shows each opponent's MW%, the floor applied, the sum and the mean."""
    entrants = [Entrant(id=p, name=p.title(), order=i) for i, p in enumerate(["ann", "ben", "cal"])]
    results = [
        MatchResult(round=1, players=("ann", "ben"), score=Score(2, 0)),
        MatchResult(round=2, players=("ann", "cal"), score=Score(2, 1)),
        MatchResult(round=2, players=("ben",), bye=True),
    ]
    live = Standings(Settings(game="x"), entrants)
    for i, r in enumerate(results):
        live.record((r.round, i), r)
    text = live.explain("ann")
    assert "Ben 3/6 = 1/2" in text
    assert "Cal 0/3 = 0/1, below the floor, so 1/3 is used" in text
    assert "sum 5/6 / 2 = 5/12" in text
    assert live.row("ann").omw == "5/12"
    assert Fraction(live.row("ann").mw) == 1
