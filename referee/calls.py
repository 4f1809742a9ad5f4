"""What a judge call at an event (EV-10, ``referee.tournament.hall``) and at a game
outside an event (REF-11, ``referee.game.calls``) share: how long a reason and a note may
be, and the check that a text is one short line.

The game's calls follow the event's (a call, a claim, an escalation, a resolution), each
refusal naming its own rulebook's clause with its own error: a ``Refusal`` at an event,
an ``InvalidCommandError`` at a game."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["NOTE_LIMIT", "REASON_LIMIT", "one_line"]

REASON_LIMIT = 200
"""A call's reason, an escalation's or a dispute's: one short line (EV-10.1, REF-11.1)."""
NOTE_LIMIT = 500
"""A resolution's note (EV-10.6, REF-11.2)."""


def one_line(
    text: str, limit: int, clause: str, what: str, refuse: Callable[[str, str], Exception]
) -> str:
    """``text`` stripped, or ``refuse(clause, reason)`` raised when it breaks lines or is
    over ``limit`` characters."""
    text = text.strip()
    if "\n" in text or "\r" in text:
        raise refuse(clause, f"{what} is one line")
    if len(text) > limit:
        raise refuse(clause, f"{what} is at most {limit} characters (this one has {len(text)})")
    return text
