"""Elimination seeding and rounds (EV-6.2, EV-6.3), round robin (EV-5.9), pods (EV-7.1, EV-7.2)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.tournament import (
    Seat,
    bracket_order,
    next_elimination_round,
    pair_pods,
    pod_sizes,
    round_robin_schedule,
    seed_bracket,
)
from referee.tournament.pods import repeats_in


def test_bracket_order_keeps_one_and_two_apart() -> None:
    """EV-6.2: 1 v 8, 4 v 5, 2 v 7, 3 v 6; seeds 1 and 2 in different halves at every size."""
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    for size in (2, 4, 16, 32, 64):
        order = bracket_order(size)
        assert sorted(order) == list(range(1, size + 1))
        half = size // 2
        assert (1 in order[:half]) != (2 in order[:half])
        for slot in range(0, size, 2):
            assert order[slot] + order[slot + 1] == size + 1


def test_byes_go_to_top_seeds_and_winners_meet_by_slot() -> None:
    """EV-6.2 byes to the top seeds when N is not a power of two; EV-6.3 next rounds."""
    seeds = [f"s{i}" for i in range(1, 7)]
    first = seed_bracket(9, seeds)
    byes = [p.players[0] for p in first.pairings if p.bye]
    assert sorted(byes) == ["s1", "s2"]
    matches = [p.players for p in first.pairings if not p.bye]
    assert sorted(matches) == [("s3", "s6"), ("s4", "s5")]
    winners = {p.table: p.players[1] for p in first.pairings if not p.bye and p.table is not None}
    second = next_elimination_round(10, first, winners)
    assert second is not None
    assert [p.players for p in second.pairings] == [("s1", "s5"), ("s2", "s6")]
    final = next_elimination_round(11, second, {1: "s1", 2: "s6"})
    assert final is not None
    assert final.pairings[0].players == ("s1", "s6")
    assert next_elimination_round(12, final, {1: "s6"}) is None


@pytest.mark.parametrize("n", range(2, 12))
def test_round_robin_every_pair_once(n: int) -> None:
    """EV-5.9: every pair exactly once; one bye a round for odd counts; nobody twice a round."""
    players = [f"p{i}" for i in range(n)]
    schedule = round_robin_schedule(players)
    assert len(schedule) == (n if n % 2 else n - 1)
    met: Counter[frozenset[str]] = Counter()
    for pairs in schedule:
        seen = [p for pair in pairs for p in pair if p is not None]
        assert sorted(seen) == sorted(players)
        assert sum(1 for _, b in pairs if b is None) == n % 2
        met.update(frozenset((a, b)) for a, b in pairs if b is not None)
    assert set(met) == {frozenset(c) for c in combinations(players, 2)}
    assert set(met.values()) == {1}


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (1, [1]),
        (2, [2]),
        (3, [3]),
        (4, [4]),
        (5, [3, 2]),
        (6, [3, 3]),
        (7, [4, 3]),
        (9, [3, 3, 3]),
        (10, [4, 3, 3]),
        (11, [4, 4, 3]),
        (13, [4, 3, 3, 3]),
        (16, [4] * 4),
    ],
)
def test_pod_sizes(n: int, sizes: list[int]) -> None:
    """EV-7.1: fours, then threes as the count needs; tiny counts as documented."""
    assert pod_sizes(n) == sizes
    assert sum(sizes) == n


def test_pods_dealt_by_standing_threes_at_the_bottom() -> None:
    """EV-7.2: the top pod is the top four; tables of three sit below the fours."""
    seats = [Seat(id=f"p{i:02d}", points=30 - i) for i in range(13)]
    rnd = pair_pods(2, seats)
    assert rnd.pairings[0].players == ("p00", "p01", "p02", "p03")
    assert [len(p.players) for p in rnd.pairings] == [4, 3, 3, 3]
    assert [p.table for p in rnd.pairings] == [1, 2, 3, 4]


def _repeat_free_exists(ids: list[str], sizes: list[int], met: dict[str, frozenset[str]]) -> bool:
    if not ids:
        return True
    first, rest = ids[0], ids[1:]
    for size in set(sizes):
        left = list(sizes)
        left.remove(size)
        for others in combinations(rest, size - 1):
            group = (first, *others)
            if any(b in met[a] for a, b in combinations(group, 2)):
                continue
            if _repeat_free_exists([p for p in rest if p not in others], left, met):
                return True
    return False


@settings(max_examples=80, deadline=None)
@given(st.integers(3, 10), st.data())
def test_pods_avoid_repeats_when_possible(n: int, data: st.DataObject) -> None:
    """EV-7.2: every player once, sizes as EV-7.1, and no repeated opponents when some split
    avoids them (checked by exhaustive search)."""
    ids = [f"p{i}" for i in range(n)]
    met: dict[str, set[str]] = {p: set() for p in ids}
    for _ in range(data.draw(st.integers(0, 2 * n))):
        a, b = data.draw(st.permutations(ids))[:2]
        met[a].add(b)
        met[b].add(a)
    frozen = {p: frozenset(m) for p, m in met.items()}
    rnd = pair_pods(1, [Seat(id=p, opponents=frozen[p]) for p in ids])
    pods = [p.players for p in rnd.pairings if not p.bye]
    assert sorted(p for pod in pods for p in pod) == ids
    assert [len(p) for p in pods] == pod_sizes(n)
    if _repeat_free_exists(ids, pod_sizes(n), frozen):
        assert repeats_in(pods, frozen) == 0
