"""Errors of the application layer. Each subclasses the built-in that fits, and every
one means the same to every face: nothing was stored.

Faces map them to their own codes: the command line exits 2 for a refusal and a
missing game, 3 for a concurrent write; HTTP answers 400/404/409/412.
"""

from __future__ import annotations

from events.store import ConcurrentWriteError, GameNotFoundError, StoreBusyError, StoreError
from referee.errors import (
    InvalidCommandError,
    RefereeError,
    RefusedError,
    RepeatedWriteError,
    StaleVersionError,
    UnreadableEntryError,
)

__all__ = [
    "ConcurrentWriteError",
    "GameNotFoundError",
    "InvalidCommandError",
    "NoStoreError",
    "RefusedError",
    "RepeatedWriteError",
    "StaleVersionError",
    "StoreBusyError",
    "StoreError",
    "UnreadableEntryError",
]


class NoStoreError(RefereeError, LookupError):
    """A command that reads a store named a store that does not exist."""
