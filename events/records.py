"""Plain views of events for people and scripts: one line of text, or a JSON-ready dict."""

from __future__ import annotations

from typing import Any

import msgspec

from events.schema import (
    ActionRecorded,
    ActionRejected,
    ActionRetracted,
    DisputeAppealed,
    DisputeOpened,
    DisputeRuled,
    GameCreated,
    GameEnded,
    GameEvent,
    ResultVoided,
    kind_of,
    topic_of,
)


def event_record(event: GameEvent) -> dict[str, Any]:
    """The event as JSON-ready data, with its kind and topic."""
    data: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(event))
    return {"kind": kind_of(event), "topic": topic_of(event), **data}


def event_summary(event: GameEvent) -> str:
    """What the event says, without its number or time."""
    if isinstance(event, GameCreated):
        players = ", ".join(f"{p.seat}={p.name}" for p in event.players)
        variants = ", ".join(f"{k}={v}" for k, v in event.variants.items())
        return f"created {event.game} ({event.ruleset}) {players}" + (f" [{variants}]" if variants else "")
    if isinstance(event, ActionRecorded):
        return f"{event.seq}. {event.actor} {event.notation}"
    if isinstance(event, ActionRejected):
        why = "; ".join(f"{v.clause}: {v.reason}" for v in event.violations)
        return f"rejected {event.text!r} (for action {event.seq}): {why}"
    if isinstance(event, ActionRetracted):
        return f"retracted action {event.seq} (event {event.event}): {event.reason}"
    if isinstance(event, GameEnded):
        who = "draw" if event.winner is None else f"{event.winner} wins"
        return f"ended: {who} by {event.how} ({event.clause}{': ' + event.reason if event.reason else ''})"
    if isinstance(event, ResultVoided):
        return f"result of event {event.event} voided: {event.reason}"
    if isinstance(event, DisputeOpened):
        return f"dispute {event.dispute} on event {event.event} by {event.by}: {event.claim}"
    if isinstance(event, DisputeRuled):
        return (f"dispute {event.dispute}: {event.level} ruling by {event.by}: {event.decision} "
                f"({event.clause}): {event.reason}")
    if isinstance(event, DisputeAppealed):
        return f"dispute {event.dispute}: appealed by {event.by}: {event.grounds}"
    return type(event).__name__


def event_line(event: GameEvent) -> str:
    by = getattr(event, "recorded_by", None) or getattr(event, "by", None) or getattr(event, "created_by", "")
    tail = f"  [{by}]" if by else ""
    return f"#{event.originator_version:<4} {event.timestamp:%H:%M:%S}  {event_summary(event)}{tail}"
