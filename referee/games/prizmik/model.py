"""PRIZMIK value types: the action, the chosen variants and the game state.

All three are frozen ``msgspec`` structs so that they can be stored as JSON in
events, compared, hashed and shared between threads without copying. Actions
and states are created with ``gc=False``: they only hold strings, ints, tuples
of ints and other frozen structs, so they can never be part of a reference
cycle, and leaving them out of the cycle collector makes replaying a long game
(which keeps every state) about 15% faster.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

import msgspec

from referee.contract import Outcome
from referee.games.prizmik.board import SQUARE_NAMES

__all__ = [
    "SEPARATORS",
    "ActionKind",
    "PrizmikAction",
    "PrizmikState",
    "PrizmikVariants",
    "Square",
]

ActionKind = Literal["deploy", "move", "capture"]
Square = Annotated[int, msgspec.Meta(ge=0, le=63)]

SEPARATORS: Final[dict[str, str]] = {"deploy": ">", "move": "-", "capture": "x"}
"""The notation sign of each action kind (PZ-9.2)."""


class PrizmikAction(msgspec.Struct, frozen=True, gc=False):
    """One action: its kind and the origin and target squares (0 = a1 .. 63 = h8).

    Kept to three plain fields because it is stored as JSON in every event;
    ``str(action)`` gives the canonical notation (``c1>c2``, ``c2-c4``, ``c4xd5``).
    """

    kind: ActionKind
    origin: Square
    target: Square

    def __str__(self) -> str:
        try:
            return f"{SQUARE_NAMES[self.origin]}{SEPARATORS[self.kind]}{SQUARE_NAMES[self.target]}"
        except (IndexError, KeyError, TypeError):
            return f"<malformed action {self.kind!r} {self.origin!r} {self.target!r}>"


class PrizmikVariants(msgspec.Struct, frozen=True, kw_only=True):
    """The variant rulings a table chose, already validated (see PZ-10).

    ``quiet_limit`` of 0 means the optional quiet-play draw (PZ-10.11) is off.
    ``far_rank_step`` (the default) lets a lone fighter already on its far rank promote by
    stepping or capturing along it; off, only an arrival from another rank promotes (PZ-10.5).
    ``waiting_promotion`` on, a lone fighter waiting on its far rank also promotes when an
    action empties its home square (PZ-10.15).
    ``impossible_test`` ``files`` adds the closed-files test to PZ-10.7's (PZ-10.13).
    """

    setup_files: str = "ceg"
    fleet_capturable: bool = True
    no_legal_action: Literal["loss", "draw"] = "loss"
    quiet_limit: int = 0
    far_rank_step: bool = True
    impossible_test: Literal["pieces", "files"] = "pieces"
    waiting_promotion: bool = False

    def as_dict(self) -> dict[str, str]:
        """The variants in the string form a ``Setup`` carries them."""
        return {
            "setup_files": self.setup_files,
            "fleet_capturable": "yes" if self.fleet_capturable else "no",
            "no_legal_action": self.no_legal_action,
            "quiet_limit": str(self.quiet_limit) if self.quiet_limit else "off",
            "far_rank_step": "yes" if self.far_rank_step else "no",
            "impossible_test": self.impossible_test,
            "waiting_promotion": "yes" if self.waiting_promotion else "no",
        }


DEFAULT_VARIANTS: Final = PrizmikVariants()


class PrizmikState(msgspec.Struct, frozen=True, gc=False):
    """A PRIZMIK position with the counters needed to decide the result cheaply.

    ``board`` is 64 characters (see ``referee.games.prizmik.board``). The per-side
    pairs are indexed red = 0, blue = 1: ``bases`` counts lone bases plus full
    fleets, ``ships`` counts every piece holding a ship (full fleet, ship stack,
    lone ship), ``fighters`` counts lone fighters only. ``quiet`` is the number
    of actions since the last capture or promotion. ``result`` is set by
    ``apply`` the moment a rule ends the game; the no-legal-action ending
    (PZ-10.6) is found lazily by the rules' ``outcome``.
    """

    board: str
    turn: Literal["red", "blue"]
    ply: int
    reserves: tuple[int, int]
    bases: tuple[int, int]
    ships: tuple[int, int]
    fighters: tuple[int, int]
    quiet: int = 0
    variants: PrizmikVariants = DEFAULT_VARIANTS
    ruleset: str = "prizmik/1"
    result: Outcome | None = None
