"""How many Swiss rounds an event plays when the organiser does not say (EV-1.3).

From nine players up, the table follows the recommended numbers of MTR Appendix
E; below nine, where the MTR would run a single-elimination event instead, a
Swiss event plays enough rounds for one undefeated player (ceil(log2 n)), as
common pairing tools do. A player with a k-round awarded bye counts as 2^k
players, as Appendix E says.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["DEFAULT_ROUNDS", "default_rounds", "effective_players"]

DEFAULT_ROUNDS: tuple[tuple[int, int, int], ...] = (
    (2, 2, 1),
    (3, 4, 2),
    (5, 8, 3),
    (9, 16, 5),
    (17, 32, 5),
    (33, 64, 6),
    (65, 128, 7),
    (129, 226, 8),
    (227, 409, 9),
    (410, 10**9, 10),
)
"""(fewest players, most players, Swiss rounds)."""


def effective_players(byes: Iterable[int]) -> int:
    """The count the table is read with: each player counts 2^(awarded bye rounds)."""
    return sum(2 ** min(b, 3) for b in byes)


def default_rounds(players: int) -> int:
    """Swiss rounds for an (effective) player count; 0 for fewer than two players."""
    for low, high, rounds in DEFAULT_ROUNDS:
        if low <= players <= high:
            return rounds
    return 0
