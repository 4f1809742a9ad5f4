"""PRIZMIK: nested fleets of bases, ships and fighters on an 8x8 board.

``PrizmikRules`` implements the game contract of ``referee.contract``; the clauses
it cites are in ``rulebook.toml`` beside this file.
"""

from referee.games.prizmik.model import PrizmikAction, PrizmikState, PrizmikVariants
from referee.games.prizmik.rules import PrizmikRules

__all__ = ["PrizmikAction", "PrizmikRules", "PrizmikState", "PrizmikVariants"]
