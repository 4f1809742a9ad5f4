"""The fields every stored event has, in any stream (a game's or an event's).

Its own module so that each stream's types (``events.schema`` for games,
``events.tournament`` for events) build on it without importing each other.
"""

from __future__ import annotations

from datetime import datetime

import msgspec

__all__ = ["GameEvent"]


class GameEvent(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Fields common to every stored event: the stream's id, the event's 1-based number
    in it, a UTC time, the previous event's hash and its own (``events.integrity``)."""

    originator_id: str
    originator_version: int
    timestamp: datetime
    prev_hash: str
    hash: str = ""
