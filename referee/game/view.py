"""What the referee's decisions read of a game: the game as folded from its facts.

The decisions (``referee.game.decisions``, ``referee.game.entries``) take any object
with this shape; the event layer's ``events.view.GameView`` (which folds a stored
stream) is the one the service hands them. A protocol, so the decisions name no
module of the event layer and load nothing of it.
"""

from __future__ import annotations

from typing import Any, Protocol

from referee.contract import GameRules, Setup
from referee.game.facts import (
    ActionRecorded,
    Dispute,
    GameCreated,
    GameEnded,
    GameEvent,
    PenaltyIssued,
    RulingRequested,
    SeatWithdrawn,
)
from referee.procedure import Judgement

__all__ = ["FoldedGame"]


class FoldedGame(Protocol):
    """A game folded from its facts: its creation, rules and setup, the standing line of
    play and its positions, the result in force, disputes, rulings awaited (by the
    event that asked), seats that withdrew (with the action count when they did) and
    the penalties in force."""

    @property
    def created(self) -> GameCreated: ...
    @property
    def rules(self) -> GameRules[Any, Any]: ...
    @property
    def setup(self) -> Setup: ...
    @property
    def standing(self) -> list[ActionRecorded]: ...
    @property
    def ended(self) -> GameEnded | None: ...
    @property
    def disputes(self) -> dict[int, Dispute]: ...
    @property
    def pending(self) -> dict[int, RulingRequested]: ...
    @property
    def withdrawn(self) -> list[tuple[SeatWithdrawn, int]]: ...
    @property
    def penalties(self) -> list[PenaltyIssued]: ...
    @property
    def time_limit(self) -> int | None:
        """The latest ``TimeLimitSet``'s minutes, ``None`` before one."""

    @property
    def game_id(self) -> str: ...
    @property
    def game(self) -> str: ...
    @property
    def version(self) -> int:
        """The number of the game's last fact."""

    @property
    def state(self) -> Any:
        """The position after the standing actions (and their adjustments)."""

    @property
    def ply(self) -> int:
        """The number of standing actions."""

    @property
    def seats(self) -> tuple[str, ...]: ...

    def closed(self) -> str | None: ...
    def seat_names(self) -> dict[str, str]: ...
    def withdrawn_seats(self) -> list[str]: ...
    def event(self, number: int) -> GameEvent: ...
    def judge(self, text: str, actor: str | None = None) -> Judgement: ...
