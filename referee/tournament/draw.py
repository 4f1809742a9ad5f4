"""The seeded draw (EV-5.6): every random choice of an event (round 1's order, and so its
bye) comes from the seed recorded when the event was created, by a rule anyone can redo.

The core draws nothing itself: the seed is an input, chosen by the service when the
organiser gives none, stored in the event and posted with round 1's pairings.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

__all__ = ["draw_key", "seeded_order"]


def draw_key(seed: int, round_number: int, player: str) -> str:
    """The SHA-256 hex digest of ``"SEED:ROUND:PLAYER-ID"``: a player's place in the draw."""
    return hashlib.sha256(f"{seed}:{round_number}:{player}".encode()).hexdigest()


def seeded_order(seed: int, round_number: int, players: Iterable[str]) -> list[str]:
    """``players`` (ids) in the order drawn from ``seed`` for ``round_number``: by
    ``draw_key``, smallest first. Recomputable with any SHA-256 tool from the posted seed
    and the registered ids."""
    return sorted(players, key=lambda p: draw_key(seed, round_number, p))
