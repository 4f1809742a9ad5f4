"""The refusals of the referee's decisions on a game: each subclasses the built-in that
fits, and every one means nothing was stored.

Raised by the pure decisions (``referee.game.decisions``, ``referee.game.entries``) and
named by the service (``service.errors`` re-exports them), whose faces map them to their
own codes: the command line exits 2 for a refusal, 3 for a stale version; HTTP answers
400/412.
"""

from __future__ import annotations

from referee.errors import RefereeError

__all__ = ["InvalidCommandError", "RefusedError", "StaleVersionError", "UnreadableEntryError"]


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
    """The caller saw an older version of the game (or, with ``stream``, of an event) than
    the store holds (HTTP ``If-Match``)."""

    def __init__(self, game_id: str, expected: int, actual: int, *, stream: str = "game") -> None:
        super().__init__(
            f"game {game_id} is at event {actual}, not {expected}: look again before entering"
            if stream == "game"
            else f"{stream} {game_id} is at version {actual}, not {expected}: look again "
            "before writing; nothing was stored"
        )
        self.expected = expected
        self.actual = actual
