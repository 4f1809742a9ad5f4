"""What every write to a game says: who gives it, and the version of the game it was made on.

Its own small module so that an entry (``referee.game.entries``) and the referee's
commands (``referee.game.commands``) share it without one loading the other: a
process that only records an entry never builds the commands.
"""

from __future__ import annotations

import msgspec

__all__ = ["Given", "Versioned"]


class Given(msgspec.Struct, frozen=True, kw_only=True):
    """A write to a game, given by ``by`` (the referee or player, as recorded)."""

    by: str = ""


class Versioned(Given, frozen=True, kw_only=True):
    """A write made on a version of the game: ``expected_version`` (HTTP ``If-Match``),
    when the writer says; checked once, by ``referee.game.write.decision``."""

    expected_version: int | None = None
