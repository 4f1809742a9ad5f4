"""The round clock: how much of a round's time is left, computed from recorded times.

A round's clock is folded from its marks (``ClockMarked``: start, pause, resume, end,
each with the time it was recorded), the event's round length (``RoundLengthSet``) and
the tables' extensions (``TimeExtended``). Nothing here reads a clock: every question
takes ``now`` as an input, so the same facts and the same ``now`` always give the same
answer, on every face and after a replay (EV-9.3).

- EV-9.1: a round lasts the event's round length (``DEFAULT_MINUTES`` until set); a new
  length applies to the round in progress too.
- EV-9.2: the clock is started once, paused and resumed any number of times, ended once.
- EV-9.3: the time run is the sum of the running stretches; a pause does not count, an
  ended clock stands still. What is left is the length less the time run.
- EV-9.4: a table's extensions add to its own time only; the round's clock is unchanged.
- EV-9.5: a table is over time when its own time left is below zero.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

import msgspec

__all__ = [
    "DEFAULT_MINUTES",
    "ClockState",
    "RoundClock",
    "clock_text",
    "extended",
    "marked",
    "marks_allowed",
]

DEFAULT_MINUTES = 50
"""A round's length until the event sets one (EV-9.1; 50 minutes, a common Swiss round)."""

ClockState = Literal["waiting", "running", "paused", "ended"]

MARK_NEEDS: dict[str, tuple[ClockState, ...]] = {
    "start": ("waiting",),
    "pause": ("running",),
    "resume": ("paused",),
    "end": ("running", "paused"),
}
"""Each mark and the clock states it may be made in (EV-9.2): started once, paused and
resumed in turn, ended once."""


def marks_allowed(state: ClockState) -> tuple[str, ...]:
    """The marks a clock in ``state`` takes now (EV-9.2), in the order of ``MARK_NEEDS``:
    what a page offers, so that a phone shows no button the decision can only refuse."""
    return tuple(mark for mark, needs in MARK_NEEDS.items() if state in needs)


class RoundClock(msgspec.Struct, frozen=True, kw_only=True):
    """One round's clock: its length, its marks folded, and each table's extensions.

    ``ran`` is the seconds run before ``running_since`` (the start of the stretch now
    running, ``None`` while paused, waiting or ended)."""

    round: int
    minutes: int = DEFAULT_MINUTES
    started: datetime | None = None
    running_since: datetime | None = None
    ran: float = 0.0
    ended: datetime | None = None
    extensions: dict[int, int] = {}
    """Table -> extra minutes given so far (EV-9.4)."""
    given: tuple[tuple[int, int, str], ...] = ()
    """Each extension as given: (table, minutes, reason), oldest first."""

    @property
    def state(self) -> ClockState:
        if self.ended is not None:
            return "ended"
        if self.running_since is not None:
            return "running"
        return "paused" if self.started is not None else "waiting"

    def elapsed(self, now: datetime) -> float:
        """Seconds the clock has run by ``now`` (EV-9.3): pauses do not count."""
        if self.running_since is None:
            return self.ran
        return self.ran + max(0.0, (now - self.running_since).total_seconds())

    def extension(self, table: int | None) -> int:
        """Minutes added to ``table`` (0 for the round as a whole, EV-9.4)."""
        return self.extensions.get(table, 0) if table is not None else 0

    def remaining(self, now: datetime, table: int | None = None) -> float:
        """Seconds left for the round (``table=None``) or one table with its extensions;
        below zero once over time (EV-9.3, EV-9.5)."""
        return (self.minutes + self.extension(table)) * 60 - self.elapsed(now)

    def over_time(self, now: datetime, table: int | None = None) -> bool:
        """Whether the round (or ``table``) has used its time (EV-9.5)."""
        return self.started is not None and self.remaining(now, table) < 0


def marked(clock: RoundClock, action: str, at: datetime) -> RoundClock:
    """The clock after a mark (checked when decided: this never refuses, EV-9.2)."""
    replace = msgspec.structs.replace
    if action == "start":
        return replace(clock, started=at, running_since=at, ran=0.0, ended=None)
    if action == "pause":
        return replace(clock, ran=clock.elapsed(at), running_since=None)
    if action == "resume":
        return replace(clock, running_since=at)
    if action == "end":
        return replace(clock, ran=clock.elapsed(at), running_since=None, ended=at)
    raise ValueError(f"not a clock mark: {action!r}")


def extended(clock: RoundClock, table: int, minutes: int, reason: str = "") -> RoundClock:
    """The clock with ``minutes`` more for ``table`` (EV-9.4)."""
    extensions = dict(clock.extensions)
    extensions[table] = extensions.get(table, 0) + minutes
    given = (*clock.given, (table, minutes, reason))
    return msgspec.structs.replace(clock, extensions=extensions, given=given)


def clock_text(seconds: float) -> str:
    """``12:05`` left, or ``-3:10`` over: whole seconds, rounded toward the past so that
    every face shows the same figure for the same ``now``."""
    whole = int(seconds // 1)
    sign = "-" if whole < 0 else ""
    whole = abs(whole)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{sign}{hours}:{minutes:02d}:{secs:02d}"
    return f"{sign}{minutes}:{secs:02d}"
