"""The fields every stored event has, in any stream (a game's or an event's).

The class is defined with a game's facts in the domain (``referee.game.facts``: the
procedure refers to facts by their numbers); named here so that each stream's stored
types (``events.schema`` for games, ``events.tournament`` for events) build on it
without importing each other.
"""

from __future__ import annotations

from referee.game.facts import GameEvent

__all__ = ["GameEvent"]
