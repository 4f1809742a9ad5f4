"""The words every face uses for what the service hands out: one formatter per thing,
so the command line, the HTTP API and the pages say the same.

``safe_text`` (a name or reason made safe for a terminal) and ``event_line`` (one line
per recorded event) are the event layer's; the faces take them from here, the
application layer, and never import ``events`` themselves. ``rejection_heading`` and
``violation_lines`` word an entry the rules refused: the command line prints them as
lines, the HTTP API joins them (``rejection_text``) into a problem's ``detail``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from events.plain import safe_text
from referee.errors import quoted
from referee.verdicts import Violation
from service.results import EntryResult

if TYPE_CHECKING:
    from events.records import event_line
    from service.tournaments import EventInfo

__all__ = [
    "correction_consequence",
    "event_line",
    "rejection_heading",
    "rejection_text",
    "resolved_at_hall",
    "safe_text",
    "violation_lines",
]


def rejection_heading(result: EntryResult) -> str:
    """What became of a refused entry: only checked (nothing recorded), or kept as evidence."""
    text = safe_text(quoted(result.text))
    if not result.stored:
        return f"illegal {text} (nothing recorded)"
    return f"rejected {text} (kept as evidence, event {result.event})"


def violation_lines(violations: Iterable[Violation]) -> list[str]:
    """Each broken rule as ``CLAUSE: why`` (the clause first, as every refusal names it)."""
    return [f"{v.clause}: {safe_text(v.reason)}" for v in violations]


def correction_consequence(info: EventInfo, corrected: int) -> str:
    """What a correction of round ``corrected`` leaves as it was when later rounds are
    already paired (EV-8.3: the standings change, the pairings made stand), and, while the
    latest Swiss round is still open, the way to pair it again from the corrected standings
    (a re-pairing keeps its tables with a result, EV-5.12): the head judge's choice, said
    where the correction is made (the desk, ``referee event correct``) rather than left to
    be known. Empty when no later round is paired."""
    latest = info.current_round
    if latest <= corrected:
        return ""
    later = (
        f"round {latest}, paired before it, keeps its pairings"
        if latest == corrected + 1
        else f"rounds {corrected + 1}-{latest}, paired before it, keep their pairings"
    )
    said = f"; the standings use it; {later} (EV-8.3)"
    if info.open_round == latest and not info.cut_seeds and info.format == "swiss":
        said += f"; to pair round {latest} again from the corrected standings, re-pair it (EV-5.12)"
    return said


def rejection_text(result: EntryResult) -> str:
    """A refused entry in one line: the heading, then every broken rule."""
    return f"{rejection_heading(result)}: " + "; ".join(violation_lines(result.violations))


def resolved_at_hall(writer: str) -> str:
    """What a table's branch read on a replica of its game says (REF-9.1, REF-9.5): the
    store that writes the game, where the branch is chosen. Nothing where it is chosen."""
    if not writer:
        return ""
    return (
        f"resolved at the hall: store {safe_text(writer)!r} writes this game, "
        "this store holds a replica (REF-9.1)"
    )


def __getattr__(name: str) -> Any:
    if name == "event_line":
        from events.records import event_line

        return event_line
    raise AttributeError(f"module 'service.wording' has no attribute {name!r}")
