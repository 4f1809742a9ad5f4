"""An entry as a referee gives it, and what every write to a game says: who gives it, and
the version of the game it was made on.

Its own small module, apart from the decisions, so that the service's shells build an
entry without reaching the decisions (only the write pipeline does), and an entry and
the referee's commands (``referee.game.commands``) share the base without one loading
the other: a process that only records an entry never builds the commands.
"""

from __future__ import annotations

import msgspec

__all__ = ["EntryCommand", "Given", "Versioned"]


class Given(msgspec.Struct, frozen=True, kw_only=True):
    """A write to a game, given by ``by`` (the referee or player, as recorded)."""

    by: str = ""


class Versioned(Given, frozen=True, kw_only=True):
    """A write made on a version of the game: ``expected_version`` (HTTP ``If-Match``),
    when the writer says; checked once, by ``referee.game.write.decision``."""

    expected_version: int | None = None


class EntryCommand(Versioned, frozen=True, kw_only=True):
    """One entry as a referee gives it: the text, the seat if named apart (``actor``), who
    records it (``by``) and the version it was made on (``expected_version``).

    ``dry_run`` only judges; ``keep_unreadable`` is for imports of records written
    before REF-1.1 and REF-1.3 refused such text, which kept it as a rejection."""

    text: str
    actor: str | None = None
    dry_run: bool = False
    keep_unreadable: bool = False
