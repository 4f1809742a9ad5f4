"""Recomputing round 1's draw from a posting (EV-5.6): the ``draw`` check of ``referee
event verify``. The posting of round 1's pairings carries the event's seed; the check
folds the event up to just before round 1 was first paired, pairs it again with the
pure core (which orders the players by sha256 of ``SEED:1:ID``), and compares."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from events.tournament import TournamentEvent

__all__ = ["draw_check"]


def draw_check(events: Sequence[TournamentEvent], seed: int | None) -> tuple[bool, str] | None:
    """``(held, detail)`` for a posting of round 1 that carries ``seed``; ``None`` when
    there is nothing to recompute (no seed posted, or round 1 never paired)."""
    from events.tournament import to_fact
    from referee.tournament import decisions as d
    from referee.tournament import facts as f
    from referee.tournament.errors import Refusal
    from referee.tournament.state import Tournament, apply

    if seed is None:
        return None
    facts = [to_fact(e) for e in events]
    created = next((x for x in facts if isinstance(x, f.EventCreated)), None)
    if created is None:
        return None
    if created.settings.seed != seed:
        return False, f"the posting says seed {seed}; the event recorded {created.settings.seed}"
    state = Tournament()
    last: tuple[Tournament, f.RoundPaired] | None = None  # round 1 as last paired (EV-5.13)
    for fact in facts:
        if isinstance(fact, f.RoundPaired) and fact.round.number == 1:
            last = (state, fact)
        state = apply(state, fact)
    if last is None:
        return None
    before, paired = last
    if paired.override is not None:
        return True, "round 1 was paired by hand (EV-5.11): no draw to recompute"
    try:
        again = d.decide(before, d.PairNext())
    except Refusal as exc:
        return False, f"round 1 cannot be paired again from the seed: {exc.clause}: {exc.reason}"
    redone = next(x for x in again if isinstance(x, f.RoundPaired))
    if redone.round == paired.round:
        return True, f"round 1 drawn again from seed {seed} gives the pairings as first made"
    return False, f"round 1 drawn again from seed {seed} differs from the pairings first made"
