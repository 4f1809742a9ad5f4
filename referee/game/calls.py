"""Judge calls at a game outside an event (REF-11): a seated player or a referee calls a
judge from the game itself, and the call is a fact of the game's own stream, as an
event's calls are facts of the event's (EV-10). The referees' queue lists each call not
resolved; a referee claims, escalates or resolves it as at an event.

``game_calls`` folds a game's calls from its facts; ``decide_call`` and ``decide_answer``
are the pure decisions, each refusal naming its clause."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, Literal

import msgspec

from referee.calls import NOTE_LIMIT, REASON_LIMIT, one_line
from referee.errors import InvalidCommandError
from referee.game.commands import AnswerCall
from referee.game.facts import GameCallAnswered, GameEvent, JudgeCalledToGame

__all__ = [
    "NOTE_LIMIT",
    "REASON_LIMIT",
    "GameCall",
    "decide_answer",
    "decide_call",
    "fold_call",
    "game_calls",
]


class GameCall(msgspec.Struct, frozen=True, kw_only=True):
    """A call to a game's table: its number (the stream event that made it), who called
    and why, and where it stands (``open``, ``claimed``, ``escalated`` or ``resolved``)."""

    number: int
    by: str
    reason: str
    at: datetime
    status: str = "open"
    holder: str = ""
    escalated: bool = False
    changed: datetime | None = None
    note: str = ""
    escalated_by: str = ""
    """Who handed it to the head referee, and ``escalation`` why (as an event's call)."""
    escalation: str = ""


def fold_call(calls: dict[int, GameCall], event: GameEvent) -> None:
    """``calls`` after ``event`` (any other fact leaves them as they are)."""
    if isinstance(event, JudgeCalledToGame):
        number = event.originator_version
        calls[number] = GameCall(
            number=number, by=event.by, reason=event.reason, at=event.timestamp
        )
        return
    if not isinstance(event, GameCallAnswered) or event.call not in calls:
        return
    call, at = calls[event.call], event.timestamp
    if event.step == "claim":
        calls[event.call] = msgspec.structs.replace(
            call, status="escalated" if call.escalated else "claimed", holder=event.by, changed=at
        )
    elif event.step == "escalate":
        calls[event.call] = msgspec.structs.replace(
            call, status="escalated", escalated=True, holder="", changed=at,
            escalated_by=event.by, escalation=event.note,
        )  # fmt: skip
    else:
        calls[event.call] = msgspec.structs.replace(
            call, status="resolved", holder=event.by, changed=at, note=event.note
        )


def game_calls(events: Iterable[GameEvent]) -> dict[int, GameCall]:
    """A game's calls by number, folded from its facts."""
    calls: dict[int, GameCall] = {}
    for event in events:
        fold_call(calls, event)
    return calls


def _line(text: str, limit: int, clause: str, what: str) -> str:
    return one_line(text, limit, clause, what, InvalidCommandError)


def decide_call(
    calls: Mapping[int, GameCall],
    event: str,
    ended: bool,
    by: str,
    reason: str,
    base: dict[str, Any],
    key: str = "",
) -> list[GameEvent]:
    """REF-11.1: a call to an open game outside an event (``event``: the event the game is
    played at, if any), while none of its calls is still open."""
    if event:
        raise InvalidCommandError(
            "REF-11.1", f"a game of event {event} calls a judge to its event table (EV-10.1)"
        )
    if ended:
        raise InvalidCommandError(
            "REF-11.1", "the game has ended: call a judge from a game in play"
        )
    why = _line(reason, REASON_LIMIT, "REF-11.1", "a call's reason")
    for call in calls.values():
        if call.status != "resolved":
            raise InvalidCommandError(
                "REF-11.1",
                f"a judge is already called to this game (call {call.number}, {call.status})",
            )
    keyed = key or msgspec.UNSET  # the writer's key, stored with the call
    return [JudgeCalledToGame(**base, by=by, reason=why, idempotency_key=keyed)]


def decide_answer(
    calls: Mapping[int, GameCall], command: AnswerCall, base: dict[str, Any]
) -> list[GameEvent]:
    """REF-11.2: a referee claims, escalates or resolves a call not yet resolved; an
    escalated call is the head referee's (as at an event, EV-10.4 to EV-10.6)."""
    number, step, by, note = command.call, command.step, command.by, command.note
    call = calls.get(number)
    if call is None:
        raise InvalidCommandError("REF-11.2", f"there is no call {number} in this game")
    if call.status == "resolved":
        raise InvalidCommandError("REF-11.2", f"call {number} is already resolved ({call.note})")
    kind: Literal["claim", "escalate", "resolve"]
    if step == "claim":
        kind, text = "claim", ""
        if call.holder == by and call.status != "open":
            raise InvalidCommandError("REF-11.2", f"{by} already holds call {number}")
    elif step == "escalate":
        kind, text = "escalate", _line(note, REASON_LIMIT, "REF-11.2", "an escalation's reason")
        if call.escalated:
            raise InvalidCommandError("REF-11.2", f"call {number} is already with the head referee")
    elif step == "resolve":
        kind, text = "resolve", _line(note, NOTE_LIMIT, "REF-11.2", "a resolution's note")
        if not text:
            raise InvalidCommandError("REF-11.2", "a call is resolved with a note of what was done")
    else:
        raise InvalidCommandError("REF-11.2", f"{step!r}: a call is claimed, escalated or resolved")
    if call.escalated and not command.head and kind != "escalate":
        raise InvalidCommandError(
            "REF-11.2", f"call {number} is escalated: the head referee takes it"
        )
    keyed = command.idempotency_key or msgspec.UNSET
    return [
        GameCallAnswered(**base, call=number, step=kind, by=by, note=text, idempotency_key=keyed)
    ]
