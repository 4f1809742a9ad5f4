"""A referee over one game held in memory: a record from outside (a text record, another
tool's file) is entered again here, by the very commands a live game uses (the same
shells around the same decisions, ``referee.game``, through the same write pipeline,
``service.pipeline``), and only the events that come out are imported into the real
store.

No store is involved: ``load`` gives the game in memory, which the pipeline's seal
numbers, chains and folds the decided events into; the commit only keeps them. It
builds on ``Commands`` alone, not the whole ``RefereeService``: the service imports the
importers, and the importers import only this (no circle).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from events.codec import encode
from events.schema import TOPIC_OF
from events.view import GameView
from service.commands import Commands
from service.errors import GameNotFoundError
from service.pipeline import Staged

__all__ = ["ScratchReferee"]


def _now() -> datetime:
    return datetime.now(UTC)


class ScratchReferee(Commands):
    """The referee's commands over one game in memory, named by its whole id."""

    def __init__(self, clock: Callable[[], datetime] = _now) -> None:
        self.clock = clock
        self.draw_seed = lambda: 0  # records state their seeds (raw_options=False): none is drawn
        self.view: GameView | None = None

    def resolve(self, ref: str) -> str:
        return ref

    def load(self, ref: str) -> GameView:
        """The game being entered (the very object: each command folds into it)."""
        if self.view is None or self.view.game_id != ref:
            raise GameNotFoundError(f"no game {ref!r} is being entered here")
        return self.view

    def rows(self) -> list[tuple[int, str, bytes]]:
        """The game's events as a store holds them: (number, topic, JSON bytes)."""
        assert self.view is not None
        return [(e.originator_version, TOPIC_OF[type(e)], encode(e)) for e in self.view.events]

    def _commit(self, staged: Sequence[Staged[Any]]) -> None:
        """Keep what the pipeline sealed: the game in memory is the store (the pipeline
        already folded the events into it; a new game's view becomes the game)."""
        for one in staged:
            self.view = one.view
