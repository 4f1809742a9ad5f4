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


class RepeatedWriteError(RefereeError, RuntimeError):
    """A write sent again with the idempotency key of a write already stored (HTTP
    ``Idempotency-Key``): it is not carried out a second time; nothing was stored."""

    def __init__(self, stream: str, key: str, event: int) -> None:
        super().__init__(
            f"the write with idempotency key {key!r} was stored already (event {event} of "
            f"{stream}); nothing was stored again"
        )
        self.stream = stream
        self.key = key
        self.event = event


class NoStoreError(RefereeError, LookupError):
    """A command that reads a store named a store that does not exist."""
