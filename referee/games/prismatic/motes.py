"""Mote kinds and their one-letter names, and reading lists of motes and prisms.

Eight colours (R G B C M Y W K) and the prismatic mote (P). Lists of motes are
kept in this order everywhere (``R R G K``), so a list has one canonical text.
Prisms are not motes; where a list may hold both (a commitment, a recipe) they
are written after the motes as ``1 prism`` or ``3 prisms``.
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.kit.multiset import Multiset

__all__ = [
    "COLOURS",
    "COLOUR_NAMES",
    "KINDS",
    "PRISMATIC",
    "ItemsError",
    "colour_of",
    "items_text",
    "motes_text",
    "parse_items",
    "sort_motes",
]

COLOURS: tuple[str, ...] = ("R", "G", "B", "C", "M", "Y", "W", "K")
"""The eight colours: red, green, blue, cyan, magenta, yellow, white, black."""
PRISMATIC = "P"
KINDS: tuple[str, ...] = (*COLOURS, PRISMATIC)
COLOUR_NAMES: dict[str, str] = {
    "R": "red",
    "G": "green",
    "B": "blue",
    "C": "cyan",
    "M": "magenta",
    "Y": "yellow",
    "W": "white",
    "K": "black",
    "P": "prismatic",
}
_BY_NAME = {name: letter for letter, name in COLOUR_NAMES.items()}
_RANK = {kind: i for i, kind in enumerate(KINDS)}


class ItemsError(ValueError):
    """Text that is not a list of mote letters and prisms."""


def colour_of(token: str) -> str | None:
    """The mote letter of ``token`` (a letter or a colour's name, any case), or ``None``."""
    upper = token.upper()
    if upper in _RANK:
        return upper
    return _BY_NAME.get(token.lower())


def sort_motes(motes: Iterable[str]) -> tuple[str, ...]:
    """Motes in canonical order (R G B C M Y W K P)."""
    return tuple(sorted(motes, key=_RANK.__getitem__))


def motes_text(motes: Iterable[str] | Multiset) -> str:
    """``R R G`` (``none`` for no motes)."""
    listed = sort_motes(motes)
    return " ".join(listed) if listed else "none"


def items_text(motes: Iterable[str] | Multiset, prisms: int) -> str:
    """``R R G 1 prism``: motes in order, then the prisms; ``nothing`` when empty."""
    parts = list(sort_motes(motes))
    if prisms:
        parts.append(f"{prisms} prism" + ("s" if prisms != 1 else ""))
    return " ".join(parts) if parts else "nothing"


def parse_items(text: str, *, allow_prisms: bool = True) -> tuple[tuple[str, ...], int]:
    """Read ``R R G 2 prisms`` (also ``RRG``, ``prism``) into sorted motes and a prism count."""
    motes: list[str] = []
    prisms = 0
    tokens = text.split()
    i = 0
    while i < len(tokens):
        token = tokens[i]
        low = token.lower()
        if low.isdigit() and i + 1 < len(tokens) and tokens[i + 1].lower() in ("prism", "prisms"):
            if not allow_prisms:
                raise ItemsError("prisms cannot be named here")
            count = int(low)
            if count < 1 or count > 50:
                raise ItemsError(f"{count} prisms: a count is 1 to 50")
            prisms += count
            i += 2
            continue
        if low in ("prism", "prisms"):
            if not allow_prisms:
                raise ItemsError("prisms cannot be named here")
            prisms += 1
            i += 1
            continue
        named = colour_of(token)
        if named is not None:
            motes.append(named)
        elif token.isalpha() and all(ch.upper() in _RANK for ch in token):
            motes.extend(ch.upper() for ch in token)
        else:
            raise ItemsError(
                f"{token!r} is not a mote (R G B C M Y W K, P for prismatic) or a prism count"
            )
        i += 1
    return sort_motes(motes), prisms
