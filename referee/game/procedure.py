"""Small pieces of the referee procedure the decisions share: naming seats, building
results, ranking seats that withdrew, who may be named a player. Pure: no storage, no
clock; the caller stamps the facts' common fields (``base``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from referee.errors import InvalidCommandError, RefusedError, UnknownSeatError, quoted
from referee.game.facts import GameEnded
from referee.outcomes import Outcome, Placing

if TYPE_CHECKING:
    from referee.game.view import FoldedGame

__all__ = [
    "PLAYER_ID",
    "PLAYER_ID_WORDS",
    "active_seats",
    "declared_result",
    "named_seat",
    "ranked_with_withdrawn",
    "require_open",
    "result_by_rule",
    "seat_of",
    "valid_clause",
]

PLAYER_ID = re.compile(r"[a-z0-9][a-z0-9_.-]{0,63}")
"""What a player id looks like: lower-case letters, digits, ``_ . -``; 64 at most."""

PLAYER_ID_WORDS = "a player id is 1 to 64 lower-case letters, digits, '_', '.' or '-'"


def seat_of(
    view: FoldedGame, who: str, *, what: str = "seat or player", others: tuple[str, ...] = ()
) -> str:
    """A seat from a seat name or a player's name (case-insensitive), as a referee would say it.

    Two players whose names differ only in case may sit at one table when their seats
    name player ids: the name as written then decides, and a name that still fits
    both is refused, so the referee names the seat. A name that is no ``what`` of the
    game is refused naming REF-1.7 and the choices (``others`` first: ``referee``,
    ``public`` for a viewer)."""
    wanted = who.strip()
    players = view.created.players
    for player in players:
        if wanted.casefold() == player.seat.casefold():
            return player.seat
    exact = [p.seat for p in players if p.name == wanted]
    loose = [p.seat for p in players if p.name.casefold() == wanted.casefold()]
    found = exact or loose
    if len(found) == 1:
        return found[0]
    seats = ", ".join(f"{p.seat} ({p.name})" for p in players)
    named = quoted(who)
    if found:
        raise UnknownSeatError(
            "REF-1.7", f"{named} names more than one player of this game; name the seat: {seats}"
        )
    choices = ", ".join((*others, seats))
    raise UnknownSeatError(
        "REF-1.7", f"{named} is not a {what} of this game; choose one of: {choices}"
    )


def named_seat(view: FoldedGame, text: str, actor: str | None) -> tuple[str | None, str]:
    """The seat and the entry of ``text`` written as the table writes it, ``SEAT: ENTRY``
    (a seat or a player's name before the colon; a colon inside an entry stays), checked
    against a seat named separately (``--by``, an API's ``seat``): they must agree (REF-1.2)."""
    head, colon, tail = text.partition(":")
    if not colon or not tail.strip():
        return actor, text
    try:
        named = seat_of(view, head)
    except RefusedError:
        return actor, text  # not a seat: the colon belongs to the entry
    if actor is not None and seat_of(view, actor) != named:
        raise InvalidCommandError(
            "REF-1.2",
            f"the entry names {named} ('{head.strip()}: ...') but the command names "
            f"{seat_of(view, actor)}; name the seat once, either way",
        )
    return named, tail.strip()


def valid_clause(view: FoldedGame, clause: str) -> str:
    """The clause id as the rulebook spells it; refuses ids of no rulebook of this game."""
    from referee.rulebook import find_clause

    try:
        return find_clause(clause.strip(), view.game).id
    except LookupError:
        raise RefusedError(
            f"{clause!r} is not a clause of the {view.rules.title} rulebook or the referee "
            f"procedure ('referee rules {view.game}' lists them)"
        ) from None


def ranked_with_withdrawn(view: FoldedGame, top: Sequence[Placing]) -> tuple[Placing, ...]:
    """``top`` (the seats still playing) followed by the seats that withdrew, the last to
    leave first (REF-3.5)."""
    placings = list(top)
    left = [w.seat for w, _ in view.withdrawn]
    rank = len(placings) + 1
    for seat in reversed(left):
        placings.append(Placing(seat, rank))
        rank += 1
    return tuple(placings)


def result_by_rule(view: FoldedGame, outcome: Outcome, base: dict[str, Any], by: str) -> GameEnded:
    """The ``GameEnded`` event for a result the rules reached."""
    seats = view.seats
    ranking: tuple[Placing, ...] = ()
    if len(seats) > 2 or outcome.status == "ranked":
        ranking = outcome.placings(seats)
    return GameEnded(
        **base,
        winner=outcome.winner,
        how="rule",
        clause=outcome.clause or "REF-3.1",
        reason=outcome.reason,
        by=by,
        ranking=ranking,
        tiebreak=outcome.tiebreak,
    )


def declared_result(
    view: FoldedGame,
    base: dict[str, Any],
    *,
    how: str,
    clause: str,
    reason: str,
    by: str,
    top: Sequence[Placing],
) -> GameEnded:
    """A result declared by the referee (resignation, agreement, adjudication, penalty)."""
    ranking = ranked_with_withdrawn(view, top)
    firsts = [p.seat for p in ranking if p.rank == 1]
    winner = firsts[0] if len(firsts) == 1 else None
    stored = ranking if len(view.seats) > 2 else ()
    return GameEnded(
        **base,
        winner=winner,
        how=how,  # type: ignore[arg-type]
        clause=clause,
        reason=reason,
        by=by,
        ranking=stored,
    )


def active_seats(view: FoldedGame) -> list[str]:
    gone = set(view.withdrawn_seats())
    return [s for s in view.seats if s not in gone]


def require_open(view: FoldedGame) -> None:
    if view.ended is not None:
        raise InvalidCommandError(
            "REF-1.3", f"the game already ended ({view.ended.result} by {view.ended.how})"
        )
