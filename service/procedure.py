"""What the service adds to the referee procedure: the common fields of a new event (with
the token writing it) and the summaries of events written. The procedure's pure pieces
(naming seats, building results) are the decisions' own, in ``referee.game.procedure``,
named here too for the service's other modules.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from events.schema import GameEvent
from referee.game.procedure import (
    active_seats,
    declared_result,
    named_seat,
    ranked_with_withdrawn,
    require_open,
    result_by_rule,
    seat_of,
    valid_clause,
)

__all__ = [
    "WRITING_TOKEN",
    "active_seats",
    "declared_result",
    "header",
    "named_seat",
    "ranked_with_withdrawn",
    "require_open",
    "result_by_rule",
    "seat_of",
    "summaries",
    "valid_clause",
    "writing_token",
]


WRITING_TOKEN: ContextVar[str] = ContextVar("WRITING_TOKEN", default="")
"""The id of the access token a face is writing for (``""``: none, the command line).
The HTTP face sets it once per request when it authenticates (``web.context``), so
every command's events record it through ``header`` without each command passing
it along; a context variable, so concurrent requests never see each other's."""


@contextmanager
def writing_token(token_id: str) -> Iterator[None]:
    """Record ``token_id`` as the writer of every event built inside the block."""
    reset = WRITING_TOKEN.set(token_id)
    try:
        yield
    finally:
        WRITING_TOKEN.reset(reset)


def header(game_id: str, when: datetime | None = None) -> dict[str, Any]:
    """The common fields of a new event before it is numbered, linked and sealed; with
    the writing token's id when a face wrote it with one (``WRITING_TOKEN``)."""
    fields: dict[str, Any] = {
        "originator_id": game_id,
        "originator_version": 0,
        "timestamp": when or datetime.now(UTC),
        "prev_hash": "",
    }
    token = WRITING_TOKEN.get()
    if token:
        fields["token_id"] = token
    return fields


def summaries(events: Sequence[GameEvent]) -> list[str]:
    from events.records import event_summary

    return [event_summary(e) for e in events]
