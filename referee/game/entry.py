"""An entry as a referee gives it, what every write to a game says (who gives it, the
version of the game it was made on), and what a write comes to (``Decision``: the
facts to append, and for an entry what became of it).

Its own small module, apart from the decisions, so that the service's shells build an
entry without reaching the decisions (only the write pipeline does), and an entry and
the referee's commands (``referee.game.commands``) share the base without one loading
the other: a process that only records an entry never builds the commands.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from referee.game.facts import GameEvent
from referee.verdicts import RulingNeeded, Violation

__all__ = ["Decision", "EntryCommand", "EntryOutcome", "Given", "Versioned"]


class Given(msgspec.Struct, frozen=True, kw_only=True):
    """A write to a game, given by ``by`` (the referee or player, as recorded)."""

    by: str = ""


class Versioned(Given, frozen=True, kw_only=True):
    """A write to an existing game, made on a version of it. The version its writer saw
    (HTTP ``If-Match``) is the write's term, not the command's: checked once, by the write
    pipeline (``service.pipeline.with_terms``, ``check_terms``)."""


class EntryCommand(Versioned, frozen=True, kw_only=True):
    """One entry as a referee gives it: the text, the seat if named apart (``actor``) and
    who records it (``by``).

    ``dry_run`` only judges; ``keep_unreadable`` is for imports of records written
    before REF-1.1 and REF-1.3 refused such text, which kept it as a rejection."""

    text: str
    actor: str | None = None
    dry_run: bool = False
    keep_unreadable: bool = False


class EntryOutcome(msgspec.Struct, frozen=True, kw_only=True):
    """What an entry came to, for its answer: ``recorded`` or ``rejected`` (kept as
    evidence), or, for a dry run, ``legal`` or ``illegal``; the entry as read, the seat
    that made it, its notation, the clauses it broke and the rulings it needs."""

    status: Literal["recorded", "rejected", "legal", "illegal"]
    text: str
    seat: str | None
    notation: str | None
    violations: tuple[Violation, ...] = ()
    rulings: tuple[RulingNeeded, ...] = ()


class Decision(msgspec.Struct, frozen=True, kw_only=True):
    """What a write to a game comes to: ``new`` facts to append right after the version
    it was decided on (none for a dry run), the position after a recorded action
    (``applied``, so the view is advanced without applying twice), and for an entry
    what became of it (``entry``)."""

    new: list[GameEvent] = []
    applied: Any = None
    entry: EntryOutcome | None = None
