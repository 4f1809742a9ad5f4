"""Errors of the application layer. Each subclasses the built-in that fits, and every
one means the same to every face: nothing was stored.

Faces map them to their own codes: the command line exits 2 for a refusal and a
missing game, 3 for a concurrent write; HTTP answers 400/404/409/412.
"""

from __future__ import annotations

from events.store import ConcurrentWriteError, GameNotFoundError, StoreBusyError, StoreError
from referee.errors import RefereeError

__all__ = [
    "ConcurrentWriteError",
    "GameNotFoundError",
    "InvalidCommandError",
    "NoStoreError",
    "RefusedError",
    "StaleVersionError",
    "StoreBusyError",
    "StoreError",
    "UnreadableEntryError",
]


class RefusedError(RefereeError, ValueError):
    """A command that cannot be carried out as given. Nothing was stored."""


class InvalidCommandError(RefusedError):
    """A command the referee procedure does not allow in this state (retracting with
    nothing to retract, ruling twice, ...); names the procedure clause."""

    def __init__(self, clause: str, reason: str) -> None:
        super().__init__(f"{clause}: {reason}")
        self.clause = clause
        self.reason = reason


class UnreadableEntryError(RefusedError):
    """Text that is not an action of the game (REF-1.1): refused, not kept as evidence."""

    def __init__(self, text: str, clause: str, reason: str) -> None:
        super().__init__(f"not an action of this game ({clause}): {reason}; nothing was stored")
        self.text = text
        self.clause = clause
        self.reason = reason


class StaleVersionError(RefereeError, RuntimeError):
    """The caller saw an older version of the game than the store holds (HTTP ``If-Match``)."""

    def __init__(self, game_id: str, expected: int, actual: int) -> None:
        super().__init__(
            f"game {game_id} is at event {actual}, not {expected}: look again before entering"
        )
        self.expected = expected
        self.actual = actual


class NoStoreError(RefereeError, LookupError):
    """A command that reads a store named a store that does not exist."""
