"""Single elimination (and the top-N cut) and round robin.

Elimination (EV-6.1 to EV-6.3): seeds 1..N sit in the standard bracket order of
the next power of two, built by repeatedly pairing each seed s of a bracket of
size m with m*2+1-s: 1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight, so seeds 1 and 2 can
meet only in the final and each round's favourite meets the weakest seed left in
its quarter. Seeds past N are missing, so the top seeds get the byes. The next
round pairs the winners of neighbouring bracket slots, in order.

Round robin (EV-5.9): the circle (Berger) method. Players sit on a circle with
the first fixed; each round pairs seat i with seat n-1-i and the others turn one
place. With an odd count an empty seat is added, and its partner has the bye.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.tournament.model import Pairing, Round, RoundKind

__all__ = [
    "bracket_order",
    "next_elimination_round",
    "round_robin_round",
    "round_robin_schedule",
    "seed_bracket",
]


def bracket_order(size: int) -> list[int]:
    """Seeds 1..size (a power of two) in bracket order: ``[1, 8, 4, 5, 2, 7, 3, 6]`` for 8."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket holds a power of two players, not {size}")
    order = [1]
    while len(order) < size:
        m = 2 * len(order)
        order = [seed for s in order for seed in (s, m + 1 - s)]
    return order


def seed_bracket(number: int, seeds: Sequence[str], kind: RoundKind = "cut") -> Round:
    """The first elimination round for ``seeds`` (best first); byes to the top seeds."""
    if len(seeds) < 2:
        raise ValueError("an elimination bracket needs at least two players")
    size = 1
    while size < len(seeds):
        size *= 2
    order = bracket_order(size)
    pairings: list[Pairing] = []
    table = 1
    for slot in range(0, size, 2):
        a, b = order[slot], order[slot + 1]
        present = [seeds[s - 1] for s in (a, b) if s <= len(seeds)]
        if len(present) == 2:
            pairings.append(Pairing(table=table, players=(present[0], present[1])))
            table += 1
        else:
            pairings.append(Pairing(table=None, players=(present[0],), bye=True))
    return Round(number=number, kind=kind, pairings=tuple(pairings))


def next_elimination_round(
    number: int, previous: Round, winners: Mapping[int, str], kind: RoundKind | None = None
) -> Round | None:
    """Pair the winners of ``previous`` by bracket slot; ``None`` once a champion is left.

    ``winners`` maps each table of ``previous`` to the id of its match winner;
    byes carry their player through.
    """
    through: list[str] = []
    for pairing in previous.pairings:
        if pairing.bye:
            through.append(pairing.players[0])
        else:
            assert pairing.table is not None
            winner = winners[pairing.table]
            if winner not in pairing.players:
                raise ValueError(f"{winner!r} did not play at table {pairing.table}")
            through.append(winner)
    if len(through) == 1:
        return None
    pairings: list[Pairing] = []
    table = 1
    for slot in range(0, len(through), 2):
        pairings.append(Pairing(table=table, players=(through[slot], through[slot + 1])))
        table += 1
    return Round(number=number, kind=kind or previous.kind, pairings=tuple(pairings))


def round_robin_schedule(players: Sequence[str]) -> list[list[tuple[str, str | None]]]:
    """Every round of a round robin: pairs, with ``(player, None)`` for a bye."""
    circle: list[str | None] = list(players)
    if len(circle) % 2:
        circle.append(None)
    n = len(circle)
    rounds: list[list[tuple[str, str | None]]] = []
    for _ in range(n - 1):
        pairs: list[tuple[str, str | None]] = []
        for i in range(n // 2):
            a, b = circle[i], circle[n - 1 - i]
            if a is None:
                a, b = b, None
            assert a is not None
            pairs.append((a, b))
        rounds.append(pairs)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def round_robin_round(number: int, players: Sequence[str]) -> Round:
    """Round ``number`` (1-based) of the round robin of ``players`` (in seed order)."""
    schedule = round_robin_schedule(players)
    if not 1 <= number <= len(schedule):
        raise ValueError(f"a round robin of {len(players)} has {len(schedule)} rounds")
    pairings: list[Pairing] = []
    byes: list[Pairing] = []
    table = 1
    for a, b in schedule[number - 1]:
        if b is None:
            byes.append(Pairing(table=None, players=(a,), bye=True))
        else:
            pairings.append(Pairing(table=table, players=(a, b)))
            table += 1
    return Round(number=number, kind="round-robin", pairings=tuple(pairings + byes))
