"""Tribute, a test game that uses every part of the contract (see its rulebook)."""

from tests.games.tribute.rules import TributeRules

__all__ = ["TributeRules"]
