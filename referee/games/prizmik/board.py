"""Squares, piece codes and precomputed geometry for PRIZMIK.

Everything here is built once at import so that the rules never compute a
neighbour, a direction or a name while checking or applying an action: the hot
path only indexes tuples and tests membership in frozensets.

Squares are the integers 0..63, ``rank * 8 + file`` (a1 = 0, h1 = 7, a8 = 56).
The board is a 64-character string, one character per square: ``.`` for an
empty square, an upper-case letter for a red piece and a lower-case letter for
a blue one. A string keeps states small, immutable, hashable and readable in
JSON, and a new board is a couple of slices away.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "BASE",
    "BLUE",
    "CHAR",
    "DIAG4",
    "EMPTY",
    "ENEMY",
    "FAR_HOME",
    "FAR_RANK",
    "FIGHTER",
    "FILES",
    "FLEET",
    "FLEET_DEPLOY",
    "FORWARD",
    "HOME_RANK",
    "JUMP2",
    "KIND_LETTERS",
    "KIND_NAMES",
    "KIND_OF",
    "NEIGH8",
    "ORTHO4",
    "OWN",
    "RED",
    "SEATS",
    "SHIP",
    "SIDE_OF",
    "SQUARE_INDEX",
    "SQUARE_NAMES",
    "STACK",
    "piece_name",
    "square_name",
]

SEATS: Final = ("red", "blue")
"""Seat names by side index: red is side 0 and moves first."""

RED: Final = 0
BLUE: Final = 1

EMPTY: Final = "."

# Kind codes: small ints so that tables can be indexed by them. The order is
# chosen so that "can move" is ``kind >= STACK`` and "contains a ship" is
# ``FLEET <= kind <= SHIP``.
BASE: Final = 1
FLEET: Final = 2
STACK: Final = 3
SHIP: Final = 4
FIGHTER: Final = 5

KIND_NAMES: Final[dict[int, str]] = {
    BASE: "base",
    FLEET: "full fleet",
    STACK: "ship stack",
    SHIP: "ship",
    FIGHTER: "fighter",
}
"""Plain-words name of each kind, used in violation reasons and ``describe``."""

KIND_LETTERS: Final[dict[int, str]] = {
    FLEET: "F",
    BASE: "B",
    STACK: "S",
    SHIP: "H",
    FIGHTER: "X",
}
"""Board letter of each kind for red; blue uses the lower-case letter."""

CHAR: Final[tuple[dict[int, str], dict[int, str]]] = (
    {k: v.upper() for k, v in KIND_LETTERS.items()},
    {k: v.lower() for k, v in KIND_LETTERS.items()},
)
"""``CHAR[side][kind]``: the board character of a piece."""

KIND_OF: Final[dict[str, int]] = {EMPTY: 0}
SIDE_OF: Final[dict[str, int]] = {EMPTY: -1}
for _side in (RED, BLUE):
    for _kind, _ch in CHAR[_side].items():
        KIND_OF[_ch] = _kind
        SIDE_OF[_ch] = _side

OWN: Final[tuple[dict[str, int], dict[str, int]]] = (
    {ch: k for k, ch in CHAR[RED].items()},
    {ch: k for k, ch in CHAR[BLUE].items()},
)
"""``OWN[side].get(char)``: the kind of ``side``'s piece, or None for anything else."""

ENEMY: Final[tuple[dict[str, int], dict[str, int]]] = (OWN[BLUE], OWN[RED])
"""``ENEMY[side].get(char)``: the kind of an opposing piece, or None."""

FILES: Final = "abcdefgh"

SQUARE_NAMES: Final[tuple[str, ...]] = tuple(f"{FILES[sq % 8]}{sq // 8 + 1}" for sq in range(64))
SQUARE_INDEX: Final[dict[str, int]] = {name: sq for sq, name in enumerate(SQUARE_NAMES)}

HOME_RANK: Final = (0, 7)
"""Index (0-based) of each side's own back rank."""
FAR_RANK: Final = (7, 0)
"""Index (0-based) of the rank each side advances toward."""
FORWARD: Final = (8, -8)
"""Square offset of one step forward for each side."""


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < 8 and 0 <= rank < 8


def _steps(sq: int, deltas: tuple[tuple[int, int], ...]) -> frozenset[int]:
    file, rank = sq % 8, sq // 8
    return frozenset(
        (rank + dr) * 8 + file + df for df, dr in deltas if _on_board(file + df, rank + dr)
    )


_ORTHO_DELTAS: Final = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAG_DELTAS: Final = ((1, 1), (1, -1), (-1, 1), (-1, -1))

ORTHO4: Final[tuple[frozenset[int], ...]] = tuple(_steps(sq, _ORTHO_DELTAS) for sq in range(64))
"""The up-to-four squares one step along the rank or file."""
DIAG4: Final[tuple[frozenset[int], ...]] = tuple(_steps(sq, _DIAG_DELTAS) for sq in range(64))
"""The up-to-four squares one step diagonally."""
NEIGH8: Final[tuple[frozenset[int], ...]] = tuple(ORTHO4[sq] | DIAG4[sq] for sq in range(64))
"""All up-to-eight neighbouring squares."""


def _jumps(sq: int) -> dict[int, int]:
    file, rank = sq % 8, sq // 8
    out: dict[int, int] = {}
    for df, dr in _ORTHO_DELTAS:
        if _on_board(file + 2 * df, rank + 2 * dr):
            out[(rank + 2 * dr) * 8 + file + 2 * df] = (rank + dr) * 8 + file + df
    return out


JUMP2: Final[tuple[dict[int, int], ...]] = tuple(_jumps(sq) for sq in range(64))
"""``JUMP2[origin][target]``: the middle square of a two-step straight move."""


def _fleet_targets(side: int, sq: int) -> frozenset[int]:
    file, rank = sq % 8, sq // 8
    forward = 1 if side == RED else -1
    return frozenset(
        (rank + dr) * 8 + file + df
        for df, dr in ((-1, 0), (1, 0), (0, forward))
        if _on_board(file + df, rank + dr)
    )


FLEET_DEPLOY: Final[tuple[tuple[frozenset[int], ...], tuple[frozenset[int], ...]]] = (
    tuple(_fleet_targets(RED, sq) for sq in range(64)),
    tuple(_fleet_targets(BLUE, sq) for sq in range(64)),
)
"""``FLEET_DEPLOY[side][origin]``: left, right and forward one step."""


def _far_home(side: int, sq: int) -> int:
    if sq // 8 != FAR_RANK[side]:
        return -1
    return HOME_RANK[side] * 8 + sq % 8


FAR_HOME: Final[tuple[tuple[int, ...], tuple[int, ...]]] = (
    tuple(_far_home(RED, sq) for sq in range(64)),
    tuple(_far_home(BLUE, sq) for sq in range(64)),
)
"""``FAR_HOME[side][sq]``: the promotion home square when ``sq`` is on the far rank, else -1."""


def square_name(sq: int) -> str:
    """The coordinate of square ``sq`` (``0`` is ``a1``)."""
    return SQUARE_NAMES[sq]


def piece_name(ch: str) -> str:
    """Plain words for a board character: ``"red full fleet"``, ``"blue fighter"``."""
    side = SIDE_OF.get(ch, -1)
    if side < 0:
        return "nothing"
    return f"{SEATS[side]} {KIND_NAMES[KIND_OF[ch]]}"
