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
    in it, a UTC time, the previous event's hash and its own (``events.integrity``).

    ``token_id`` names the access token that wrote the event (``referee serve``: which
    device, where ``by``/``recorded_by`` names its holder). It is ``UNSET`` for events
    written without a token (the command line, and every event stored before it
    existed) and then left out of the encoding, so those keep their bytes and hashes;
    when set it is hashed with the rest. A token id is no secret (tokens store only
    a hash of their secret half)."""

    originator_id: str
    originator_version: int
    timestamp: datetime
    prev_hash: str
    hash: str = ""
    token_id: str | msgspec.UnsetType = msgspec.UNSET

    @property
    def token(self) -> str:
        """The writing token's id, or ``""`` when none was recorded."""
        return self.token_id if isinstance(self.token_id, str) else ""
