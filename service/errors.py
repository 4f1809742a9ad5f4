"""Errors of the application layer. Each subclasses the built-in that fits, and every
one means the same to every face: nothing was stored.

Faces map them to their own codes: the command line exits 2 for a refusal and a
missing game, 3 for a concurrent write; HTTP answers 400/404/409/412.
"""

from __future__ import annotations

from events.store import ConcurrentWriteError, GameNotFoundError, StoreBusyError, StoreError
from referee.errors import (
    InvalidCommandError,
    KeyReusedError,
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
    "KeyReusedError",
    "NoStoreError",
    "NotSealedError",
    "RefusedError",
    "RepeatedWriteError",
    "StaleVersionError",
    "StoreBusyError",
    "StoreError",
    "UnreadableEntryError",
]


class NoStoreError(RefereeError, LookupError):
    """A command that reads a store named a store that does not exist."""


class NotSealedError(RefusedError):
    """A posting asked for before a seal covers it: nothing sealed yet, or the event (or
    the round asked for) came after the newest checkpoint. The message says what is
    missing in words every face can show; each face adds how its user seals (the command
    line's ``--key``, a page's words for the staff)."""

    def __init__(self, event_id: str, missing: str) -> None:
        super().__init__(missing)
        self.event_id = event_id
        self.missing = missing
