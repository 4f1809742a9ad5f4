"""A referee over a store held in memory: a record from outside (a text record, another
tool's file) is entered again here, by the very commands a live game uses, and only
the events that come out are imported into the real store.

It builds on ``Commands`` alone, not the whole ``RefereeService``: the service imports
the importers, and the importers import only this (no circle).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from events.store import GameStore
from service.commands import Commands

__all__ = ["ScratchReferee"]


def _now() -> datetime:
    return datetime.now(UTC)


class ScratchReferee(Commands):
    """The referee's commands over a fresh in-memory store."""

    def __init__(self, clock: Callable[[], datetime] = _now) -> None:
        self.store = GameStore(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
        self.clock = clock
        self.draw_seed = lambda: 0  # records state their seeds (raw_options=False): none is drawn

    def resolve(self, ref: str) -> str:
        return ref  # games here are named by their whole ids
