"""IPG penalties carried across an event, and the upgrades repeats call for (EV-8.4).

Base penalties follow the IPG's quick reference. Repeats are counted per player
and infraction over the whole event (a multi-day event resets per day; the core
has one day): a third Game Play Error warning of the same kind, a second
Tournament Error warning of the same kind, or a second Unsporting Conduct, Minor
is suggested as a Game Loss. The judge decides; the suggestion is recorded
beside what was given.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["INFRACTIONS", "infraction_key", "suggested_penalty"]

INFRACTIONS: dict[str, tuple[str, str]] = {
    # infraction: (category, base penalty)
    "missed-trigger": ("gpe", "none"),
    "looking-at-extra-cards": ("gpe", "warning"),
    "hidden-card-error": ("gpe", "warning"),
    "mulligan-procedure-error": ("gpe", "warning"),
    "game-rule-violation": ("gpe", "warning"),
    "failure-to-maintain-game-state": ("gpe", "warning"),
    "tardiness": ("te", "game-loss"),
    "outside-assistance": ("te", "match-loss"),
    "slow-play": ("te", "warning"),
    "decklist-problem": ("te", "game-loss"),
    "deck-problem": ("te", "warning"),
    "limited-procedure-violation": ("te", "warning"),
    "communication-policy-violation": ("te", "warning"),
    "marked-cards": ("te", "warning"),
    "insufficient-shuffling": ("te", "warning"),
    "unsporting-conduct-minor": ("usc", "warning"),
    "unsporting-conduct-major": ("usc", "match-loss"),
    "improperly-determining-a-winner": ("usc", "match-loss"),
    "bribery-and-wagering": ("usc", "match-loss"),
    "aggressive-behavior": ("usc", "disqualification"),
    "theft-of-tournament-material": ("usc", "disqualification"),
    "stalling": ("usc", "disqualification"),
    "cheating": ("usc", "disqualification"),
}

_REPEATS_BEFORE_UPGRADE = {"gpe": 2, "te": 1}


def suggested_penalty(infraction: str, earlier: Iterable[str]) -> str:
    """The penalty the IPG suggests for ``infraction`` given the player's ``earlier``
    infractions in this event (their names, oldest first)."""
    category, base = INFRACTIONS[infraction]
    if base != "warning":
        return base
    repeats = sum(1 for e in earlier if e == infraction)
    if infraction == "unsporting-conduct-minor":
        return "game-loss" if repeats >= 1 else base
    if repeats >= _REPEATS_BEFORE_UPGRADE.get(category, 10**9):
        return "game-loss"
    return base


def infraction_key(text: str) -> str | None:
    """The IPG infraction a judge's words name (``Marked cards`` -> ``marked-cards``), or
    ``None`` for an infraction outside the IPG's list."""
    key = "-".join(text.strip().lower().replace("_", " ").split())
    return key if key in INFRACTIONS else None
