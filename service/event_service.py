"""The event service: a tournament's commands and reads, its hall and its printed pages.

One of the small services ``RefereeService`` holds. Its parts share one fold of each event
(``service.tournaments.Tournaments``: the cache, the snapshots, the lock), so they are one
class: the judge calls and players' reports (``HallFaces``), the fixes (``EventFixes``),
the round clock (``Clocks``) and the reads as people print them (``EventPrinting``). It
asks the games for a game or a game's penalty through ``service.ports.GameDoor``, and the
games ask it for their match through ``service.ports.MatchHooks``, which it satisfies.
"""

from __future__ import annotations

from service.calls import HallFaces
from service.event_fixes import EventFixes
from service.eventprint import EventPrinting
from service.hall import Clocks
from service.ports import Basis, GameDoor

__all__ = ["EventService"]


class EventService(HallFaces, EventFixes, Clocks, EventPrinting):
    """A store's events (tournaments): players, rounds, results, standings, penalties,
    corrections, the hall (calls, reports, the clock) and the printed sheets."""

    def __init__(self, basis: Basis, games: GameDoor) -> None:
        super().__init__(basis.store, basis.clock, basis.draw_seed, games)

    def close(self) -> None:
        """Close what the service opened (the event snapshots' database), and drop the
        events it holds: each cached event and the service hold each other, so at 10,000
        players some 55,000 objects (the state, its tables and pairings) would wait for the
        interpreter's last cyclic collection; dropped here, reference counting frees them."""
        self.close_snapshots()
        with self._events_lock:
            self._events_cache.clear()
