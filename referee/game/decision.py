"""What a write to a game comes to: the decisions' common answer.

``referee.game.entries`` (an entry) and ``referee.game.decisions`` (a referee's
command, through ``referee.game.write``) give a ``Decision``; the service's write
pipeline seals its facts, appends them and answers from it.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from referee.game.facts import GameEvent
from referee.verdicts import RulingNeeded, Violation

__all__ = ["Decision", "EntryOutcome"]


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
