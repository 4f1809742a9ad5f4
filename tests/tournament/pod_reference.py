"""An independent model of pod rounds (three- and four-player games), written from the
project's rulebook (EV-7.1, EV-7.2, EV-7.4, EV-I.7) and MTR Appendix C, without reading
``referee/tournament/pods.py`` or the standings code.

The MTR has no multiplayer pods: its pods (MTR 7.6) are booster-draft circles inside which
two-player matches are paired, which the project does not run. So the sizes and the scoring
follow the rulebook's own clauses, and the figures Appendix C's arithmetic:

* EV-7.1: fours, and as many threes as the count needs (none for n = 4k, one for a remainder
  of three, two for two, three for one); five players sit three and two, two players one
  table, one player has a bye.
* EV-7.2: dealt from the standings, the top four at table 1, threes at the bottom; players
  who have met are separated where an exchange of players can do it.
* EV-I.7 (pairwise, the default): a pod is a match against each other player: 3 points per
  player placed below, 1 per player sharing the place, 0 per player above, out of 3 per other
  player; the game figures count the pod as one game (3 for first alone, 1 for a shared
  first, 0 otherwise, out of 3); the pod-mates are opponents once per pod.
* EV-3.8, EV-I.15: a pod decided by its linked games takes its places from them: a pod of
  three or four is one game, whose placings are the pod's; a pod of two plays its match, a
  game won by the better place and drawn by equal places, and the first player to the wins
  the match needs is first, the other second: what the equivalent slip gives.
* The percentages, their floor (1/3, EV-I.1), the opponents' averages and the order are
  Appendix C's and MTR 3.1's as in ``mtr_reference``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import combinations

from tests.tournament import mtr_reference as mtr


def sizes(players: int) -> list[int]:
    """Pod sizes by table, top first (EV-7.1); a lone player has a bye (no pod)."""
    if players <= 1:
        return []
    if players == 2:
        return [2]
    if players == 5:
        return [3, 2]
    threes = {0: 0, 1: 3, 2: 2, 3: 1}[players % 4]
    return [4] * ((players - 3 * threes) // 4) + [3] * threes


def deal(order: Sequence[str]) -> list[list[str]]:
    """The straight deal: the standings cut into pods of ``sizes``, top table first."""
    out, start = [], 0
    for size in sizes(len(order)):
        out.append(list(order[start : start + size]))
        start += size
    return out


def repeats(pods: Sequence[Sequence[str]], met: Mapping[str, set[str]]) -> int:
    """How many pairs of pod-mates have met before."""
    return sum(1 for pod in pods for a, b in combinations(pod, 2) if b in met.get(a, set()))


def repeat_free_exists(players: Sequence[str], met: Mapping[str, set[str]]) -> bool:
    """Whether ``players`` can sit in pods of ``sizes`` with no two who have met together
    (exhaustive: small counts only)."""
    want = sorted(sizes(len(players)), reverse=True)

    def place(left: list[str], pods_left: list[int]) -> bool:
        if not left:
            return True
        first, rest = left[0], left[1:]
        for index, size in enumerate(pods_left):
            if index and size == pods_left[index - 1]:
                continue  # the same size again: the same choices
            for mates in combinations(rest, size - 1):
                pod = (first, *mates)
                if repeats([pod], met):
                    continue
                remaining = [p for p in rest if p not in mates]
                if place(remaining, pods_left[:index] + pods_left[index + 1 :]):
                    return True
        return False

    return place(list(players), want)


def places_from_games(
    pod: Sequence[str], games: Sequence[Mapping[str, int]], need: int
) -> dict[str, int] | None:
    """The pod's places once its linked games (each a player -> place map, in the order
    they ended) decide it (EV-3.8, EV-I.15), else ``None``."""
    if not games:
        return None
    if len(pod) > 2:
        return dict(games[0])
    a, b = pod
    wins = {a: 0, b: 0}
    for game in games:
        if game[a] != game[b]:
            wins[a if game[a] < game[b] else b] += 1
        for me, other in ((a, b), (b, a)):
            if wins[me] >= need:
                return {me: 1, other: 2}
    return None


def standings(
    players: Sequence[str], pods: Sequence[Mapping[str, int]], floor: Fraction = mtr.ONE_THIRD
) -> list[tuple[str, int, Fraction, Fraction, Fraction, Fraction]]:
    """Every player's (id, points, MW%, GW%, OMW%, OGW%), best first, from ``pods`` (each a
    player -> place map, 1 best) scored pairwise (EV-I.7); registration order last (EV-I.2)."""
    points = dict.fromkeys(players, 0)
    possible = dict.fromkeys(players, 0)
    game_points = dict.fromkeys(players, 0)
    games = dict.fromkeys(players, 0)
    opponents: dict[str, list[str]] = {p: [] for p in players}
    for pod in pods:
        best = min(pod.values())
        firsts = sum(1 for place in pod.values() if place == best)
        for me, mine in pod.items():
            others = [p for p in pod if p != me]
            opponents[me] += others
            possible[me] += 3 * len(others)
            points[me] += sum(3 if mine < pod[o] else 1 if mine == pod[o] else 0 for o in others)
            games[me] += 1
            if mine == best:
                game_points[me] += 3 if firsts == 1 else 1
    mw = {
        p: max(Fraction(points[p], possible[p]), floor) if possible[p] else floor for p in players
    }
    gw = {
        p: max(Fraction(game_points[p], 3 * games[p]), floor) if games[p] else floor
        for p in players
    }

    def mean(values: list[Fraction]) -> Fraction:
        return sum(values, Fraction(0)) / len(values) if values else floor

    omw = {p: mean([mw[o] for o in opponents[p]]) for p in players}
    ogw = {p: mean([gw[o] for o in opponents[p]]) for p in players}
    order = sorted(players, key=lambda p: (-points[p], -omw[p], -gw[p], -ogw[p], players.index(p)))
    return [(p, points[p], mw[p], gw[p], omw[p], ogw[p]) for p in order]
