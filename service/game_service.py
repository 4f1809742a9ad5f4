"""The game service: every command and read of one game (``Commands`` and ``Queries``).

One of the small services ``RefereeService`` holds (``service.ports`` names the seams). A
game played at an event asks the event service about its match through ``matches``
(``service.ports.MatchHooks``), set by whoever composes the two; alone (no events), a game's
end writes only the game.
"""

from __future__ import annotations

from service.commands import Commands
from service.ports import Basis, MatchHooks
from service.queries import Queries

__all__ = ["GameService"]


class GameService(Commands, Queries):
    """A store's games: starting them, their entries, corrections, rulings and penalties
    (``Commands``), and their positions, logs, replays and lists (``Queries``)."""

    def __init__(self, basis: Basis, *, matches: MatchHooks | None = None) -> None:
        self.basis = basis
        self.store = basis.store
        self.clock = basis.clock
        self.draw_seed = basis.draw_seed
        self.matches = matches
