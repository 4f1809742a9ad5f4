"""One registration per event type: how it reads for people, its line in a text record,
and how it folds into a game's view, side by side (issue 19 section 3).

A new event type is one ``register(Kind(...))`` here, beside its class in
``events.schema`` (its topic and kind name). ``events.records.event_summary``,
``events.interchange.text.entry_text`` and ``events.view.GameView.fold`` look the
type up in this registry instead of each keeping a chain of ``isinstance`` tests.

The fold of a recorded action is the exception: it is the hot path of every replay,
so ``GameView.fold`` does it inline and its registration says so (``fold=None``).
A fold sees the view through ``Folding`` (what a fold may change), so this module
never imports ``events.view``, which imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

import msgspec

from events.plain import quote, safe_text
from events.schema import (
    ActionRecorded,
    ActionRejected,
    ActionRetracted,
    AdjustmentRecorded,
    BranchRecorded,
    BranchResolved,
    DeckOpened,
    DeckRegistered,
    DisputeAppealed,
    DisputeOpened,
    DisputeRuled,
    EntriesMerged,
    GameCallAnswered,
    GameCreated,
    GameEnded,
    GameEvent,
    JudgeCalledToGame,
    PenaltyIssued,
    PenaltyWithdrawn,
    ResultVoided,
    RulingRequested,
    SeatWithdrawn,
    TimeLimitSet,
)
from referee.capabilities import adjustments_of, decks_of, withdrawals_of
from referee.contract import GameRules, Setup
from referee.game.facts import Dispute
from referee.kit.adjustments import MoveCard, carried_out, change_notation
from referee.kit.decks import Deck, SealedDeck

__all__ = [
    "Dispute",
    "Folding",
    "Kind",
    "ReplayError",
    "kind_of_event",
    "register",
    "registered_types",
]

E = TypeVar("E", bound=GameEvent)


class ReplayError(ValueError):
    """A stream that cannot be folded: it does not start with a creation, or an
    event refers to something that is not there."""


class Folding(Protocol):
    """What a fold may read and change of a game's view (``events.view.GameView``)."""

    rules: GameRules[Any, Any]
    setup: Setup
    states: list[Any]
    standing: list[ActionRecorded]
    ended: GameEnded | None
    disputes: dict[int, Dispute]
    pending: dict[int, RulingRequested]
    withdrawn: list[tuple[SeatWithdrawn, int]]
    penalties: list[PenaltyIssued]
    time_limit: int | None


class Kind(Generic[E]):
    """An event type's facets: ``summary`` (one line for people, free text made
    terminal-safe), ``text`` (its line in a ``referee-text/1`` record, ``None`` when
    the rules produce it again on import) and ``fold`` (its effect on a game's view;
    ``None`` only for the action, folded inline by the view).

    A plain class, not a dataclass: every command imports this module, and generating
    a dataclass's methods at import cost each 'referee' process instructions."""

    __slots__ = ("cls", "fold", "summary", "text")

    def __init__(
        self,
        cls: type[E],
        summary: Callable[[E], str],
        text: Callable[[E], str | None],
        fold: Callable[[Folding, E], None] | None,
    ) -> None:
        self.cls = cls
        self.summary = summary
        self.text = text
        self.fold = fold


_KINDS: dict[type[GameEvent], Kind[Any]] = {}


def register(kind: Kind[E]) -> Kind[E]:
    """Add an event type's facets (one registration per type)."""
    if kind.cls in _KINDS:
        raise ValueError(f"{kind.cls.__name__} is registered already")
    _KINDS[kind.cls] = kind
    return kind


def registered_types() -> frozenset[type[GameEvent]]:
    """Every event type with a registration."""
    return frozenset(_KINDS)


def kind_of_event(event: GameEvent) -> Kind[Any] | None:
    """The registration of ``event``'s type, or ``None`` for a type with none."""
    return _KINDS.get(type(event))


def _fold_nothing(view: Folding, event: GameEvent) -> None:
    """Evidence only: the event changes no position (a rejected entry)."""


def _not_folded(view: Folding, event: GameEvent) -> None:
    raise ReplayError(f"cannot fold event of type {type(event).__name__}")


def _not_in_text(event: GameEvent) -> str | None:
    raise TypeError(f"{type(event).__name__} has no line of its own in a text record")


def _why(violations: Any) -> str:
    return "; ".join(f"{v.clause}: {safe_text(v.reason)}" for v in violations)


def _by_how(event: GameEnded | SeatWithdrawn) -> str:
    return f"{event.clause}{': ' + safe_text(event.reason) if event.reason else ''}"


# -- the game's life: created, actions, corrections, results -------------------------------


def _created_summary(event: GameCreated) -> str:
    players = ", ".join(f"{p.seat}={safe_text(p.name)}" for p in event.players)
    variants = ", ".join(f"{k}={v}" for k, v in event.variants.items())
    return f"created {event.game} ({event.ruleset}) {players}" + (
        f" [{variants}]" if variants else ""
    )


register(Kind(GameCreated, _created_summary, _not_in_text, _not_folded))  # the record's tags

register(
    Kind(
        ActionRecorded,
        summary=lambda e: f"{e.seq}. {e.actor} {safe_text(e.notation)}",
        text=lambda e: f"{e.seq}. {e.actor} {e.notation}",
        fold=None,  # the hot path: GameView.fold applies the action inline
    )
)


def _rejected_text(e: ActionRejected) -> str:
    # Plain text: each clause followed by its reason as a JSON string ('GS-6.8 "..."').
    reasons = "; ".join(f"{v.clause} {quote(v.reason)}" for v in e.violations)
    return f"{{rejected {quote(e.text)} by {quote(e.actor or '')} for {e.seq}: {reasons}}}"


register(
    Kind(
        ActionRejected,
        summary=lambda e: (
            f"rejected {safe_text(repr(e.text))} (for action {e.seq}): {_why(e.violations)}"
        ),
        text=_rejected_text,
        fold=_fold_nothing,
    )
)


def _fold_retracted(view: Folding, event: ActionRetracted) -> None:
    if not view.standing or view.standing[-1].originator_version != event.event:
        raise ReplayError(
            f"event {event.originator_version} retracts event {event.event}, "
            "which is not the latest standing action"
        )
    if view.withdrawn and view.withdrawn[-1][1] >= len(view.standing):
        raise ReplayError(
            f"event {event.originator_version} retracts an action from before "
            f"{view.withdrawn[-1][0].seat} withdrew"
        )
    view.standing.pop()
    view.states.pop()
    for number in [n for n, asked in view.pending.items() if asked.event == event.event]:
        del view.pending[number]
    if view.ended is not None and view.ended.how == "rule":
        view.ended = None


register(
    Kind(
        ActionRetracted,
        summary=lambda e: f"retracted action {e.seq} (event {e.event}): {safe_text(e.reason)}",
        text=lambda e: f"{{retracted {e.seq}: {quote(e.reason)}}}",
        fold=_fold_retracted,
    )
)


def _ended_summary(e: GameEnded) -> str:
    if e.how == "void":
        return f"closed as void ({_by_how(e)})"
    if e.ranking and len(e.ranking) > 2:
        who = f"ranking {e.result}"
    else:
        who = "draw" if e.winner is None else f"{e.winner} wins"
    return f"ended: {who} by {e.how} ({_by_how(e)})"


def _ended_text(e: GameEnded) -> str:
    ranked = (e.ranking and len(e.ranking) > 2) or e.how == "void"
    result = e.result if ranked else (e.winner or "draw")
    tail = f" tiebreak {quote(e.tiebreak)}" if e.tiebreak else ""
    return f"{{ended {quote(result)} by {e.how} {quote(e.clause)}: {quote(e.reason)}{tail}}}"


def _fold_ended(view: Folding, event: GameEnded) -> None:
    view.ended = event


register(Kind(GameEnded, _ended_summary, _ended_text, _fold_ended))


def _fold_voided(view: Folding, event: ResultVoided) -> None:
    if view.ended is None or view.ended.originator_version != event.event:
        raise ReplayError(
            f"event {event.originator_version} voids event {event.event}, which is not the "
            "result in force"
        )
    view.ended = None


register(
    Kind(
        ResultVoided,
        summary=lambda e: f"result of event {e.event} voided: {safe_text(e.reason)}",
        text=lambda e: f"{{voided {e.event}: {quote(e.reason)}}}",
        fold=_fold_voided,
    )
)

# -- disputes (REF-4) ------------------------------------------------------------------------


def _fold_dispute_opened(view: Folding, event: DisputeOpened) -> None:
    view.disputes[event.dispute] = Dispute(number=event.dispute, event=event.event, opened=event)


def _fold_dispute_step(view: Folding, event: DisputeRuled | DisputeAppealed) -> None:
    dispute = view.disputes.get(event.dispute)
    if dispute is None:
        raise ReplayError(f"event {event.originator_version} names unknown dispute")
    dispute.steps.append(event)


register(
    Kind(
        DisputeOpened,
        summary=lambda e: (
            f"dispute {e.dispute} on event {e.event} by {safe_text(e.by)}: {safe_text(e.claim)}"
        ),
        text=lambda e: (
            f"{{dispute {e.dispute} on event {e.event} by {quote(e.by)}: {quote(e.claim)}}}"
        ),
        fold=_fold_dispute_opened,
    )
)

register(
    Kind(
        DisputeRuled,
        summary=lambda e: (
            f"dispute {e.dispute}: {e.level} ruling by {safe_text(e.by)}: {e.decision} "
            f"({safe_text(e.clause)}): {safe_text(e.reason)}"
        ),
        text=lambda e: (
            f"{{ruling {e.dispute} {e.level} {e.decision} {quote(e.clause)} by "
            f"{quote(e.by)}: {quote(e.reason)}}}"
        ),
        fold=_fold_dispute_step,
    )
)

register(
    Kind(
        DisputeAppealed,
        summary=lambda e: (
            f"dispute {e.dispute}: appealed by {safe_text(e.by)}: {safe_text(e.grounds)}"
        ),
        text=lambda e: f"{{appeal {e.dispute} by {quote(e.by)}: {quote(e.grounds)}}}",
        fold=_fold_dispute_step,
    )
)

# -- decks, rulings, adjustments, penalties, withdrawals -------------------------------------


def _deck_summary(deck: Deck) -> str:
    if isinstance(deck, SealedDeck):
        return (
            f"a sealed list of {deck.size} cards (commitment {deck.commitment})"
            if deck.commitment
            else f"a list of {deck.size} cards"
        )
    return f"an open list of {deck.size} cards"


def _deck_value(deck: Deck) -> str:
    if isinstance(deck, SealedDeck):
        if not deck.commitment:  # a list this viewer may not see: its size, what was in sight
            return " ".join([f"hidden {deck.size}", *(quote(card) for card in deck.shown)])
        return f"sealed {quote(deck.commitment)} {deck.size}"
    return f"open {quote(deck.text())}"


def _fold_deck_registered(view: Folding, event: DeckRegistered) -> None:
    if view.standing:
        raise ReplayError(f"event {event.originator_version} registers a deck after play began")
    view.setup = msgspec.structs.replace(
        view.setup, decks={**view.setup.decks, event.seat: event.deck}
    )
    view.states[0] = view.rules.start(view.setup, recorded=True)


register(
    Kind(
        DeckRegistered,
        summary=lambda e: f"{e.seat} registered {_deck_summary(e.deck)}",
        text=lambda e: f"{{deck {quote(e.seat)} {_deck_value(e.deck)}}}",
        fold=_fold_deck_registered,
    )
)


def _opened_summary(e: DeckOpened) -> str:
    if e.violations:
        return f"{e.seat}'s sealed list did not open: {_why(e.violations)}"
    if not e.decklist.size and not e.salt:  # the list withheld from this reader
        return f"{e.seat}'s sealed list opened (its cards are for {e.seat} and the referee)"
    return f"{e.seat}'s sealed list opened ({e.decklist.size} cards)"


def _fold_deck_opened(view: Folding, event: DeckOpened) -> None:
    if event.violations:
        return  # evidence only: the registration stays sealed
    decks = decks_of(view.rules)
    for index, state in enumerate(view.states):
        if decks is None or (knowledge := decks.deck_knowledge(state, event.seat)) is None:
            raise ReplayError(
                f"event {event.originator_version} opens a deck the game does not keep"
            )
        view.states[index] = decks.with_deck_knowledge(
            state, event.seat, knowledge.opened(event.decklist)
        )


register(
    Kind(
        DeckOpened,
        summary=_opened_summary,
        text=lambda e: (
            f"{{opened {quote(e.seat)} {quote(e.decklist.text())} salt {quote(e.salt)}}}"
        ),
        fold=_fold_deck_opened,
    )
)


def _ruling_summary(e: RulingRequested) -> str:
    cards = "; ".join(f"{safe_text(r.card)} ({r.clause}): {safe_text(r.text)}" for r in e.rulings)
    return f"ruling needed on event {e.event}: {cards}"


def _fold_ruling_requested(view: Folding, event: RulingRequested) -> None:
    view.pending[event.originator_version] = event


register(
    Kind(
        RulingRequested,
        summary=_ruling_summary,
        text=lambda e: None,  # the rules ask for it again when the action is entered
        fold=_fold_ruling_requested,
    )
)


def _adjust_summary(e: AdjustmentRecorded) -> str:
    answers = f" answering event {e.resolves}" if e.resolves is not None else ""
    what = f"adjustment for {safe_text(e.card)}" if e.card else "position corrected"
    if e.kept_hidden:  # REF-6.6: each move as its reader may know it
        said = "; ".join(
            f"{c.seat} moves a hidden card from {c.source} to {c.target}"
            if isinstance(c, MoveCard) and c.card is None
            else change_notation(c)
            for c in e.changes
        )
        if said != e.notation:
            return f"{what}{answers}: {safe_text(said)} ({safe_text(e.reason)})"
        return f"{what}{answers}: {safe_text(e.notation)}, kept hidden ({safe_text(e.reason)})"
    return f"{what}{answers}: {safe_text(e.notation)} ({safe_text(e.reason)})"


def _adjust_text(e: AdjustmentRecorded) -> str:
    answering = f" answering {e.resolves}" if e.resolves is not None else ""
    changes = e.notation if e.changes else ""
    seen = " hidden" if e.revealed is False else " revealed" if e.revealed is True else ""
    return f"{{adjust {quote(changes)} for {quote(e.card)}{answering}{seen}: {quote(e.reason)}}}"


def _fold_adjustment(view: Folding, event: AdjustmentRecorded) -> None:
    state = view.states[-1]
    adjusting = adjustments_of(view.rules)
    if adjusting is not None:
        # The live check first (REF-6.4): a stored change that does not fit the position
        # (an imported or edited one) is named, never applied; a move between hidden zones
        # not recorded revealed (kept hidden, or made before REF-6.6 said a word) changes
        # what everyone knows as an unseen one
        state, violation = carried_out(
            adjusting.check_change,
            adjusting.apply_change,
            state,
            event.changes,
            view.rules.hidden_zones,
            hidden=not event.shown_to_all,
            keep=view.rules.kept_in_sight_of_its_seat,
        )
        if violation is not None:
            raise ReplayError(
                f"event {event.originator_version}: the adjustment breaks "
                f"{violation.clause}: {violation.reason}"
            )
    elif event.changes:
        raise ReplayError(f"event {event.originator_version}: {view.rules.name} takes no change")
    view.states[-1] = state
    if event.resolves is not None:
        view.pending.pop(event.resolves, None)


register(Kind(AdjustmentRecorded, _adjust_summary, _adjust_text, _fold_adjustment))


def _penalty_summary(e: PenaltyIssued) -> str:
    return f"penalty: {e.penalty.replace('_', ' ')} for {e.seat}: {safe_text(e.infraction)}" + (
        f" ({safe_text(e.reason)})" if e.reason else ""
    )


def _fold_penalty(view: Folding, event: PenaltyIssued) -> None:
    view.penalties.append(event)


register(
    Kind(
        PenaltyIssued,
        summary=_penalty_summary,
        text=lambda e: (
            f"{{penalty {quote(e.seat)} {e.penalty} {quote(e.infraction)}: {quote(e.reason)}}}"
        ),
        fold=_fold_penalty,
    )
)


def _fold_penalty_withdrawn(view: Folding, event: PenaltyWithdrawn) -> None:
    kept = [p for p in view.penalties if p.originator_version != event.penalty]
    if len(kept) == len(view.penalties):
        raise ReplayError(
            f"event {event.originator_version} withdraws event {event.penalty}, which is not "
            "a penalty in force"
        )
    view.penalties = kept


register(
    Kind(
        PenaltyWithdrawn,
        summary=lambda e: f"penalty of event {e.penalty} withdrawn: {safe_text(e.reason)}",
        text=lambda e: f"{{penalty-withdrawn {e.penalty}: {quote(e.reason)}}}",
        fold=_fold_penalty_withdrawn,
    )
)


def _fold_withdrawn(view: Folding, event: SeatWithdrawn) -> None:
    leaving = withdrawals_of(view.rules)
    after = leaving.withdraw(view.states[-1], event.seat) if leaving else None
    if after is None:
        raise ReplayError(
            f"event {event.originator_version}: {view.rules.name} cannot go on without {event.seat}"
        )
    view.states[-1] = after
    view.withdrawn.append((event, len(view.standing)))


register(
    Kind(
        SeatWithdrawn,
        summary=lambda e: f"{e.seat} withdrew by {e.how} ({_by_how(e)})",
        text=lambda e: (
            f"{{withdrawn {quote(e.seat)} by {e.how} {quote(e.clause)}: {quote(e.reason)}}}"
        ),
        fold=_fold_withdrawn,
    )
)


# -- entries recorded offline (REF-9.4, REF-9.5): evidence beside the game -----------------


def _entries_line(entries: Any) -> str:
    return ", ".join(quote(e.text) for e in entries)


def _iso(moment: Any) -> str:
    return str(moment.isoformat()).replace("+00:00", "Z")


def offline_entries_text(entries: Any) -> str:
    """A text record's form of a table's offline entries (REF-9.4), every field kept:
    ``"e8>e7" seat "blue" at "2026-11-28T16:01:02Z" key "k1" judged "e8>e7" on 3; ...``
    (``seat`` only when the entry named one)."""
    return "; ".join(
        quote(e.text)
        + (f" seat {quote(e.seat)}" if e.seat is not None else "")
        + f" at {quote(_iso(e.recorded_at))} key {quote(e.key)}"
        + f" judged {quote(e.judged)} on {e.judged_on}"
        for e in entries
    )


def _quoted_list(values: Any) -> str:
    return ", ".join(quote(v) for v in values)


register(
    Kind(
        EntriesMerged,
        summary=lambda e: (
            f"{len(e.entries)} entries recorded offline by {safe_text(e.device)} on event "
            f"{e.base_version} stored as events {', '.join(map(str, e.events)) or '-'} "
            f"(recorded at {', '.join(x.recorded_at.strftime('%H:%M:%S') for x in e.entries)})"
        ),
        # the entries are in the record as the actions they became; this line keeps
        # which they were, from which device, and when the table recorded them
        text=lambda e: (
            f"{{offline-merged {quote(e.device)} on {e.base_version} as "
            f"{', '.join(map(str, e.events)) or '-'} by {quote(e.by)}: "
            f"{offline_entries_text(e.entries)}}}"
        ),
        fold=_fold_nothing,
    )
)

register(
    Kind(
        BranchRecorded,
        summary=lambda e: (
            f"branches disagree after event {e.base_version}: {safe_text(e.device)} recorded "
            f"{_entries_line(e.entries)} offline; the server recorded "
            f"{'; '.join(safe_text(x) for x in e.ours) or 'nothing new'} (REF-9.5)"
        ),
        # evidence kept whole beside the game (not an entry of it): the table's entries,
        # both branches' lines and why they disagree
        text=lambda e: (
            f"{{offline-branch {quote(e.device)} on {e.base_version} by {quote(e.by)}: "
            f"{offline_entries_text(e.entries)} | theirs {_quoted_list(e.theirs)} | "
            f"ours {_quoted_list(e.ours)} | reason {quote(e.reason)}}}"
        ),
        fold=_fold_nothing,
    )
)

register(
    Kind(
        BranchResolved,
        summary=lambda e: (
            f"branch of event {e.branch} resolved: kept the {e.kept}'s"
            + (f" ({safe_text(e.reason)})" if e.reason else "")
        ),
        # the kept branch's entries (and any retraction) are in the record before it
        text=lambda e: f"{{branch-kept {e.branch} {e.kept} by {quote(e.by)}: {quote(e.reason)}}}",
        fold=_fold_nothing,
    )
)


_STEP_DONE = {"claim": "claimed", "escalate": "escalated", "resolve": "resolved"}

register(
    Kind(
        JudgeCalledToGame,
        summary=lambda e: (
            f"judge called by {safe_text(e.by)}" + (f": {safe_text(e.reason)}" if e.reason else "")
        ),
        text=lambda e: f"{{call by {quote(e.by)}: {quote(e.reason)}}}",  # REF-11.1
        fold=_fold_nothing,
    )
)
register(
    Kind(
        GameCallAnswered,
        summary=lambda e: (
            f"call {e.call} {_STEP_DONE[e.step]} by {safe_text(e.by)}"
            + (f": {safe_text(e.note)}" if e.note else "")
        ),
        text=lambda e: f"{{call-answered {e.call} {e.step} by {quote(e.by)}: {quote(e.note)}}}",
        fold=_fold_nothing,
    )
)


def _fold_time_limit(view: Folding, event: TimeLimitSet) -> None:
    view.time_limit = event.minutes


register(
    Kind(
        TimeLimitSet,
        summary=lambda e: (
            f"time limit set to {e.minutes} minutes"
            + (f" ({safe_text(e.reason)})" if e.reason else "")
        ),
        text=lambda e: f"{{time-limit {e.minutes}: {quote(e.reason)}}}",
        fold=_fold_time_limit,
    )
)
