"""Single elimination (and the top-N cut) and round robin.

Elimination (EV-6.1 to EV-6.3): seeds 1..N sit in the standard bracket order of
the next power of two, built by repeatedly pairing each seed s of a bracket of
size m with m*2+1-s: 1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight, so seeds 1 and 2 can
meet only in the final and each round's favourite meets the weakest seed left in
its quarter. Seeds past N are missing, so the top seeds get the byes. The next
round pairs the winners of neighbouring bracket slots, in order, the better seed listed
(so seated) first: the higher-ranked player chooses to play first (EV-6.8, MTR 2.2).

Round robin (EV-5.9): the circle (Berger) method. Players sit on a circle with
the first fixed; each round pairs seat i with seat n-1-i and the others turn one
place. With an odd count an empty seat is added, and its partner has the bye.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from referee.tournament.model import Pairing, Round, RoundKind

__all__ = [
    "bracket_order",
    "bracket_seeds",
    "bracket_through",
    "next_bracket_round",
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


def bracket_seeds(first: Round) -> list[str]:
    """The seeds, best first, of a bracket whose first round is ``first`` (as
    ``seed_bracket`` lays it out): the inverse of ``seed_bracket``."""
    slots = 2 * len(first.pairings)
    order = bracket_order(slots) if slots >= 2 and not slots & (slots - 1) else None
    if order is None:  # not a seeded bracket (paired by hand): the order it lists
        return [p for pairing in first.pairings for p in pairing.players]
    seeded: list[tuple[int, str]] = []
    for index, pairing in enumerate(first.pairings):
        # the upper seed of a slot is listed first; a bye is the upper seed alone
        seeded += zip(order[2 * index : 2 * index + 2], pairing.players, strict=False)
    return [p for _, p in sorted(seeded)]


def next_elimination_round(
    number: int,
    previous: Round,
    winners: Mapping[int, str],
    kind: RoundKind | None = None,
    seeds: Sequence[str] = (),
) -> Round | None:
    """Pair the winners of ``previous`` by bracket slot; ``None`` once a champion is left.

    ``winners`` maps each table of ``previous`` to the id of its match winner;
    byes carry their player through. ``seeds`` (best first) lists the better seed of
    each match first (EV-6.8); without them, the upper slot's winner is first.
    """
    return next_bracket_round(number, [previous], {previous.number: winners}, kind, seeds)


def bracket_through(
    rounds: Sequence[Round], winners: Mapping[int, Mapping[int, str]]
) -> list[str | None]:
    """Who went through each slot of the latest of ``rounds`` (a bracket's rounds in order),
    slot by slot; ``None`` where nobody did. A player's slot in round k is their first-round
    slot halved k times, so a slot nobody came to keeps its place in the bracket."""
    first = rounds[0]
    slot0 = {p: i for i, pairing in enumerate(first.pairings) for p in pairing.players}
    width = len(first.pairings)
    through: list[str | None] = []
    for level, rnd in enumerate(rounds):
        through = [None] * width
        for pairing in rnd.pairings:
            if pairing.bye:
                winner = pairing.players[0]
            else:
                assert pairing.table is not None
                winner = winners[rnd.number][pairing.table]
                if winner not in pairing.players:
                    raise ValueError(f"{winner!r} did not play at table {pairing.table}")
            through[slot0[winner] >> level] = winner
        width = (width + 1) // 2
    return through


def next_bracket_round(
    number: int,
    rounds: Sequence[Round],
    winners: Mapping[int, Mapping[int, str]],
    kind: RoundKind | None = None,
    seeds: Sequence[str] = (),
    gone: Collection[str] = (),
) -> Round | None:
    """The bracket round after ``rounds`` (its rounds so far, in order; ``winners``: per
    round number, each table's match winner); ``None`` once one slot is left.

    Neighbouring slots meet (EV-6.3), the better of ``seeds`` listed first (EV-6.8). A
    player in ``gone`` (dropped) is not paired again and nobody takes their place: the
    opponent they would have met has a bye, and a slot left empty on both sides sends
    nobody on (EV-2.5, EV-6.9)."""
    through = [p if p not in gone else None for p in bracket_through(rounds, winners)]
    if len(through) <= 1:
        return None
    rank = {p: i for i, p in enumerate(seeds)}
    pairings: list[Pairing] = []
    table = 1
    for slot in range(0, len(through), 2):
        pair = sorted(
            (p for p in through[slot : slot + 2] if p is not None),
            key=lambda p: rank.get(p, len(rank)),
        )
        if len(pair) == 2:
            pairings.append(Pairing(table=table, players=(pair[0], pair[1])))
            table += 1
        elif pair:
            pairings.append(Pairing(table=None, players=(pair[0],), bye=True))
    if not pairings:
        return None
    return Round(number=number, kind=kind or rounds[-1].kind, pairings=tuple(pairings))


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
