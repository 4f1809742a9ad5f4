"""Swiss pairing for two-player games, and table numbers.

The pairing is a maximum-weight perfect matching (rustworkx's compiled
``max_weight_matching``, Edmonds' blossom) over the players still to be paired,
plus one "bye" node when their number is odd. Each candidate pair carries a
cost in four tiers, each worth more than everything below it can add up to, so
the matching minimises them in order (EV-5.3):

1. rematches, and a bye to a player who already had one (EV-5.4, EV-5.5);
2. where the bye goes: the lower a player stands, the cheaper (EV-5.5);
3. score differences, squared, so two small floats beat one big one (EV-5.2);
4. the preferred shape within a score group: top half against bottom half
   (rank i meets rank i + half the group), and across groups the lowest of the
   upper group against the highest of the lower (EV-I.4).

The weight of an edge is a large constant minus its cost. Python integers are
exact and rustworkx takes 128-bit weights, so the tiers never bleed into each
other.

Large rounds use a sparse candidate graph: each player is joined to the nearest
``k`` players it has not met in both directions of the standings and to the
``k`` around its top-half/bottom-half partner, and every player to the bye node.
If that graph has no perfect matching (or the bye cannot go to the lowest
eligible player in it), ``k`` doubles, up to the complete graph without
rematches; only when even that has no perfect matching are rematch edges added.
So a rematch-free pairing is found whenever one exists; sparsity only limits how
far the search looks for the best score shape, and the tests check it against
the complete graph. Up to ``complete_up_to`` players the complete graph is used
from the start.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec
import rustworkx as rx

from referee.tournament.model import Pairing, Round

__all__ = ["Seat", "assign_tables", "pair_swiss", "swiss_pairs"]


class Seat(msgspec.Struct, frozen=True, kw_only=True):
    """A player as the pairing sees them.

    Seats are passed best first (the current standings, or the round-1 order);
    ``points`` must not increase down the list. ``opponents`` are everyone the
    player has met in this event's Swiss rounds; ``byes`` how many byes they had
    (awarded or not); ``table`` a fixed table (EV-5.7).
    """

    id: str
    points: int = 0
    opponents: frozenset[str] = frozenset()
    byes: int = 0
    table: int | None = None


class _Costs:
    """The tier units for one round (see the module doc)."""

    def __init__(self, seats: Sequence[Seat]) -> None:
        n = len(seats)
        self.points = [s.points for s in seats]
        spread = (max(self.points) - min(self.points)) if seats else 0
        self.start: list[int] = []
        self.end: list[int] = []
        first = 0
        for i in range(n):
            if i and self.points[i] != self.points[i - 1]:
                first = i
            self.start.append(first)
        last = n - 1
        ends = [0] * n
        for i in range(n - 1, -1, -1):
            if i < n - 1 and self.points[i] != self.points[i + 1]:
                last = i
            ends[i] = last
        self.end = ends
        self.shape_unit = 1
        self.score_unit = 2 * n * n + 1
        self.bye_unit = (n // 2 + 1) * (spread * spread + 1) * self.score_unit
        self.repeat_unit = (n + 1) * self.bye_unit
        self.top = (n + 2) * self.repeat_unit

    def shape(self, i: int, j: int) -> int:
        if i > j:
            i, j = j, i
        if self.start[i] == self.start[j]:
            half = (self.end[i] - self.start[i] + 1) // 2
            return abs((j - i) - half)
        return (self.end[i] - i) + (j - self.start[j])

    def pair(self, i: int, j: int, repeat: bool) -> int:
        d = self.points[i] - self.points[j]
        cost = self.score_unit * d * d + self.shape(i, j)
        return self.top - cost - (self.repeat_unit if repeat else 0)

    def bye(self, i: int, n: int, had_bye: bool) -> int:
        cost = self.repeat_unit if had_bye else self.bye_unit * (n - 1 - i)
        return self.top - cost


def _partner(i: int, costs: _Costs) -> int:
    start, end = costs.start[i], costs.end[i]
    half = (end - start + 1) // 2
    offset = i - start
    return start + offset + half if offset < half else start + offset - half


def _candidates(seats: Sequence[Seat], costs: _Costs, k: int) -> set[tuple[int, int]]:
    n = len(seats)
    met = [s.opponents for s in seats]
    ids = [s.id for s in seats]
    edges: set[tuple[int, int]] = set()
    if k >= n:
        for i in range(n):
            for j in range(i + 1, n):
                if ids[j] not in met[i]:
                    edges.add((i, j))
        return edges

    def scan(i: int, start: int, step: int, limit: int) -> None:
        found = 0
        j = start
        while 0 <= j < n and found < limit:
            if j != i and ids[j] not in met[i]:
                edges.add((min(i, j), max(i, j)))
                found += 1
            j += step

    for i in range(n):
        scan(i, i + 1, 1, k)
        scan(i, i - 1, -1, k)
        partner = _partner(i, costs)
        if partner != i:
            scan(i, partner, 1, k // 2 + 1)
            scan(i, partner - 1, -1, k // 2)
    return edges


def _match(
    seats: Sequence[Seat], costs: _Costs, edges: set[tuple[int, int]], repeats: bool
) -> dict[int, int]:
    n = len(seats)
    graph = rx.PyGraph()
    graph.add_nodes_from(range(n + (n % 2)))
    weighted = [(i, j, costs.pair(i, j, False)) for i, j in sorted(edges)]
    if repeats:
        ids = [s.id for s in seats]
        weighted += [
            (i, j, costs.pair(i, j, True))
            for i in range(n)
            for j in range(i + 1, n)
            if ids[j] in seats[i].opponents
        ]
    if n % 2:
        weighted += [(i, n, costs.bye(i, n, seats[i].byes > 0)) for i in range(n)]
    graph.add_edges_from(weighted)
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    mate: dict[int, int] = {}
    for a, b in matching:
        mate[a] = b
        mate[b] = a
    return mate


def swiss_pairs(
    seats: Sequence[Seat], *, complete_up_to: int = 128, start_k: int = 8
) -> tuple[list[tuple[str, str]], str | None]:
    """Pair ``seats`` (best first): the pairs, higher-placed first, and the bye, if any."""
    n = len(seats)
    if n == 0:
        return [], None
    if n == 1:
        return [], seats[0].id
    for before, after in zip(seats, seats[1:], strict=False):
        if after.points > before.points:
            raise ValueError("seats must be ordered by points, best first")
    costs = _Costs(seats)
    eligible = [i for i in range(n) if seats[i].byes == 0]
    lowest_eligible = eligible[-1] if eligible else n - 1
    k = n if n <= complete_up_to else start_k
    wanted = (n + 1) // 2
    mate: dict[int, int] = {}
    while True:
        mate = _match(seats, costs, _candidates(seats, costs, k), repeats=False)
        perfect = len(mate) == 2 * wanted
        bye_ok = n % 2 == 0 or mate.get(n) == lowest_eligible
        if perfect and (bye_ok or k >= n):
            break
        if k >= n:
            mate = _match(seats, costs, _candidates(seats, costs, n), repeats=True)
            break
        k = min(2 * k, n)
    pairs: list[tuple[str, str]] = []
    bye: str | None = None
    for i in range(n):
        j = mate[i]
        if j == n:
            bye = seats[i].id
        elif i < j:
            pairs.append((seats[i].id, seats[j].id))
    return pairs, bye


def assign_tables(
    groups: Sequence[Sequence[str]],
    points: Mapping[str, int],
    position: Mapping[str, int],
    fixed: Mapping[str, int | None],
) -> list[Pairing]:
    """Number tables: top tables to top scores, fixed tables kept (EV-5.7).

    Groups are ordered by their best player's points, then the next players'
    points, then the best standing; a group holding a player with a fixed table
    takes that table (the first such player in the group decides; a table
    already taken falls back to numbering). Other groups take 1, 2, 3, ...
    skipping the fixed numbers.
    """

    def key(group: Sequence[str]) -> tuple[tuple[int, ...], int]:
        return (
            tuple(sorted(-points.get(p, 0) for p in group)),
            min(position[p] for p in group),
        )

    ordered = sorted((tuple(g) for g in groups), key=key)
    taken: dict[int, tuple[str, ...]] = {}
    rest: list[tuple[str, ...]] = []
    for group in ordered:
        wish = next((fixed[p] for p in group if fixed.get(p) is not None), None)
        if wish is not None and wish not in taken:
            taken[wish] = group
        else:
            rest.append(group)
    number = 1
    for group in rest:
        while number in taken:
            number += 1
        taken[number] = group
        number += 1
    return [Pairing(table=t, players=taken[t]) for t in sorted(taken)]


def pair_swiss(
    number: int,
    seats: Sequence[Seat],
    *,
    awarded: Sequence[str] = (),
    complete_up_to: int = 128,
) -> Round:
    """Pair Swiss round ``number``: awarded byes first, then the matching (EV-5.1).

    ``seats`` are every player taking part this round, best first; ``awarded``
    those given a bye for it in advance (EV-2.4), who are left out of the
    matching. Pairings list the tables in number order, then the byes.
    """
    awarded_set = set(awarded)
    to_pair = [s for s in seats if s.id not in awarded_set]
    pairs, bye = swiss_pairs(to_pair, complete_up_to=complete_up_to)
    position = {s.id: i for i, s in enumerate(seats)}
    points = {s.id: s.points for s in seats}
    fixed = {s.id: s.table for s in seats}
    tables = assign_tables(pairs, points, position, fixed)
    byes = [s.id for s in seats if s.id in awarded_set]
    if bye is not None:
        byes.append(bye)
    byes.sort(key=lambda p: position[p])
    pairings = tables + [Pairing(table=None, players=(p,), bye=True) for p in byes]
    return Round(number=number, kind="swiss", pairings=tuple(pairings))
