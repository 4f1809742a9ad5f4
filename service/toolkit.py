"""The referee's toolkit for one game, as the table page offers it: what each referee
action may be given now (the adjustment grammar, the disputes that can be ruled on or
appealed, the IPG penalties and the upgrades a repeat calls for).

Read from the game's folded view (``events.view.GameView``); nothing here writes. The
actions themselves go through ``RefereeService`` (``adjust``, ``penalty``, ``dispute``,
``rule``, ``appeal``, ``backup``, ``retract``) exactly as the command line calls them.
"""

from __future__ import annotations

import msgspec

from events.view import GameView
from referee.capabilities import adjustments_of
from referee.tournament.penalties import INFRACTIONS, infraction_key, suggested_penalty
from service.queries import awaited_ruling
from service.results import AwaitedRuling

__all__ = [
    "ADJUSTMENT_GRAMMAR",
    "DisputeChoice",
    "PenaltyAdvice",
    "PenaltyChoice",
    "Toolkit",
    "infraction_key",
    "penalty_advice",
    "toolkit",
]

ADJUSTMENT_GRAMMAR: tuple[tuple[str, str], ...] = (
    # kind, what follows it (REF-6.3; referee.kit.adjustments reads it)
    ("move", "SEAT FROM>TO [CARD]"),
    ("stat", "TARGET STAT +N|-N|=N"),
    ("resource", "SEAT NAME +N|-N"),
    ("tap", "TARGET"),
    ("untap", "TARGET"),
    ("destroy", "TARGET"),
    ("draw", "SEAT N"),
)
"""The primitive changes an adjustment is made of, each with the words that follow it."""

PENALTY_WORDS = {
    "none": "none",
    "warning": "warning",
    "game-loss": "game_loss",
    "match-loss": "match_loss",
    "disqualification": "disqualification",
}


class DisputeChoice(msgspec.Struct, kw_only=True):
    """One dispute of the game, as a choice in the ruling and appeal forms."""

    number: int
    event: int
    by: str
    claim: str
    status: str
    may_rule: bool
    """Open, or under appeal: a ruling is what comes next."""
    may_appeal: bool
    """Ruled on, not finally, and not already under appeal."""


class PenaltyAdvice(msgspec.Struct, kw_only=True):
    """What the IPG suggests for ``infraction`` by ``seat`` given their earlier penalties
    in this game (EV-8.4): ``upgrade`` when a repeat calls for more than the base."""

    seat: str
    infraction: str
    base: str
    suggested: str
    earlier: int
    upgrade: bool


class PenaltyChoice(msgspec.Struct, kw_only=True):
    """A penalty in force, as a choice in the withdrawal form (REF-7.3)."""

    event: int
    seat: str
    level: str
    infraction: str


class Toolkit(msgspec.Struct, kw_only=True):
    """Everything the table page's referee forms offer for one game now."""

    game_id: str
    seats: list[str]
    players: dict[str, str]
    takes_adjustments: bool
    grammar: list[tuple[str, str]]
    awaited: AwaitedRuling | None
    disputes: list[DisputeChoice]
    infractions: list[tuple[str, str, str]]
    """Every IPG infraction: its name, category and base penalty."""
    upgrades: list[PenaltyAdvice]
    """Only the infractions whose repeat by a seat calls for an upgrade now."""
    standing_actions: int
    events: int
    penalties: list[PenaltyChoice] = []
    """The penalties in force (not withdrawn), oldest first."""


def _earlier(view: GameView, seat: str) -> list[str]:
    found = []
    for event in view.penalties:  # a withdrawn penalty no longer counts (REF-7.3)
        if event.seat == seat:
            key = infraction_key(event.infraction)
            if key is not None:
                found.append(key)
    return found


def penalty_advice(view: GameView, seat: str, infraction: str) -> PenaltyAdvice | None:
    """The IPG's suggestion for ``infraction`` by ``seat`` now, or ``None`` when the
    infraction is not one of the IPG's."""
    key = infraction_key(infraction)
    if key is None:
        return None
    earlier = _earlier(view, seat)
    base = INFRACTIONS[key][1]
    suggested = suggested_penalty(key, earlier)
    return PenaltyAdvice(
        seat=seat,
        infraction=key,
        base=base,
        suggested=suggested,
        earlier=sum(1 for e in earlier if e == key),
        upgrade=suggested != base,
    )


def toolkit(view: GameView) -> Toolkit:
    """The referee forms' choices for the game ``view`` now."""
    disputes = []
    for number, record in sorted(view.disputes.items()):
        status = record.status
        disputes.append(
            DisputeChoice(
                number=number,
                event=record.event,
                by=record.opened.by,
                claim=record.opened.claim,
                status=status,
                may_rule=not record.final,
                may_appeal=status.startswith("ruled"),
            )
        )
    upgrades = []
    for seat in view.seats:
        earlier = set(_earlier(view, seat))
        for key in sorted(earlier):
            advice = penalty_advice(view, seat, key)
            if advice is not None and advice.upgrade:
                upgrades.append(advice)
    return Toolkit(
        game_id=view.game_id,
        seats=list(view.seats),
        players=view.seat_names(),
        takes_adjustments=adjustments_of(view.rules) is not None,
        grammar=list(ADJUSTMENT_GRAMMAR),
        awaited=awaited_ruling(view),
        disputes=disputes,
        infractions=[(name, cat, base) for name, (cat, base) in INFRACTIONS.items()],
        upgrades=upgrades,
        standing_actions=view.ply,
        events=view.version,
        penalties=[
            PenaltyChoice(
                event=p.originator_version,
                seat=p.seat,
                level=p.penalty.replace("_", "-"),
                infraction=p.infraction,
            )
            for p in view.penalties
        ],
    )
