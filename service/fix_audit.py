"""The audit's lines for the facts that fix a mistake in place (EV-1.5, EV-2.7, EV-2.8, EV-2.11,
EV-3.9, EV-5.13, EV-8.7): what ``Tournaments.event_audit`` lists beside overrides,
corrections, penalties and drops."""

from __future__ import annotations

from typing import Any

from referee.tournament import facts as f

__all__ = ["fix_item"]


def fix_item(fact: f.Fact) -> dict[str, Any] | None:
    """The audit entry of ``fact`` (without its event number), or ``None``."""
    match fact:
        case f.RoundUndone(round=number, reason=why, by=by):
            return {"what": "round undone", "round": number, "reason": why, "by": by}
        case f.PlayerUndropped(player=player, reason=why, by=by):
            return {"what": "undrop", "player": player, "reason": why, "by": by}
        case f.SettingsChanged(rounds=rounds, cut=cut, reason=why, by=by):
            item: dict[str, Any] = {"what": "settings changed"}
            if rounds is not None:
                item["rounds"] = rounds
            if cut is not None:
                item["cut"] = cut
            return {**item, "reason": why, "by": by}
        case f.GamesVoided(games=games, reason=why, by=by):
            return {"what": "games voided", "games": list(games), "reason": why, "by": by}
        case f.PenaltyWithdrawn(penalty=number, reason=why, by=by):
            return {"what": "penalty withdrawn", "penalty": number, "reason": why, "by": by}
        case f.PenaltyApplied(penalty=number, round=r, table=t, game=g):
            item = {"what": "penalty applied", "penalty": number, "round": r, "table": t}
            return {**item, "game": g} if g else item
        case f.DecklistAttached(player=player, by=by):
            return {"what": "decklist attached", "player": player, "by": by}
        case f.RatingCorrected(player=player, rating=rating, reason=why, by=by):
            return {"what": "rating corrected", "player": player, "rating": rating, "reason": why,
                    "by": by}  # fmt: skip
    return None
