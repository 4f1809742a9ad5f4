"""Prismata: the whole game on the live unit catalog (and the 2020 balance).

``PrismataRules`` implements the game contract; actions are the tagged union
``PrismataAction`` (``Buy``, ``Click``, ``Undo``, ``Sell``, ``Block``, ``Strike``,
``Breach``, ``Unbreach``, ``End``) and the position is ``PrismataState``. See
``rulebook.toml`` for the clauses and the notation, ``catalog.py`` for the unit
catalogs and ``reference.py`` for imports from the reference engine.
"""

from referee.games.prismata import model
from referee.games.prismata.model import *  # noqa: F403 - the model, as model.__all__ lists it
from referee.games.prismata.rules import PrismataRules

__all__ = ["PrismataRules"]
__all__ += model.__all__
