"""Plain views of events for people and scripts: one line of text, or a JSON-ready dict,
each as a given viewer may see it.

Hidden information lives in few events: a registered or opened decklist (seen by
its seat and the referee only) and, in games whose entries carry something only
one seat saw, an action's notation (``GameRules.shown_notation``). ``redact``
returns the event as a viewer may see it; everything that shows events to a
viewer goes through it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from events.kinds import kind_of_event
from events.plain import safe_text
from events.schema import (
    ActionRecorded,
    ActionRejected,
    AdjustmentRecorded,
    BranchRecorded,
    DeckOpened,
    DeckRegistered,
    EntriesMerged,
    GameEvent,
    kind_of,
    topic_of,
)
from events.tournament import TournamentEvent
from events.tournament import summary as tournament_summary
from referee.capabilities import decks_of
from referee.contract import PUBLIC, REFEREE, GameRules, Setup, Viewer
from referee.kit.adjustments import MoveCard, adjustment_notation, hidden_from
from referee.kit.decks import Decklist, SealedDeck
from referee.kit.multiset import Multiset
from referee.verdicts import Violation, clause_section

if TYPE_CHECKING:
    from events.view import GameView

__all__ = [
    "HIDDEN_REASON",
    "event_line",
    "event_record",
    "event_summary",
    "redact",
    "safe_text",
]


WITHHELD = "(withheld)"
"""What a viewer other than the referee reads for a line of an offline branch (REF-9.5)."""

HIDDEN_REASON = "reason withheld under REF-6.6: it may name the hidden card"
"""What a viewer who may not read the card an adjustment kept hidden reads for its reason
(the referee's words may name the card): that an adjustment happened, its card, the
clause and the zones, not the words (REF-6.6)."""


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
    return msgspec.structs.replace(  # its section only, as ``Violation.for_viewer`` shows it
        violation, seen_by=actor, shown=f"the entry breaks {clause_section(violation.clause)}"
    )


def revealed_entries(view: GameView) -> frozenset[int]:
    """The event numbers of the game's standing entries that were sealed when made (a
    Prismatic bid) and that its last position has revealed to everyone since. Entries
    taken back stay sealed: nothing revealed them."""
    rules = view.rules
    if not rules.seals_entries:
        return frozenset()
    still = rules.still_sealed(view.states[-1])
    if still is None:
        return frozenset()
    left = dict(still)
    revealed: set[int] = set()
    for event in reversed(view.standing):
        action = msgspec.json.decode(event.action, type=rules.action_type)
        if rules.shown_notation(action, event.actor, PUBLIC) == event.notation:
            continue  # never hidden
        if left.get(event.actor, 0) > 0:
            left[event.actor] -= 1  # one of the seat's latest: still sealed
        else:
            revealed.add(event.originator_version)
    return frozenset(revealed)


def redact(
    event: GameEvent,
    viewer: Viewer,
    rules: GameRules[Any, Any] | None = None,
    setup: Setup | None = None,
    revealed: frozenset[int] = frozenset(),
) -> GameEvent:
    """The event as ``viewer`` may see it: a decklist of another seat is replaced by its
    size alone (and the cards the game's ``setup`` put in sight from it), an entry's
    private part by what the viewer may see of it (unless its event number is in
    ``revealed``: see ``revealed_entries``), a card an adjustment kept hidden by the move
    without its name (REF-6.6), and which token wrote it (a referee's device) with the key
    it sent, and the hash chain (which would confirm a guess of a withheld part) are left
    out."""
    if viewer == REFEREE:
        return event
    # The hash chain is the referee's: an event's hash is SHA-256 over the whole event as
    # stored, and each later hash covers it through ``prev_hash``, so a viewer shown any hash
    # from a withheld part on could hash each guess of that part (a sealed bid of 0 to N
    # prisms, a card name from the public catalog) and keep the one that matches (REF-8.2,
    # PX-14.1). Whoever checks the chain checks the referee's record (``referee verify``,
    # the JSONL export), which only the referee's view may read.
    if (
        event.token_id is not msgspec.UNSET
        or event.write_key is not msgspec.UNSET  # a device's bookkeeping, as its token
        or event.hash
        or event.prev_hash
    ):
        event = msgspec.structs.replace(
            event, token_id=msgspec.UNSET, write_key=msgspec.UNSET, hash="", prev_hash=""
        )
    if (
        isinstance(event, DeckRegistered)
        and not isinstance(event.deck, SealedDeck)  # a commitment is public, so anyone can
        and not _may_see_seat(viewer, event.seat)  # check the opening against it
    ):
        decks = decks_of(rules) if rules is not None and setup is not None else None
        in_sight = decks.shown_at_setup(setup, event.seat, event.deck) if decks and setup else ()
        # "" marks a withheld list
        withheld = SealedDeck(commitment="", size=event.deck.size, shown=in_sight)
        return msgspec.structs.replace(event, deck=withheld)
    if isinstance(event, BranchRecorded | EntriesMerged):
        # evidence for the head referee: the table's entries (another seat's may name hidden
        # cards; a merged entry's action shows the viewer only what it may see), both
        # branches' lines (made from the events as stored) and why they disagree are withheld
        entries = tuple(
            e
            if e.seat is not None and _may_see_seat(viewer, e.seat)
            else msgspec.structs.replace(e, text=WITHHELD, judged="")
            for e in event.entries
        )
        if isinstance(event, EntriesMerged):
            return msgspec.structs.replace(event, entries=entries)
        return msgspec.structs.replace(
            event,
            entries=entries,
            theirs=tuple(WITHHELD for _ in event.theirs),
            ours=tuple(WITHHELD for _ in event.ours),
            reason=WITHHELD if event.reason else "",  # it may quote an entry the server refused
        )
    if isinstance(event, DeckOpened) and not _may_see_seat(viewer, event.seat):
        return msgspec.structs.replace(event, decklist=Decklist(Multiset()), salt="")
    if isinstance(event, AdjustmentRecorded) and not event.shown_to_all:
        # REF-6.6: a card moved between hidden zones is its seat's and the referee's to read,
        # decided by the zones unless the referee recorded it revealed, so a record made
        # before the clause (no word) is kept too; the free-text reason may name the card,
        # so the viewer reads the clause in its place (with no rules to say which zones are
        # hidden, every named move is kept)
        hidden_zones = (
            rules.hidden_zones
            if rules is not None
            else frozenset(
                z for c in event.changes if isinstance(c, MoveCard) for z in (c.source, c.target)
            )
        )
        changes = hidden_from(event.changes, hidden_zones, viewer)
        if changes != event.changes:
            return msgspec.structs.replace(
                event,
                changes=changes,
                notation=adjustment_notation(changes),
                reason=HIDDEN_REASON,
                revealed=False,  # as this viewer reads it: a move kept hidden
            )
    if isinstance(event, ActionRejected):  # its text is its seat's; each reason is its own
        own = _may_see_seat(viewer, event.actor or "")
        text = (
            rules.shown_text(event.text, event.actor, viewer) if rules and not own else event.text
        )
        violations = tuple(
            _written_before_readers(v, event.actor).for_viewer(viewer) for v in event.violations
        )
        if text != event.text:  # a reason stored before it had readers may quote the entry
            quoted, hidden = repr(event.text), repr(text)
            violations = tuple(
                Violation(v.clause, v.reason.replace(quoted, hidden)) if quoted in v.reason else v
                for v in violations
            )
        if text != event.text or violations != event.violations:
            return msgspec.structs.replace(event, text=text, violations=violations)
    if (
        isinstance(event, ActionRecorded)
        and rules is not None
        and not _may_see_seat(viewer, event.actor)
        and event.originator_version not in revealed
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


def event_summary(event: GameEvent) -> str:
    """What the event says, without its number or time (free text made terminal-safe):
    the summary its type registered (``events.kinds``)."""
    if isinstance(event, TournamentEvent):  # an event (tournament) stream's own types
        return safe_text(tournament_summary(event))
    kind = kind_of_event(event)
    return kind.summary(event) if kind is not None else type(event).__name__


def event_by(event: GameEvent) -> str:
    for name in ("recorded_by", "by", "created_by"):
        value = getattr(event, name, None)
        if value:
            return str(value)
    return ""


def event_line(event: GameEvent) -> str:
    """``#3    12:00:01  SUMMARY  [holder, token ID]``: who wrote it, and with which
    token (device) when a token wrote it."""
    said = [safe_text(x) for x in (event_by(event), event.token) if x]
    if event.token:
        said[-1] = f"token {said[-1]}"
    tail = f"  [{', '.join(said)}]" if said else ""
    return (
        f"#{event.originator_version:<4} {event.timestamp:%H:%M:%S}  {event_summary(event)}{tail}"
    )
