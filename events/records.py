"""Plain views of events for people and scripts: one line of text, or a JSON-ready dict,
each as a given viewer may see it.

Hidden information lives in few events: a registered or opened decklist (seen by
its seat and the referee only) and, in games whose entries carry something only
one seat saw, an action's notation (``GameRules.shown_notation``). ``redact``
returns the event as a viewer may see it; everything that shows events to a
viewer goes through it.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import msgspec

from events.schema import (
    ActionRecorded,
    ActionRejected,
    ActionRetracted,
    AdjustmentRecorded,
    DeckOpened,
    DeckRegistered,
    DisputeAppealed,
    DisputeOpened,
    DisputeRuled,
    GameCreated,
    GameEnded,
    GameEvent,
    PenaltyIssued,
    ResultVoided,
    RulingRequested,
    SeatWithdrawn,
    kind_of,
    topic_of,
)
from events.tournament import TournamentEvent
from events.tournament import summary as tournament_summary
from referee.contract import REFEREE, GameRules, Viewer
from referee.kit.decks import Decklist, SealedDeck
from referee.kit.multiset import Multiset
from referee.verdicts import Violation

__all__ = ["event_line", "event_record", "event_summary", "redact", "safe_text"]


def safe_text(text: str) -> str:
    """``text`` with control and formatting characters shown as escapes, so a name or a
    reason can never move the cursor, clear the screen or fake a line on a terminal."""
    out: list[str] = []
    for char in text:
        category = unicodedata.category(char)
        if category[0] == "C" or category in ("Zl", "Zp"):
            out.append(char.encode("unicode_escape").decode("ascii"))
        else:
            out.append(char)
    return "".join(out)


def _may_see_seat(viewer: Viewer, seat: str) -> bool:
    return viewer in (REFEREE, seat)


# What the reasons worded from hidden knowledge said before they carried ``seen_by``
# (a seat's registered list, a sealed bid): such a stored reason is kept for its seat.
_HIDDEN_WORDING = ("registered list", "prisms and cannot bid", "sealed list", "in hand")


def _written_before_readers(violation: Violation, actor: str | None) -> Violation:
    """A stored reason as if written with its readers: one stored before reasons named
    them (no ``seen_by``, no ``shown``) that is worded from hidden knowledge is kept, to
    be safe, for the seat that made the entry and the referee."""
    if violation.seen_by is not None or violation.shown or actor is None:
        return violation
    if not any(words in violation.reason for words in _HIDDEN_WORDING):
        return violation
    return msgspec.structs.replace(
        violation, seen_by=actor, shown=f"the entry breaks {violation.clause}"
    )


def redact(event: GameEvent, viewer: Viewer, rules: GameRules[Any, Any] | None = None) -> GameEvent:
    """The event as ``viewer`` may see it: a decklist of another seat is replaced by its
    size alone, an entry's private part by what the viewer may see of it."""
    if viewer == REFEREE:
        return event
    if (
        isinstance(event, DeckRegistered)
        and not isinstance(event.deck, SealedDeck)  # a commitment is public, so anyone can
        and not _may_see_seat(viewer, event.seat)  # check the opening against it
    ):
        hidden = SealedDeck(commitment="", size=event.deck.size)  # "" marks a withheld list
        return msgspec.structs.replace(event, deck=hidden)
    if isinstance(event, DeckOpened) and not _may_see_seat(viewer, event.seat):
        return msgspec.structs.replace(event, decklist=Decklist(Multiset()), salt="")
    if isinstance(event, ActionRejected):  # its text is its seat's; each reason is its own
        own = _may_see_seat(viewer, event.actor or "")
        text = (
            rules.shown_text(event.text, event.actor, viewer) if rules and not own else event.text
        )
        violations = tuple(
            _written_before_readers(v, event.actor).for_viewer(viewer) for v in event.violations
        )
        if text != event.text or violations != event.violations:
            return msgspec.structs.replace(event, text=text, violations=violations)
    if (
        isinstance(event, ActionRecorded)
        and rules is not None
        and not _may_see_seat(viewer, event.actor)
    ):
        action = msgspec.json.decode(event.action, type=rules.action_type)
        shown = rules.shown_notation(action, event.actor, viewer)
        if shown != event.notation:
            return msgspec.structs.replace(event, notation=shown, action=msgspec.Raw(b"null"))
    return event


def event_record(event: GameEvent) -> dict[str, Any]:
    """The event as JSON-ready data, with its kind and topic."""
    data: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(event))
    return {"kind": kind_of(event), "topic": topic_of(event), **data}


def _deck_text(deck: Any) -> str:
    if isinstance(deck, SealedDeck):
        return (
            f"a sealed list of {deck.size} cards (commitment {deck.commitment})"
            if deck.commitment
            else f"a list of {deck.size} cards"
        )
    return f"an open list of {deck.size} cards"


def event_summary(event: GameEvent) -> str:
    """What the event says, without its number or time (free text made terminal-safe)."""
    s = safe_text
    if isinstance(event, TournamentEvent):  # an event (tournament) stream's own types
        return s(tournament_summary(event))
    if isinstance(event, GameCreated):
        players = ", ".join(f"{p.seat}={s(p.name)}" for p in event.players)
        variants = ", ".join(f"{k}={v}" for k, v in event.variants.items())
        return f"created {event.game} ({event.ruleset}) {players}" + (
            f" [{variants}]" if variants else ""
        )
    if isinstance(event, ActionRecorded):
        return f"{event.seq}. {event.actor} {s(event.notation)}"
    if isinstance(event, ActionRejected):
        why = "; ".join(f"{v.clause}: {s(v.reason)}" for v in event.violations)
        return f"rejected {s(repr(event.text))} (for action {event.seq}): {why}"
    if isinstance(event, ActionRetracted):
        return f"retracted action {event.seq} (event {event.event}): {s(event.reason)}"
    if isinstance(event, GameEnded):
        if event.ranking and len(event.ranking) > 2:
            who = f"ranking {event.result}"
        else:
            who = "draw" if event.winner is None else f"{event.winner} wins"
        return (
            f"ended: {who} by {event.how} "
            f"({event.clause}{': ' + s(event.reason) if event.reason else ''})"
        )
    if isinstance(event, ResultVoided):
        return f"result of event {event.event} voided: {s(event.reason)}"
    if isinstance(event, DisputeOpened):
        return f"dispute {event.dispute} on event {event.event} by {s(event.by)}: {s(event.claim)}"
    if isinstance(event, DisputeRuled):
        return (
            f"dispute {event.dispute}: {event.level} ruling by {s(event.by)}: {event.decision} "
            f"({s(event.clause)}): {s(event.reason)}"
        )
    if isinstance(event, DisputeAppealed):
        return f"dispute {event.dispute}: appealed by {s(event.by)}: {s(event.grounds)}"
    if isinstance(event, DeckRegistered):
        return f"{event.seat} registered {_deck_text(event.deck)}"
    if isinstance(event, DeckOpened):
        if event.violations:
            why = "; ".join(f"{v.clause}: {s(v.reason)}" for v in event.violations)
            return f"{event.seat}'s sealed list did not open: {why}"
        if not event.decklist.size and not event.salt:  # the list withheld from this reader
            return (
                f"{event.seat}'s sealed list opened (its cards are for {event.seat} and the "
                "referee)"
            )
        return f"{event.seat}'s sealed list opened ({event.decklist.size} cards)"
    if isinstance(event, RulingRequested):
        cards = "; ".join(f"{s(r.card)} ({r.clause}): {s(r.text)}" for r in event.rulings)
        return f"ruling needed on event {event.event}: {cards}"
    if isinstance(event, AdjustmentRecorded):
        answers = f" answering event {event.resolves}" if event.resolves is not None else ""
        return f"adjustment for {s(event.card)}{answers}: {s(event.notation)} ({s(event.reason)})"
    if isinstance(event, PenaltyIssued):
        return (
            f"penalty: {event.penalty.replace('_', ' ')} for {event.seat}: {s(event.infraction)}"
            + (f" ({s(event.reason)})" if event.reason else "")
        )
    if isinstance(event, SeatWithdrawn):
        return (
            f"{event.seat} withdrew by {event.how} "
            f"({event.clause}{': ' + s(event.reason) if event.reason else ''})"
        )
    return type(event).__name__


def event_by(event: GameEvent) -> str:
    for name in ("recorded_by", "by", "created_by"):
        value = getattr(event, name, None)
        if value:
            return str(value)
    return ""


def event_line(event: GameEvent) -> str:
    by = event_by(event)
    tail = f"  [{safe_text(by)}]" if by else ""
    return (
        f"#{event.originator_version:<4} {event.timestamp:%H:%M:%S}  {event_summary(event)}{tail}"
    )
