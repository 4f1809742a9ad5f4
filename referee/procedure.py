"""The referee procedure every game shares: reading an entry, checking who makes it,
then asking the game's rules. Pure: the caller passes the state and what it knows.

Three answers come back in a ``Judgement``:

- the text is not an action of the game (``readable`` is false): the faces refuse
  it and store nothing (REF-1.1);
- the entry is incomplete (several seats may act and none was named): refused too;
- otherwise a verdict (legal, illegal with clauses, or needing a ruling) on the
  action of a seat that may act now (REF-1.2, REF-1.3).
"""

from __future__ import annotations

from typing import Any

import msgspec

from referee.contract import PUBLIC, GameRules
from referee.errors import ActionSyntaxError, quoted
from referee.verdicts import Verdict

__all__ = ["Judgement", "judge", "seats_text"]


class Judgement(msgspec.Struct, frozen=True, kw_only=True):
    """What the procedure made of one entry."""

    text: str
    action: Any | None
    seat: str | None
    verdict: Verdict
    readable: bool = True
    incomplete: str = ""

    @property
    def refused(self) -> bool:
        """Not an entry that can be judged at all: nothing is stored for it."""
        return not self.readable or bool(self.incomplete)


def seats_text(seats: frozenset[str] | set[str], order: tuple[str, ...]) -> str:
    ordered = [s for s in order if s in seats]
    if len(ordered) <= 1:
        return "".join(ordered)
    return ", ".join(ordered[:-1]) + " and " + ordered[-1]


def judge(
    rules: GameRules[Any, Any],
    state: Any,
    text: str,
    actor: str | None = None,
    *,
    closed: str | None = None,
) -> Judgement:
    """Check ``text`` as the next entry of ``actor`` (or of the one seat that may act).

    ``closed`` describes the result when the game is over (``red by resignation``):
    then no action may be recorded (REF-1.3).
    """
    try:
        action = rules.read_entry(state, text)
    except ActionSyntaxError as exc:
        return Judgement(
            text=text,
            action=None,
            seat=actor,
            readable=False,
            verdict=Verdict.illegal(exc.clause, f"cannot read {quoted(text)}: {exc.reason}"),
        )
    seat, incomplete = actor, ""
    verdict: Verdict | None = None  # none yet: the game's rules judge the action
    if closed is not None:
        verdict = Verdict.illegal(
            "REF-1.3", f"the game is over ({closed}); no action can be recorded"
        )
    else:
        may = rules.to_act(state)
        if actor is None:
            if len(may) == 1:
                (seat,) = may
            elif not may:
                verdict = Verdict.illegal("REF-1.3", "no seat may act in this position")
            else:
                acting = seats_text(may, rules.seats)
                verdict = Verdict.illegal("REF-1.2", f"{acting} may act now; name the seat")
                incomplete = f"{acting} may act now: name the seat making this entry"
        elif actor not in may:
            if len(may) == 1:
                (mover,) = may
                why = f"it is {mover}'s turn, not {actor}'s; {{}} was not recorded"
            elif may:
                others = seats_text(may, rules.seats)
                why = f"only {others} may act now, not {actor}; {{}} was not recorded"
            else:
                why = "no seat may act now; {} was not recorded"
            verdict = _quoting(rules, "REF-1.2", why, text, actor)
    if verdict is None:
        assert seat is not None
        verdict = rules.check(state, action, seat)
    return Judgement(text=text, action=action, seat=seat, verdict=verdict, incomplete=incomplete)


def _quoting(rules: GameRules[Any, Any], clause: str, why: str, text: str, actor: str) -> Verdict:
    """A refusal whose reason (``why``, with ``{}`` for the entry) quotes the entry: a
    viewer who may not see the entry (a sealed bid) reads it as the record shows it."""
    reason = why.replace("{}", quoted(text))
    public = rules.shown_text(text, actor, PUBLIC)
    if public == text:
        return Verdict.illegal(clause, reason)
    return Verdict.illegal(clause, reason, seen_by=actor, shown=why.replace("{}", quoted(public)))
