"""Referee: the pure rules core. No I/O here; see ``events``, ``projections`` and ``cli``."""

from referee.core import LEGAL, ONGOING, GameRules, Outcome, Player, Setup, Verdict, Violation

__all__ = ["LEGAL", "ONGOING", "GameRules", "Outcome", "Player", "Setup", "Verdict", "Violation"]
