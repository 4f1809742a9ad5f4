"""The seams between the application services of one ``RefereeService``.

``RefereeService`` (``service.app``) is a thin facade over small services, each a class of
its own with a typed interface (``service.game_service``, ``service.event_service``,
``service.posting_service``, ``service.room_service``, ``service.record_service``,
``service.access_service``). What they share is one ``Basis`` (the store, the clock, the
draw of seeds, the read models); what one asks of another is named here as a protocol, so a
service holds its neighbour as a typed attribute instead of finding its methods on a
shared ``self`` with ``getattr``, and no module imports another in a circle (the event
service's module imports the games' commands only through ``GameDoor``; a game's write asks
the event service for its match only through ``MatchHooks``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from events.schema import GameCreated, GameEnded, GameEvent, PenaltyLevel
    from events.store import GameStore
    from events.view import GameView
    from projections.projector import Projector
    from referee.game.commands import AnswerCall, CallJudge
    from service.results import WrittenEvents

__all__ = ["Basis", "GameDoor", "MatchHooks", "MatchPlan"]


class Basis:
    """What every application service of one ``RefereeService`` stands on: the store, the
    clock and the draw of seeds (given, so tests fix them), and the read models, made when
    first asked (a one-shot command never opens them) and shared by the games' reads and
    the records."""

    def __init__(
        self,
        store: GameStore,
        clock: Callable[[], datetime],
        draw_seed: Callable[[], int],
        projections: str | os.PathLike[str] | None = None,
    ) -> None:
        self.store = store
        self.clock_source = clock
        self.seed_source = draw_seed
        self._projections_path = projections
        self._projector: Projector | None = None

    def clock(self) -> datetime:
        """Now, by the clock given (which a test may replace while the service runs)."""
        return self.clock_source()

    def draw_seed(self) -> int:
        """A seed, by the draw given."""
        return self.seed_source()

    @property
    def projector(self) -> Projector:
        """The read models (scoreboard, ratings, audits, heads), caught up on demand."""
        if self._projector is None:
            from projections.projector import Projector

            self._projector = Projector(self.store, self._projections_path)
        return self._projector

    def close(self) -> None:
        """Close the read models if they were opened (the store is closed by its owner)."""
        if self._projector is not None:
            self._projector.close()


class GameDoor(Protocol):
    """What the event service asks of the games: a game folded by its id, the game's own
    penalty event (an event's game loss ends the game through it, EV-8.6: always with its
    reason and who gives it, never against a version), and a judge call from a game outside
    any event, kept in the game (REF-11)."""

    def load(self, ref: str) -> GameView: ...

    def penalty(
        self, ref: str, who: str, level: PenaltyLevel, infraction: str, *, reason: str, by: str
    ) -> WrittenEvents: ...

    def table_call(self, ref: str, command: CallJudge | AnswerCall) -> WrittenEvents: ...


class MatchPlan(Protocol):
    """A match's new events for one game's end (``service.tournaments.MatchUpdate``):
    ``batches`` as ``GameStore.append_with`` takes them, ``folded`` to call with the event's
    sealed events once stored."""

    @property
    def batches(self) -> list[tuple[int, str, Sequence[GameEvent]]]: ...

    @property
    def folded(self) -> Callable[[Sequence[GameEvent]], None]: ...


class MatchHooks(Protocol):
    """What a game's write asks of the event service when the game is played at an event:
    whether undoing its end is allowed (EV-8.5), and what its end writes to its match."""

    def check_game_reopened(self, created: GameCreated) -> None: ...

    def match_update(self, created: GameCreated, ended: GameEnded) -> MatchPlan | None: ...
