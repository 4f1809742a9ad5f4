"""Crystale summoner battles: a hex board, mana, crystals and promotion (issue 12).

``CrystaleRules`` implements the game contract; entries are the tagged union
``CrystaleAction`` and the position is ``CrystaleState``. See ``rulebook.toml``
for the clauses and the notation, ``catalog.py`` for crystal catalogs and
``catalogs/example.toml`` for the shipped (invented) example crystals.
"""

from referee.games.crystale.model import ACTION_TYPES, CrystaleAction, CrystaleState
from referee.games.crystale.rules import CrystaleRules

__all__ = ["ACTION_TYPES", "CrystaleAction", "CrystaleRules", "CrystaleState"]
