"""Prismata: the whole game on the live unit catalog (and the 2020 balance).

``PrismataRules`` implements the game contract; actions are the tagged union
``PrismataAction`` (``Buy``, ``Click``, ``Undo``, ``Sell``, ``Block``, ``Strike``,
``Breach``, ``Unbreach``, ``End``) and the position is ``PrismataState``. See
``rulebook.toml`` for the clauses and the notation, ``catalog.py`` for the unit
catalogs and ``reference.py`` for imports from the reference engine.
"""

from referee.games.prismata.model import (
    ACTION_TYPES,
    Block,
    Breach,
    Buy,
    Click,
    End,
    PrismataAction,
    PrismataState,
    Sell,
    Strike,
    Unbreach,
    Undo,
    Unit,
)
from referee.games.prismata.rules import PrismataRules

__all__ = [
    "ACTION_TYPES",
    "Block",
    "Breach",
    "Buy",
    "Click",
    "End",
    "PrismataAction",
    "PrismataRules",
    "PrismataState",
    "Sell",
    "Strike",
    "Unbreach",
    "Undo",
    "Unit",
]
