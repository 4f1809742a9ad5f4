"""Swiss pairing properties, checked against brute-force oracles on small rounds
(EV-5.1 to EV-5.5, EV-5.7, EV-I.4), and the sparse graph against the complete one."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from functools import cache

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.tournament import Pairing, Seat, assign_tables, pair_swiss, swiss_pairs


def _rematch_free_exists(ids: Sequence[str], met: Mapping[str, Collection[str]]) -> bool:
    """Oracle: can ``ids`` (even count) be paired with no rematch? (plain backtracking)"""

    @cache
    def solve(left: frozenset[str]) -> bool:
        if not left:
            return True
        first = min(left)
        return any(
            solve(left - {first, other})
            for other in left
            if other != first and other not in met[first]
        )

    return solve(frozenset(ids))


@st.composite
def rounds(draw: st.DrawFn, most: int = 11, top: int = 5) -> list[Seat]:
    """A round of 2 to ``most`` players, best first, with random meetings, byes and match
    points (0 to ``top`` wins)."""
    n = draw(st.integers(2, most))
    ids = [f"p{i:02d}" for i in range(n)]
    met: dict[str, set[str]] = {p: set() for p in ids}
    for _ in range(draw(st.integers(0, n * 2))):
        a, b = draw(st.permutations(ids))[:2]
        met[a].add(b)
        met[b].add(a)
    points = sorted(draw(st.lists(st.integers(0, top), min_size=n, max_size=n)), reverse=True)
    byes = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    return [
        Seat(id=p, points=3 * points[i], opponents=frozenset(met[p]), byes=byes[i])
        for i, p in enumerate(ids)
    ]


@pytest.mark.slow  # a property run of some seconds of CPU: the full suite's side (issue 34 item 8)
@settings(max_examples=300, deadline=None)
@given(rounds())
def test_swiss_pairing_properties(seats: list[Seat]) -> None:
    """EV-5.1 every player once; EV-5.4 no avoidable rematch; EV-5.5 one bye, to the lowest
    eligible player unless only another choice avoids a rematch."""
    pairs, bye = swiss_pairs(seats)
    ids = [s.id for s in seats]
    met = {s.id: s.opponents for s in seats}
    listed = [p for pair in pairs for p in pair] + ([bye] if bye else [])
    assert sorted(listed) == sorted(ids)
    assert (bye is not None) == (len(ids) % 2 == 1)
    rematches = sum(1 for a, b in pairs if b in met[a])
    # the best any bye choice can do
    candidates = [None] if bye is None else ids
    best = None
    for c in candidates:
        rest = [p for p in ids if p != c]
        if _rematch_free_exists(rest, met):
            best = c
    if best is not None or (bye is None and _rematch_free_exists(ids, met)):
        assert rematches == 0, (pairs, bye)
    if bye is not None:
        byes = {s.id: s.byes for s in seats}
        eligible = [p for p in ids if byes[p] == 0]
        if eligible and rematches == 0:
            # the bye goes to the lowest eligible player whose absence leaves a clean round
            clean = [p for p in eligible if _rematch_free_exists([q for q in ids if q != p], met)]
            if clean:
                assert bye == clean[-1]
        if eligible:
            assert byes[bye] == 0 or not any(
                _rematch_free_exists([q for q in ids if q != p], met) for p in eligible
            )


def test_equal_points_meet_and_top_half_meets_bottom_half() -> None:
    """EV-5.2 equal points meet; EV-I.4 within a group rank i meets rank i + half."""
    seats = [Seat(id=f"p{i}", points=3 if i < 4 else 0) for i in range(8)]
    pairs, bye = swiss_pairs(seats)
    assert bye is None
    assert sorted(pairs) == [("p0", "p2"), ("p1", "p3"), ("p4", "p6"), ("p5", "p7")]


def test_floater_is_lowest_of_upper_group_against_highest_of_lower() -> None:
    """EV-5.2 and EV-I.4: with three players on 3 points, one floats down: the lowest of them
    meets the highest of the group below."""
    seats = [Seat(id=f"p{i}", points=3 if i < 3 else 0) for i in range(6)]
    pairs, _ = swiss_pairs(seats)
    assert ("p2", "p3") in pairs


def test_awarded_byes_sit_out_and_tables_follow_points() -> None:
    """EV-2.4 awarded byes first; EV-5.7 top tables to top scores, a fixed table kept, byes
    have no table."""
    seats = [Seat(id=f"p{i}", points=9 - i, table=(7 if i == 5 else None)) for i in range(7)]
    rnd = pair_swiss(3, seats, awarded=["p0"])
    byes = [p.players[0] for p in rnd.pairings if p.bye]
    assert "p0" in byes
    assert all(p.table is None for p in rnd.pairings if p.bye)
    tables = {p.table: p.players for p in rnd.pairings if not p.bye}
    assert any("p5" in players for t, players in tables.items() if t == 7)
    assert "p1" in tables[1]


def random_results(
    rnd: random.Random,
    pairs: list[tuple[str, str]],
    bye: str | None,
    points: dict[str, int],
    met: dict[str, set[str]],
    byes: dict[str, int],
) -> None:
    """A round's random results: the first-listed player wins 45 in 100, the second as
    often, the rest are draws (3/1/0 points); the bye scores a win."""
    for a, b in pairs:
        met[a].add(b)
        met[b].add(a)
        x = rnd.random()
        if x < 0.45:
            points[a] += 3
        elif x < 0.9:
            points[b] += 3
        else:
            points[a] += 1
            points[b] += 1
    if bye:
        points[bye] += 3
        byes[bye] += 1


def _realistic(n: int, rounds_played: int, seed: int) -> list[Seat]:
    """Seats after ``rounds_played`` rounds paired by the core itself, with random results."""
    rnd = random.Random(seed)
    points = {f"p{i:04d}": 0 for i in range(n)}
    met: dict[str, set[str]] = {p: set() for p in points}
    byes = dict.fromkeys(points, 0)
    for _ in range(rounds_played):
        order = sorted(points, key=lambda p: (-points[p], p))
        seats = [
            Seat(id=p, points=points[p], opponents=frozenset(met[p]), byes=byes[p]) for p in order
        ]
        pairs, bye = swiss_pairs(seats)
        random_results(rnd, pairs, bye, points, met, byes)
    order = sorted(points, key=lambda p: (-points[p], p))
    return [Seat(id=p, points=points[p], opponents=frozenset(met[p]), byes=byes[p]) for p in order]


def test_sparse_graph_matches_complete_graph_on_realistic_rounds() -> None:
    """EV-5.3/EV-5.4: the sparse candidate graph used for large rounds finds a rematch-free
    pairing, the same bye and the same score gaps as the complete graph."""
    for n, played, seed in ((301, 5, 1), (200, 7, 2), (257, 8, 3)):
        seats = _realistic(n, played, seed)
        sparse, sparse_bye = swiss_pairs(seats, complete_up_to=0)
        full, full_bye = swiss_pairs(seats, complete_up_to=10**6)
        met = {s.id: s.opponents for s in seats}
        points = {s.id: s.points for s in seats}
        assert not any(b in met[a] for a, b in sparse)
        assert sparse_bye == full_bye

        def gaps(pairs: list[tuple[str, str]], points: dict[str, int] = points) -> int:
            return sum((points[a] - points[b]) ** 2 for a, b in pairs)

        assert gaps(sparse) == gaps(full)


def test_rematch_only_when_unavoidable() -> None:
    """EV-5.4: four players who have all met must still be paired; the rematch is allowed."""
    ids = ["a", "b", "c", "d"]
    seats = [Seat(id=p, opponents=frozenset(set(ids) - {p})) for p in ids]
    pairs, bye = swiss_pairs(seats)
    assert bye is None
    assert sorted(p for pair in pairs for p in pair) == ids


@settings(max_examples=40, deadline=None)
@given(rounds(most=15))
def test_tables_numbered_from_places_as_assign_tables_numbers_them(seats: list[Seat]) -> None:
    """EV-5.7: a round with no awarded bye and no fixed table is numbered from the players'
    places (``pair_swiss``' short path): the tables ``assign_tables`` gives the same pairs,
    top tables to top scores, the bye last; the opponents may be a list as well as a set."""
    listed = [msgspec.structs.replace(s, opponents=sorted(s.opponents)) for s in seats]
    pairs, bye = swiss_pairs(seats)
    position = {s.id: i for i, s in enumerate(seats)}
    points = {s.id: s.points for s in seats}
    tables = assign_tables(pairs, points, position, dict.fromkeys(position))
    byes = [Pairing(table=None, players=(bye,), bye=True)] if bye is not None else []
    assert pair_swiss(4, seats).pairings == tuple(tables + byes)
    assert pair_swiss(4, listed).pairings == tuple(tables + byes)


def test_large_round_numbered_from_places_as_assign_tables_numbers_them() -> None:
    """EV-5.7: the same at 301 players after five rounds (the blocks' path)."""
    seats = _realistic(301, 5, 7)
    pairs, bye = swiss_pairs(seats)
    position = {s.id: i for i, s in enumerate(seats)}
    points = {s.id: s.points for s in seats}
    tables = assign_tables(pairs, points, position, dict.fromkeys(position))
    assert bye is not None
    expected = (*tables, Pairing(table=None, players=(bye,), bye=True))
    assert pair_swiss(6, seats).pairings == expected
