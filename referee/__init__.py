"""Referee: the pure rules core. No I/O here; see ``events``, ``service``, ``projections``
and the faces (``cli``).

``contract`` is what every game implements; ``verdicts`` and ``outcomes`` are its
answers; ``procedure`` is the check every game shares; ``kit`` holds the pieces
of hidden information (zones, decks, bags, catalogs, adjustments); ``games`` is
the registry of the games themselves.
"""

from referee.contract import (
    PUBLIC,
    REFEREE,
    GameRules,
    Player,
    Setup,
    SetupField,
    VariantOption,
    Viewer,
)
from referee.outcomes import ONGOING, Outcome, Placing
from referee.verdicts import LEGAL, RulingNeeded, Verdict, Violation

__all__ = [
    "LEGAL",
    "ONGOING",
    "PUBLIC",
    "REFEREE",
    "GameRules",
    "Outcome",
    "Placing",
    "Player",
    "RulingNeeded",
    "Setup",
    "SetupField",
    "VariantOption",
    "Verdict",
    "Viewer",
    "Violation",
]
