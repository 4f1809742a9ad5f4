"""The Crystale board: 29 hexagonal tiles in rows of 5, 6, 7, 6 and 5 (CR-4).

Tiles are named by row letter (``a`` at the top to ``e`` at the bottom) and a
position counted from the left (``c1`` .. ``c7`` in the middle row). Inside the
engine a tile is its index 0..28 in reading order. Geometry uses "doubled"
columns: tile ``i`` of row ``r`` sits at column ``2*i + |r-2|``, so neighbours
are two columns apart in a row and one column apart in the rows above and below.
Every table here is computed once at import.
"""

from __future__ import annotations

import random
from typing import Final

__all__ = [
    "BEATS",
    "ELEMENTS",
    "ELEMENT_LETTERS",
    "LETTER_OF",
    "NEIGHBOURS",
    "P1_START",
    "P2_START",
    "ROW_SIZES",
    "TILE_COUNT",
    "TILE_INDEX",
    "TILE_NAMES",
    "distance",
    "draw_tiles",
    "element_of_letter",
    "tile_atk_modifier",
]

ROW_SIZES: Final = (5, 6, 7, 6, 5)
ROW_LETTERS: Final = "abcde"
TILE_COUNT: Final = sum(ROW_SIZES)

_ROW: list[int] = []
_COL: list[int] = []
TILE_NAMES: Final[tuple[str, ...]] = tuple(
    f"{ROW_LETTERS[r]}{i + 1}" for r, size in enumerate(ROW_SIZES) for i in range(size)
)
for _r, _size in enumerate(ROW_SIZES):
    for _i in range(_size):
        _ROW.append(_r)
        _COL.append(2 * _i + abs(_r - 2))
ROW_OF: Final[tuple[int, ...]] = tuple(_ROW)
COLUMN_OF: Final[tuple[int, ...]] = tuple(_COL)
TILE_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(TILE_NAMES)}

P1_START: Final = TILE_INDEX["c1"]
"""p1's Summoner starts on the left end of the middle row (CR-4.3)."""
P2_START: Final = TILE_INDEX["c7"]
"""p2's Summoner starts on the right end of the middle row (CR-4.3)."""


def _distance(a: int, b: int) -> int:
    rows = abs(ROW_OF[a] - ROW_OF[b])
    columns = abs(COLUMN_OF[a] - COLUMN_OF[b])
    return rows + max(0, (columns - rows) // 2)


_DISTANCE: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_distance(a, b) for b in range(TILE_COUNT)) for a in range(TILE_COUNT)
)
NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(b for b in range(TILE_COUNT) if _DISTANCE[a][b] == 1) for a in range(TILE_COUNT)
)


def distance(a: int, b: int) -> int:
    """Steps between two tiles over the hexes, ignoring what stands on them (CR-4.4)."""
    return _DISTANCE[a][b]


# -- elements ------------------------------------------------------------------
ELEMENTS: Final = ("Fire", "Water", "Earth", "Thunder", "Wind", "Light", "Darkness", "Ice")
ELEMENT_LETTERS: Final = "FWETALDI"
"""One letter per element in ``ELEMENTS`` order; A (air) is Wind (CR-4.5)."""
LETTER_OF: Final[dict[str, str]] = dict(zip(ELEMENTS, ELEMENT_LETTERS, strict=True))
_ELEMENT_OF: Final[dict[str, str]] = dict(zip(ELEMENT_LETTERS, ELEMENTS, strict=True))

ELEMENT_ALIASES: Final[dict[str, str]] = {
    **{e.lower(): e for e in ELEMENTS},
    "lightning": "Thunder",
    "dark": "Darkness",
}
"""Spellings accepted for an element; Lightning is Thunder's other name (CR-4.6)."""

BEATS: Final[dict[str, str]] = {
    "Fire": "Wind",
    "Water": "Fire",
    "Earth": "Water",
    "Thunder": "Earth",
    "Wind": "Thunder",
    "Light": "Darkness",
    "Darkness": "Light",
}
"""Which element each tile element weakens (CR-4.6); Ice weakens nothing."""


def element_of_letter(letter: str) -> str:
    return _ELEMENT_OF[letter]


def tile_atk_modifier(tile_letter: str, servant_element: str) -> int:
    """CR-4.6: +10 ATK on a tile of the Servant's element, -5 on the tile of the
    element that beats it, 0 otherwise; an Ice tile changes nothing at all."""
    tile = _ELEMENT_OF[tile_letter]
    if tile == "Ice":
        return 0
    if tile == servant_element:
        return 10
    if BEATS[tile] == servant_element:
        return -5
    return 0


def draw_tiles(seed: int) -> str:
    """CR-I.1: the layout for ``seed``: each tile in reading order takes
    ``random.Random(seed).choice("FWETALDI")``."""
    rng = random.Random(seed)
    return "".join(rng.choice(ELEMENT_LETTERS) for _ in range(TILE_COUNT))
