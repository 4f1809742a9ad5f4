"""Whether a game is open or finished, folded once for every read model that lists games.

A game is ``open`` from its creation until a ``GameEnded`` gives it a result
(``finished``; a void result, EV-3.9, is a finished game whose ``how`` is
``void``). Two events open it again: a ``ResultVoided`` (a ruling set the result
aside) and an ``ActionRetracted`` of a game the rules ended (``how == "rule"``: the
retracted action was the one that ended it, REF-6.2). Nothing else changes it.

The games catalog (``projections.projector``), the live games list
(``projections.listing``, which also answers a read-only store with no catalog) and
the referees' queue (``projections.queue``) all ask ``outcome_after``: the rule is
written here and nowhere else (``tests/test_read_models.py`` checks that the three
agree on one log).
"""

from __future__ import annotations

from typing import Final

import msgspec

from events.schema import (
    ActionRetracted,
    GameCreated,
    GameEnded,
    GameEvent,
    ResultVoided,
    topics_for,
)
from projections.rows import Status

__all__ = ["OPEN", "STATUSES", "STATUS_TOPICS", "Outcome", "Status", "outcome_after"]

STATUSES: Final = ("open", "finished")
"""Every status a game can have, in the order a list offers them as filters."""


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """Where a game stands: its result (``*`` while open), how it ended, its status."""

    result: str = "*"
    how: str | None = None
    status: Status = "open"

    @property
    def open(self) -> bool:
        return self.status == "open"


OPEN: Final = Outcome()
"""An open game's outcome: a new game's, and a reopened one's."""

STATUS_TOPICS: Final = frozenset(
    topics_for(GameCreated)
    + topics_for(GameEnded)
    + topics_for(ActionRetracted)
    + topics_for(ResultVoided)
)
"""The topics a listing reads: the creation and every event that can change the status."""


def outcome_after(current: Outcome, event: GameEvent) -> Outcome:
    """The game's outcome after ``event``: ``current`` itself when the event leaves it
    as it was (so ``is`` tells a listing whether its row moved), a new one when the event
    ends or reopens the game (a void of an open game counts as a move, as it always did
    for the live list)."""
    if isinstance(event, GameEnded):
        return Outcome(result=event.result, how=event.how, status="finished")
    if isinstance(event, ResultVoided):
        return OPEN
    if isinstance(event, ActionRetracted) and current.how == "rule":
        return OPEN  # REF-6.2: the action that ended the game by the rules is gone
    return current
