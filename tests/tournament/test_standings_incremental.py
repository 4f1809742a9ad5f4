"""The incremental standings equal the from-scratch ones after any results and corrections
(EV-4.1 to EV-4.7, EV-8.1), and ranks are shared exactly when all four figures agree (EV-4.6)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import msgspec
import pytest
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
from referee.tournament.standings import (
    CountedFigures,
    PlacedCounts,
    StandingsCounts,
    _ranked_slips,
    advanced,
    ranked,
    table_of,
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

Step = tuple[tuple[int, int], MatchResult]
"""A result and the key (round, table) it is recorded under; a second result for a key
corrects the first (EV-8.1)."""
DrawnEvent = tuple[Settings, list[Entrant], list[Step]]
"""An event as ``events()`` draws it: its settings, its entrants and its results in order."""


@st.composite
def events(draw: st.DrawFn) -> DrawnEvent:
    pods = draw(st.booleans())
    settings_ = Settings(
        game="x",
        pods=pods,
        floor=draw(st.sampled_from(["1/3", "0.33"])),
        pod_points=draw(st.sampled_from(["pairwise", "pod"])),
    )
    n = draw(st.integers(2, 9))
    entrants = [Entrant(id=f"p{i}", name=f"P{i}", order=i) for i in range(n)]
    steps: list[Step] = []
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


@pytest.mark.slow  # a property run of some seconds of CPU: the full suite's side (issue 34 item 8)
@settings(max_examples=150, deadline=None)
@given(events())
def test_incremental_equals_from_scratch(event: DrawnEvent) -> None:
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


@pytest.mark.slow  # a property run of some seconds of CPU: the full suite's side (issue 34 item 8)
@settings(max_examples=60, deadline=None)
@given(st.data())
def test_reads_between_any_number_of_results_equal_from_scratch(data: st.DataObject) -> None:
    """The places wait for the next read (``Standings._settle``): whether one result or a
    whole round came in since, a player moved alone or every key sorted again, the table,
    each player's rank and line equal the from-scratch standings (EV-4.1, EV-4.6)."""
    n = 48
    settings_ = Settings(game="x", floor=data.draw(st.sampled_from(["1/3", "0.33"])))
    entrants = [Entrant(id=f"p{i}", name=f"P{i}", order=i) for i in range(n)]
    live = Standings(settings_, entrants)
    final: dict[tuple[int, int], MatchResult] = {}
    for rnd in range(1, 4):
        order = data.draw(st.permutations(range(n)))
        tables = [(order[i], order[i + 1]) for i in range(0, n, 2)]
        for table, (a, b) in enumerate(tables, start=1):
            key = (rnd, table)
            score = data.draw(st.sampled_from(SCORES[:5]))
            final[key] = result = MatchResult(round=rnd, players=(f"p{a}", f"p{b}"), score=score)
            live.record(key, result)
            if data.draw(st.integers(0, 9)) == 0:  # now and then a read between results
                expected = compute_standings(entrants, final.values(), settings_)
                assert live.table() == expected
                someone = expected[data.draw(st.integers(0, n - 1))]
                assert live.row(someone.player) == someone
        expected = compute_standings(entrants, final.values(), settings_)
        some = data.draw(st.sampled_from(expected))
        assert live.row(some.player) == some  # a rank first, the whole table after
        assert live.table() == expected


@pytest.mark.slow  # a property run of some seconds of CPU: the full suite's side (issue 34 item 8)
@settings(max_examples=150, deadline=None)
@given(events(), st.data())
def test_counts_advanced_in_one_pass_equal_the_results_recorded(
    event: DrawnEvent, data: st.DataObject
) -> None:
    """The kept counts moved by a batch of changes at once (``advanced``: results added,
    corrected (EV-8.1) or taken away, late entrants with nothing played, EV-2.3) are the
    counts of the kept table with each change recorded, and show the table worked out from
    scratch (EV-4.1 to EV-4.6), line for line (``table_of``)."""
    settings_, entrants, steps = event
    split = data.draw(st.integers(0, len(steps)))
    late = data.draw(st.integers(0, len(entrants) - 2))  # the last ones enter after the split
    early = entrants[: len(entrants) - late]
    first = {k: r for k, r in steps[:split] if all(p in {e.id for e in early} for p in r.players)}
    kept = Standings.built(settings_, early, first).counts()
    final = dict(first)
    changes: dict[tuple[int, int], MatchResult | None] = {}
    for key, result in steps[split:]:
        final[key] = changes[key] = result
    for key in data.draw(
        st.lists(st.sampled_from(sorted(final)), max_size=3, unique=True) if final else st.just([])
    ):
        del final[key]
        changes[key] = None
    moved = advanced(kept, settings_, entrants, changes)
    live = Standings.restored(settings_, early, kept)
    for entrant in entrants[len(early) :]:
        live.add_player(entrant)
    for key, change in changes.items():
        if change is not None:
            live.record(key, change)
        elif key in live._results:
            live.remove(key)
    assert moved.players == live.counts().players
    assert sorted(moved.results) == sorted(live.counts().results)
    assert table_of(moved, settings_, entrants) == live.table()
    assert table_of(moved, settings_, entrants) == compute_standings(
        entrants, final.values(), settings_
    )
    assert Standings.restored(settings_, entrants, moved).table() == live.table()
    assert advanced(moved, settings_, entrants, {}) is moved  # nothing changed: the same counts
    # the ranking alone (a pairing's seats, EV-5.3): the same order and points, and so from
    # counts without the results no change touches
    ranking = [(s.player, s.points) for s in live.table()]
    assert ranked(kept, settings_, entrants, changes) == ranking
    earlier = [(k, r) for k, r in kept.results if k in changes]
    bare = msgspec.structs.replace(kept, results=earlier)
    assert ranked(bare, settings_, entrants, changes) == ranking


@settings(max_examples=40, deadline=None)
@given(events(), st.data())
def test_a_rounds_new_slips_rank_in_columns_as_the_table_orders(
    event: DrawnEvent, data: st.DataObject
) -> None:
    """EV-4.1, EV-4.6, EV-I.2: a pairing after a round's slips (every change a new
    two-player slip, every player kept) ranks in integer columns (``_ranked_slips``): the
    order and points of the table worked out from scratch, with and without the kept
    counts' results; anything else (a correction, a bye, a new player) is left to the
    general path (``None``)."""
    settings_, entrants, steps = event
    first = dict(steps[: len(steps) // 2])
    kept = Standings.built(settings_, entrants, first).counts()
    ids = [e.id for e in entrants]
    slips: dict[tuple[int, int], MatchResult] = {}
    for table in range(1, data.draw(st.integers(1, 4)) + 1):
        a, b = data.draw(st.permutations(ids))[:2]
        slips[(99, table)] = MatchResult(
            round=99, players=(a, b), score=data.draw(st.sampled_from(SCORES))
        )
    changes: dict[tuple[int, int], MatchResult | None] = dict(slips)
    final = {**first, **slips}
    expected = [
        (s.player, s.points) for s in compute_standings(entrants, final.values(), settings_)
    ]
    people = {e.id: e for e in entrants}
    placed = PlacedCounts.of(kept)  # as a snapshot keeps them: opponents by place
    figured = CountedFigures(sums=kept.sums, figures=kept.figures)
    assert placed.named(figured, kept.results) == kept
    assert _ranked_slips(placed, settings_, people, changes) == expected
    assert ranked(kept, settings_, entrants, changes) == expected
    bare = msgspec.structs.replace(kept, results=[])
    assert ranked(bare, settings_, entrants, changes) == expected
    assert ranked(placed, settings_, entrants, changes) == expected
    if first:  # a correction of a kept result is the general path's
        key = next(iter(first))
        assert _ranked_slips(placed, settings_, people, {**changes, key: None}) is None
        corrected = {k: r for k, r in final.items() if k != key}
        scratch = compute_standings(entrants, corrected.values(), settings_)
        taken_back = [(s.player, s.points) for s in scratch]
        assert ranked(kept, settings_, entrants, {**changes, key: None}) == taken_back
    late = Entrant(id="late", name="Late", order=len(entrants))
    assert _ranked_slips(placed, settings_, {**people, "late": late}, changes) is None


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 7),
    st.integers(1, 4),
    st.randoms(use_true_random=False),
    st.lists(st.sampled_from(SCORES), min_size=64, max_size=64),
)
def test_a_swiss_round_where_all_met_as_many_ranks_by_one_packed_key(
    half: int, rounds: int, draw: Any, scores: list[Score]
) -> None:
    """EV-4.1, EV-4.6, EV-I.2: when every player has met as many opponents (each round a
    table for everyone), the column ranking sorts one packed integer a player
    (``_packed_ranking``): the table's order from scratch, ties on all four figures by
    registration order, the same as the five-figure tuples."""
    entrants = [Entrant(id=f"p{n}", name=f"P{n}", order=(7 * n) % 29) for n in range(2 * half)]
    ids = [e.id for e in entrants]
    results: dict[tuple[int, int], MatchResult] = {}
    picks = iter(scores * 4)
    for number in range(1, rounds + 2):
        draw.shuffle(ids)
        for table in range(half):
            pair = (ids[2 * table], ids[2 * table + 1])
            results[(number, table + 1)] = MatchResult(
                round=number, players=pair, score=next(picks)
            )
    settings_ = Settings(game="x")
    kept_results = {k: r for k, r in results.items() if k[0] <= rounds}
    changes: dict[tuple[int, int], MatchResult | None] = {
        k: r for k, r in results.items() if k[0] > rounds
    }
    placed = PlacedCounts.of(Standings.built(settings_, entrants, kept_results).counts())
    assert {len(met) for met in placed.opponents} == {rounds}  # the packed path's case
    people = {e.id: e for e in entrants}
    expected = [
        (s.player, s.points) for s in compute_standings(entrants, results.values(), settings_)
    ]
    assert _ranked_slips(placed, settings_, people, changes) == expected


def test_placed_counts_keep_an_opponent_they_do_not_rank() -> None:
    """EV-4.1: kept counts name each opponent by place; an opponent who is not one of the
    counts' players (never so in a table's own counts) is kept past them and read back by
    name, and the column ranking leaves such counts to the general path."""
    counts = StandingsCounts(
        players=["a", "b"],
        counts=[(3, 3, 6, 3, 1, 0, 0, 0), (0, 3, 0, 3, 0, 1, 0, 0)],
        opponents=[["b", "ghost"], ["a"]],
        sums=[(0, 1, 0, 1), (1, 1, 1, 1)],
        figures=[(3, 1, 3, 1, 1, 1, 3), (0, 1, 1, 1, 3, 1, 1)],
        results=[],
    )
    placed = PlacedCounts.of(counts)
    assert placed.opponents == [[1, 2], [0]]
    assert placed.others == ["ghost"]
    assert placed.named(CountedFigures(sums=counts.sums, figures=counts.figures)) == counts
    people = {p: Entrant(id=p, name=p, order=n) for n, p in enumerate(counts.players)}
    slip = MatchResult(round=2, players=("a", "b"), score=Score(2, 0))
    assert _ranked_slips(placed, Settings(game="x"), people, {(2, 1): slip}) is None


@settings(max_examples=60, deadline=None)
@given(events())
def test_shared_rank_is_one_plus_those_strictly_ahead(event: DrawnEvent) -> None:
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
