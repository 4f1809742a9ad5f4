"""Gammasphere TCG (Prototype 3): a trading card game with hidden hands and registered decks.

``GammasphereRules`` (``rules.py``) implements the game contract on a catalog of the
table's cards (``catalog.py``; the shipped ``catalogs/example.toml`` holds invented
example cards). Entries are the tagged union ``GammasphereAction`` (``Draw``, ``Play``,
``Construct``, ``Attack``, ``Switch``, ``Activate``, ``Discard``, ``End``; ``model.py``,
written and read by ``notation.py``) and the position the referee knows is
``GammasphereState``. ``checks.py`` judges entries, ``engine.py`` carries them out,
``legal.py`` lists them, ``position.py`` computes attack and defense, moves cards and
passes turns, ``decks.py`` holds deck construction and the seen-card checks,
``adjust.py`` the referee's adjustments, ``view.py`` what each viewer sees as text and
JSON and ``drawing.py`` the table as SVG. See ``rulebook.toml`` for the GS- clauses and
the notation.
"""

from referee.games.gammasphere import model
from referee.games.gammasphere.model import *  # noqa: F403 - the model, as model.__all__ lists it
from referee.games.gammasphere.rules import GammasphereRules

__all__ = ["GammasphereRules"]
__all__ += model.__all__
