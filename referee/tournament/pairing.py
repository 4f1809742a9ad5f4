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

Above ``complete_up_to`` players the round is first paired in blocks. The
ideal pairing (everyone meets their shape partner, an odd group's lowest floats
to the highest of the group below, the bye to the lowest eligible player) has
the least squared score gap any pairing can have: pairing the points in sorted
order, which no perfect matching beats. It is cut into blocks of ``block``
players (64) in that order. A block whose ideal pairs are no rematches and all of
shape cost 0 stands as it is, at the lower bound of every tier; any other block
is matched on its own (complete graph without rematches, the same weights),
growing to two and four blocks if it has no perfect matching or only one with a
larger score gap than the ideal. When every block passes, the round has no
rematch, the bye where tier 2 puts it and the least score gap, so tiers 1-3 are
those of the complete graph's matching; only the shape is optimal block by
block rather than over the round (on the benchmark rounds of 2,048 and 10,000
players its total is within 1% of the whole-round matching's, 2-4 units in
250-820). A block that cannot pass means the lower bound is
out of reach (say a leading group that has all met) and the whole round is
matched as below. At 10,000 players the blocks take 0.1-0.5 s where the
whole-round matching takes 9-14 s, and 0.06-0.8x swisspair's time on the same
standings (BENCHMARKS.md, "Biggest events: pairing").

The whole-round matching uses a sparse candidate graph for large rounds: each
player is joined to the nearest ``k`` players it has not met in both directions
of the standings and to the ``k`` around its top-half/bottom-half partner, and
every player to the bye node. If that graph has no perfect matching (or the bye
cannot go to the lowest eligible player in it), ``k`` doubles, up to the
complete graph without rematches; only when even that has no perfect matching
are rematch edges added. So a rematch-free pairing is found whenever one exists;
sparsity only limits how far the search looks for the best score shape, and the
tests check it against the complete graph. Up to ``complete_up_to`` players the
complete graph is used from the start.
"""

from __future__ import annotations

import bisect
import itertools
import operator
from collections.abc import Collection, Mapping, Sequence

import msgspec
import rustworkx as rx

from referee.tournament.model import Pairing, Round

__all__ = ["Seat", "assign_tables", "pair_swiss", "swiss_pairs"]


class Seat(msgspec.Struct, frozen=True, kw_only=True):
    """A player as the pairing sees them.

    Seats are passed best first (the current standings, or the round-1 order);
    ``points`` must not increase down the list. ``opponents`` are everyone the
    player has met in this event's Swiss rounds (a set, or a list: only ``in`` is asked
    of it); ``byes`` how many byes they had (awarded or not); ``table`` a fixed table
    (EV-5.7).
    """

    id: str
    points: int = 0
    opponents: Collection[str] = frozenset()
    byes: int = 0
    table: int | None = None


class _Costs:
    """The tier units for one round (see the module doc)."""

    def __init__(self, seats: Sequence[Seat]) -> None:
        n = len(seats)
        self.points = [s.points for s in seats]
        spread = (max(self.points) - min(self.points)) if seats else 0
        # each run of equal points (a score group) at once: a handful of groups, not a
        # step of Python per player (10,000 in the largest events)
        self.start: list[int] = []
        self.end: list[int] = []
        self.half: list[int] = []
        first = 0
        for _, run in itertools.groupby(self.points):
            size = len(list(run))
            self.start += [first] * size
            self.end += [first + size - 1] * size
            self.half += [size // 2] * size
            first += size
        self.shape_unit = 1
        self.score_unit = 2 * n * n + 1
        self.bye_unit = (n // 2 + 1) * (spread * spread + 1) * self.score_unit
        self.repeat_unit = (n + 1) * self.bye_unit
        self.top = (n + 2) * self.repeat_unit

    def shape(self, i: int, j: int) -> int:
        if i > j:
            i, j = j, i
        if self.start[i] == self.start[j]:
            return abs((j - i) - self.half[i])
        return (self.end[i] - i) + (j - self.start[j])

    def pair(self, i: int, j: int, repeat: bool) -> int:
        d = self.points[i] - self.points[j]
        cost = self.score_unit * d * d + self.shape(i, j)
        return self.top - cost - (self.repeat_unit if repeat else 0)

    def gaps(self, pairs: Sequence[tuple[int, int]]) -> int:
        """The total squared score gap of ``pairs``."""
        points = self.points
        return sum((points[i] - points[j]) ** 2 for i, j in pairs)

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


def _ideal_slots(costs: _Costs, rest: Sequence[int]) -> list[tuple[int, int]]:
    """The round's pairing if nobody had met: each pair already at its lower bound.

    ``rest`` are the players to pair in standings order (an even count). Score
    groups pair top half against bottom half (rank i meets rank i + half the group,
    as the shape tier counts it); an odd group's lowest floats down to the highest
    of the next group. Every score gap is then the smallest possible: a boundary
    between two groups is crossed once when the count above it is odd, never
    otherwise, which is what pairing the points in sorted order costs (the least
    squared gap of any perfect matching, rematches allowed). Pairs come grouped by
    score group, each group's in order of its higher player.
    """
    slots: list[tuple[int, int]] = []
    carry: int | None = None
    pos, m = 0, len(rest)
    start, end, halves = costs.start, costs.end, costs.half
    while pos < m:
        first = rest[pos]
        stop = bisect.bisect_right(rest, end[first], pos)  # ``rest`` ascends: the group's end
        group = list(rest[pos:stop])
        pos = stop
        if carry is not None:
            slots.append((carry, group[0]))
            group = group[1:]
            carry = None
        if len(group) % 2:
            carry = group.pop()
        if not group:
            continue
        half = halves[group[0]]
        if 2 * half == len(group) and group[0] == start[group[0]] == group[-1] - 2 * half + 1:
            # the whole score group, nobody carried in or out: each meets their shape
            # partner (as the loop below pairs them), in order (a large round's every group)
            slots.extend(zip(group[:half], group[half:], strict=True))
            continue
        present = set(group)
        used: set[int] = set()
        pairs: list[tuple[int, int]] = []
        for i in group:
            j = i + half
            if i not in used and j in present and j not in used:
                pairs.append((i, j))
                used.add(i)
                used.add(j)
        left = [i for i in group if i not in used]
        h = len(left) // 2
        pairs.extend((left[t], left[t + h]) for t in range(h))
        pairs.sort()
        slots.extend(pairs)
    return slots


def _solve_block(
    seats: Sequence[Seat], costs: _Costs, slots: Sequence[tuple[int, int]]
) -> list[tuple[int, int]] | None:
    """The best rematch-free pairing of the players in ``slots`` among themselves
    (complete graph), or None if it has none or its score gap exceeds the slots' own."""
    nodes = sorted(p for pair in slots for p in pair)
    ids = [seats[i].id for i in nodes]
    b = len(nodes)
    points, start, half = costs.points, costs.start, costs.half
    top, unit = costs.top, costs.score_unit
    edges: list[tuple[int, int, int]] = []
    # each player's opponents by their place in the block (``None``: not in it), so the
    # 2,016 pairs of a block of 64 test an integer in a set, not a name in a list of names
    find = {player: u for u, player in enumerate(ids)}.get
    # costs.pair(i, j, False) for i < j, inlined: this loop is most of a block's time
    for u in range(b):
        i = nodes[u]
        met, p_i, s_i, mid, tail = (
            set(map(find, seats[i].opponents)),
            points[i],
            start[i],
            i + half[i],  # the shape partner's place
            costs.end[i] - i,
        )
        # a pair within the score group has no score gap (one subtraction from the 76-bit
        # ``top``, not three big-integer steps): most of a block's pairs
        edges += [
            (
                u,
                v,
                top - abs(j - mid)
                if start[j] == s_i
                else top - (unit * (d := p_i - points[j]) * d + tail + j - start[j]),
            )
            for v, j in enumerate(nodes[u + 1 :], u + 1)
            if v not in met
        ]
    graph = rx.PyGraph()
    graph.add_nodes_from(range(b))
    graph.add_edges_from(edges)
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(matching) != b:
        return None
    # nodes ascend: each pair lower place first, as the ideal slots have them
    pairs = [(nodes[u], nodes[v]) if u < v else (nodes[v], nodes[u]) for u, v in matching]
    if costs.gaps(pairs) != costs.gaps(slots):
        return None
    return pairs


def _blocks(
    seats: Sequence[Seat], costs: _Costs, rest: Sequence[int], block: int
) -> list[tuple[int, int]] | None:
    """Pair ``rest`` block by block, or None where that cannot be shown optimal.

    The ideal pairing (``_ideal_slots``) is cut into blocks of ``block`` players.
    A block whose ideal pairs are no rematches and all of shape cost 0 stands: it
    is at the lower bound of every tier. Any other block is matched on its own
    (complete graph without rematches, the same weights); if that has no perfect
    matching or a larger score gap than the ideal, the block grows (two, then
    four blocks' worth) and is matched again, and past that the caller falls back
    to the whole-round matching. So every pairing returned has no rematch and the
    least squared score gap of any perfect matching of ``rest``.
    """
    slots = _ideal_slots(costs, rest)
    per = max(1, block // 2)
    chunks = [slots[c : c + per] for c in range(0, len(slots), per)]
    ids = [s.id for s in seats]
    met = [s.opponents for s in seats]

    start, end, half = costs.start, costs.end, costs.half

    def clean(chunk: Sequence[tuple[int, int]]) -> bool:
        for i, j in chunk:  # ``i < j``: no rematch and ``costs.shape(i, j) == 0``, inlined
            if ids[j] in met[i]:
                return False
            if start[i] == start[j]:
                if j - i != half[i]:
                    return False
            elif i != end[i] or j != start[j]:
                return False
        return True

    pairs: list[tuple[int, int]] = []
    c, n_chunks = 0, len(chunks)
    while c < n_chunks:
        if clean(chunks[c]):
            pairs.extend(chunks[c])
            c += 1
            continue
        for width in (1, 2, 4):
            stop = min(n_chunks, c + width)
            region = [pair for chunk in chunks[c:stop] for pair in chunk]
            solved = _solve_block(seats, costs, region)
            if solved is not None:
                pairs.extend(solved)
                c = stop
                break
            if stop == n_chunks:
                return None
        else:
            return None
    return pairs


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
    seats: Sequence[Seat], *, complete_up_to: int = 128, start_k: int = 8, block: int = 64
) -> tuple[list[tuple[str, str]], str | None]:
    """Pair ``seats`` (best first): the pairs, higher-placed first, and the bye, if any.

    Up to ``complete_up_to`` players the complete graph is matched; above, blocks of
    ``block`` players, else the sparse graph starting at ``start_k`` (module doc).
    """
    pairs, bye = _swiss_places(seats, complete_up_to=complete_up_to, start_k=start_k, block=block)
    return [(seats[i].id, seats[j].id) for i, j in pairs], None if bye is None else seats[bye].id


def _swiss_places(
    seats: Sequence[Seat], *, complete_up_to: int, start_k: int, block: int
) -> tuple[list[tuple[int, int]], int | None]:
    """``swiss_pairs`` by the players' places in ``seats``: each pair ``(i, j)`` with
    ``i < j``, in order of ``i``, and the bye's place."""
    n = len(seats)
    if n == 0:
        return [], None
    if n == 1:
        return [], 0
    points = [s.points for s in seats]
    if any(map(operator.lt, points, itertools.islice(points, 1, None))):
        raise ValueError("seats must be ordered by points, best first")
    costs = _Costs(seats)
    # the lowest player without a bye, looked for from the bottom (not 10,000 tested)
    eligible = next((i for i in range(n - 1, -1, -1) if seats[i].byes == 0), None)
    lowest_eligible = n - 1 if eligible is None else eligible
    if n > complete_up_to and (n % 2 == 0 or eligible is not None):
        rest = list(range(n))
        if n % 2:
            del rest[lowest_eligible]
        found = _blocks(seats, costs, rest, block)
        if found is not None:
            ordered = sorted(found)  # each pair ``(i, j)`` with ``i < j`` already
            return ordered, lowest_eligible if n % 2 else None
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
    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    for i in range(n):
        j = mate[i]
        if j == n:
            bye = i
        elif i < j:
            pairs.append((i, j))
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
    if not awarded and set(map(operator.attrgetter("table"), seats)) <= {None}:
        return _numbered(number, seats, complete_up_to)
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


def _numbered(number: int, seats: Sequence[Seat], complete_up_to: int) -> Round:
    """``pair_swiss`` with no awarded bye and no fixed table (a large event's every round):
    every seat is matched, and ``assign_tables``' order is worked out from the places
    (the pair ``(i, j)``, ``i < j``, holds points ``p[i] >= p[j]`` and its best standing
    is ``i``: the key ``(-p[i], -p[j], i)``), without its dicts of 10,000 players and a
    key made by a Python call per table."""
    pairs, bye = _swiss_places(seats, complete_up_to=complete_up_to, start_k=8, block=64)
    points = [s.points for s in seats]
    ordered = sorted([(-points[i], -points[j], i, j) for i, j in pairs])
    ids = [s.id for s in seats]
    pairings = [
        Pairing(table=table, players=(ids[i], ids[j]))
        for table, (_, _, i, j) in enumerate(ordered, start=1)
    ]
    if bye is not None:
        pairings.append(Pairing(table=None, players=(ids[bye],), bye=True))
    return Round(number=number, kind="swiss", pairings=tuple(pairings))
