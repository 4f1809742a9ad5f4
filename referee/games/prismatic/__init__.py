"""Prismatic: a referee for 2-4 players, mote bags, simultaneous commits and end-of-game scoring.

``PrismaticRules`` implements the game contract; entries are the tagged union
``PrismaticAction`` and the position is ``PrismaticState``. ``rulebook.toml`` holds
the ``PX-`` clauses (notation in PX-15, interpretations in PX-I), ``catalog.py`` the
catalog files' schema, and ``catalogs/`` the invented example catalogs.
"""

from referee.games.prismatic.model import PrismaticAction, PrismaticState
from referee.games.prismatic.rules import PrismaticRules

__all__ = ["PrismaticAction", "PrismaticRules", "PrismaticState"]
