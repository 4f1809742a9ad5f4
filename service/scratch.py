"""A referee over one game held in memory: a record from outside (a text record, another
tool's file) is entered again here, by the very commands a live game uses (the same
shells around the same decisions, ``service.decide``), and only the events that come
out are imported into the real store.

No store is involved: ``load`` gives the game in memory, and an append numbers, chains
and seals the decided events (``events.codec.seal_after``) and folds them into it. It
builds on ``Commands`` alone, not the whole ``RefereeService``: the service imports the
importers, and the importers import only this (no circle).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from events.codec import encode, seal_after
from events.schema import GENESIS_HASH, TOPIC_OF, ActionRecorded, GameEvent
from events.view import GameView
from service.commands import Commands
from service.errors import GameNotFoundError

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

    def _start(self, new: Sequence[GameEvent]) -> GameView:
        self.view = GameView.from_events(seal_after(0, GENESIS_HASH, new))
        return self.view

    def _append_to_game(
        self, view: GameView, new: Sequence[GameEvent], *, applied: Any = None
    ) -> list[GameEvent]:
        sealed = seal_after(view.version, view.last_hash, new)
        for event in sealed:
            if applied is not None and type(event) is ActionRecorded:
                view.events.append(event)  # the state after it is already computed
                view.states.append(applied)
                view.standing.append(event)
            else:
                view.fold(event)
        return sealed
