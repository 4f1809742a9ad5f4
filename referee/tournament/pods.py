"""Pods for three- and four-player games (Prismatic), formed by standing.

Sizes (EV-7.1): tables of four, and as many tables of three as the count needs:
n mod 4 = 0 → none, 3 → one, 2 → two, 1 → three. Counts too small for that:
1 → a bye, 2 → one two-player pod (a legal Prismatic game), 5 → 3 + 2.
Tables of three sit below the tables of four (EV-7.2).

Players are dealt in standing order (the top pod is the top four). Then repeat
opponents are removed where possible (EV-7.2): first by swapping single players
between neighbouring pods, then between any two pods, taking at each step the
swap that removes the most repeated meetings and moves players least far from
their standing; with twelve players or fewer an exhaustive search finishes the
job, so a pod round without repeats is always found there when one exists.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from referee.tournament.model import Pairing, Round
from referee.tournament.pairing import Seat, assign_tables

__all__ = ["pair_pods", "pod_sizes", "repeats_in"]

EXHAUSTIVE_UP_TO = 12


def pod_sizes(n: int) -> list[int]:
    """Pod sizes for ``n`` players, largest first (a lone player gets a bye: ``[1]``)."""
    if n <= 0:
        return []
    if n <= 4:
        return [n]
    if n == 5:
        return [3, 2]
    threes = (4 - n % 4) % 4
    fours = (n - 3 * threes) // 4
    return [4] * fours + [3] * threes


def repeats_in(pods: Sequence[Sequence[str]], met: dict[str, frozenset[str]]) -> int:
    """How many pairs of players sharing a pod have met before."""
    return sum(1 for pod in pods for a, b in combinations(pod, 2) if b in met.get(a, frozenset()))


def _pod_repeats(pod: Sequence[int], met: list[frozenset[int]]) -> int:
    return sum(1 for a, b in combinations(pod, 2) if b in met[a])


def _displacement(pods: Sequence[Sequence[int]]) -> int:
    out = 0
    start = 0
    for pod in pods:
        for player in pod:
            if player < start:
                out += start - player
            elif player >= start + len(pod):
                out += player - (start + len(pod) - 1)
        start += len(pod)
    return out


def _local_search(pods: list[list[int]], met: list[frozenset[int]], reach: int) -> None:
    while True:
        best: tuple[int, int, int, int, int, int] | None = None
        for x in range(len(pods)):
            for y in range(x + 1, min(len(pods), x + 1 + reach)):
                before = _pod_repeats(pods[x], met) + _pod_repeats(pods[y], met)
                if not before:
                    continue
                for i, a in enumerate(pods[x]):
                    for j, b in enumerate(pods[y]):
                        px = [*pods[x][:i], b, *pods[x][i + 1 :]]
                        py = [*pods[y][:j], a, *pods[y][j + 1 :]]
                        gain = before - _pod_repeats(px, met) - _pod_repeats(py, met)
                        if gain <= 0:
                            continue
                        moved = abs(a - b)
                        candidate = (-gain, moved, x, y, i, j)
                        if best is None or candidate < best:
                            best = candidate
        if best is None:
            return
        _, _, x, y, i, j = best
        pods[x][i], pods[y][j] = pods[y][j], pods[x][i]


def _groupings(players: list[int], sizes: list[int]) -> list[list[list[int]]]:
    """Every split of ``players`` into groups of ``sizes`` (groups unordered)."""
    if not players:
        return [[]]
    out: list[list[list[int]]] = []
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        remaining = list(sizes)
        remaining.remove(size)
        for others in combinations(rest, size - 1):
            group = [first, *others]
            left = [p for p in rest if p not in others]
            for tail in _groupings(left, remaining):
                out.append([group, *tail])
    return out


def _ordered(groups: list[list[int]]) -> list[list[int]]:
    return sorted((sorted(g) for g in groups), key=lambda g: (-len(g), g[0]))


def _exhaustive(n: int, sizes: list[int], met: list[frozenset[int]]) -> list[list[int]]:
    best: tuple[int, int, list[list[int]]] | None = None
    for groups in _groupings(list(range(n)), sizes):
        pods = _ordered(groups)
        cost = (sum(_pod_repeats(p, met) for p in pods), _displacement(pods))
        if best is None or cost < best[:2]:
            best = (*cost, pods)
    assert best is not None
    return best[2]


def pair_pods(number: int, seats: Sequence[Seat], *, awarded: Sequence[str] = ()) -> Round:
    """Pods for round ``number`` from ``seats`` (best first); awarded byes sit out."""
    awarded_set = set(awarded)
    playing = [s for s in seats if s.id not in awarded_set]
    n = len(playing)
    index = {s.id: i for i, s in enumerate(playing)}
    met = [frozenset(index[o] for o in s.opponents if o in index) for s in playing]
    sizes = pod_sizes(n)
    byes = [s.id for s in seats if s.id in awarded_set]
    pods: list[list[int]] = []
    if sizes == [1]:
        byes.append(playing[0].id)
    elif sizes:
        start = 0
        for size in sizes:
            pods.append(list(range(start, start + size)))
            start += size
        _local_search(pods, met, reach=1)
        _local_search(pods, met, reach=len(pods))
        if n <= EXHAUSTIVE_UP_TO and sum(_pod_repeats(p, met) for p in pods) > 0:
            pods = _exhaustive(n, sizes, met)
        pods = _ordered(pods)
    groups = [[playing[i].id for i in pod] for pod in pods]
    position = {s.id: i for i, s in enumerate(seats)}
    fixed = {s.id: s.table for s in seats}
    tables = _tables_in_pod_order(groups, position, fixed)
    byes.sort(key=lambda p: position[p])
    pairings = tables + [Pairing(table=None, players=(p,), bye=True) for p in byes]
    return Round(number=number, kind="pods", pairings=tuple(pairings))


def _tables_in_pod_order(
    groups: list[list[str]],
    position: dict[str, int],
    fixed: dict[str, int | None],
) -> list[Pairing]:
    """Tables follow the pod order (fours above threes); fixed tables are kept."""
    pod_rank = {p: -i for i, group in enumerate(groups) for p in group}
    return assign_tables(groups, pod_rank, position, fixed)
