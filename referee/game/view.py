"""What the referee's decisions read of a game: the game as folded from its facts.

The decisions (``referee.game.decisions``, ``referee.game.entries``) take any object
with this shape; the event layer's ``events.view.GameView`` (which folds a stored
stream) is the one the service hands them. A protocol, so the decisions name no
module of the event layer and load nothing of it. A view keeps its idempotency keys'
index (``KeyIndex``, filled by ``referee.game.write.key_stored``).
"""

from __future__ import annotations

from collections.abc import Sequence
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

__all__ = ["FoldedGame", "KeyIndex"]


class KeyIndex:
    """The idempotency keys stored in a game's events 1 to ``seen``: by (key, token), the
    number of the last event holding it. Kept by the game's view (``FoldedGame.keys``),
    built on its first ask and extended by each ask with the events folded since, so a
    kept view (the server's cache, the group commit's) answers a key without reading its
    whole log again; a view copied copies it (``events.view.GameView.copy``)."""

    __slots__ = ("numbers", "seen")

    def __init__(self, numbers: dict[tuple[str, str], int] | None = None, seen: int = 0) -> None:
        self.numbers = numbers if numbers is not None else {}
        self.seen = seen

    def copy(self) -> KeyIndex:
        return KeyIndex(dict(self.numbers), self.seen)

    def caught_up(self, events: Sequence[GameEvent]) -> dict[tuple[str, str], int]:
        """The keys of ``events`` (a game's, from its first), those after ``seen`` added."""
        numbers = self.numbers
        for number in range(self.seen + 1, len(events) + 1):
            event = events[number - 1]
            write_key = event.write_key  # a game's write's key, on its first event
            if isinstance(write_key, str):
                numbers[write_key, event.token] = number
            own = getattr(event, "idempotency_key", None)  # a judge call's, in its own field
            if isinstance(own, str) and own != write_key:
                numbers[own, event.token] = number
        self.seen = len(events)
        return numbers


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

    @property
    def events(self) -> list[GameEvent]:
        """The game's events, from its creation (number 1) to its last (``version``)."""

    keys: KeyIndex | None
    """The idempotency keys of its events, as last looked for (``referee.game.write.key_stored``):
    ``None`` until a key is first looked for."""

    def closed(self) -> str | None: ...
    def seat_names(self) -> dict[str, str]: ...
    def withdrawn_seats(self) -> list[str]: ...
    def event(self, number: int) -> GameEvent: ...
    def judge(self, text: str, actor: str | None = None) -> Judgement: ...
