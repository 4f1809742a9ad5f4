"""Nim, a two-seat test game: the store, the service and the faces are tested on it
without depending on a real game's rules."""

from tests.games.nim.rules import NimRules

__all__ = ["NimRules"]
