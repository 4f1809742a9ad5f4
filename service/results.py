"""The typed answers of the application layer: what every face prints or sends.

msgspec Structs, so the command line's ``--json`` and the HTTP API encode the same
values, and the OpenAPI document is generated from these very types. A record's
integrity report (``GameReport``), the penalty levels and a folded game (``GameView``, what
``RefereeService.load`` gives) are the event layer's types, named here so that the faces
take every answer's type from the application layer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import msgspec

from projections.rows import GameLine, GameQuery
from referee.contract import SetupField, VariantOption
from referee.outcomes import Placing
from referee.verdicts import RulingNeeded, Violation

if TYPE_CHECKING:
    from events.integrity import GameReport
    from events.schema import GameEnded, PenaltyLevel
    from events.view import GameView

__all__ = [
    "AwaitedRuling",
    "CorrectionResult",
    "EntryResult",
    "GameInfo",
    "GameQuery",
    "GameReport",
    "GameView",
    "LegalActions",
    "PenaltyLevel",
    "PerftCount",
    "PositionLegal",
    "PositionView",
    "ReplayFrame",
    "ResultInfo",
    "WrittenEvents",
]


class ResultInfo(msgspec.Struct, kw_only=True):
    """A game's result as recorded."""

    result: str
    winner: str | None
    how: str
    clause: str
    reason: str
    ranking: list[Placing]
    tiebreak: str = ""
    event: int

    @classmethod
    def of(cls, ended: GameEnded, seats: tuple[str, ...]) -> ResultInfo:
        return cls(
            result=ended.result,
            winner=ended.winner,
            how=ended.how,
            clause=ended.clause,
            reason=ended.reason,
            ranking=list(ended.placings(seats)),
            tiebreak=ended.tiebreak,
            event=ended.originator_version,
        )

    def line(self) -> str:
        """``red wins (resignation, REF-3.2: blue resigned)``."""
        if self.how == "void":  # closed by its event, counting for nothing (EV-3.9)
            who = "void"
        elif self.how != "rule" and self.winner is None and len(self.ranking) <= 2:
            who = "draw"
        elif len(self.ranking) > 2:
            who = f"ranking {self.result}"
        else:
            who = "draw" if self.winner is None else f"{self.winner} wins"
        return f"{who} ({self.how}, {self.clause}{': ' + self.reason if self.reason else ''})"


class EntryResult(msgspec.Struct, kw_only=True):
    """What became of one entry: recorded, rejected (kept as evidence), or only checked."""

    game_id: str
    status: Literal["recorded", "rejected", "legal", "illegal"]
    accepted: bool
    text: str
    seat: str | None
    notation: str | None
    violations: list[Violation]
    rulings: list[RulingNeeded] = []
    event: int | None = None
    version: int
    ended: ResultInfo | None = None
    stored: bool = True


class WrittenEvents(msgspec.Struct, kw_only=True):
    """Events a command appended, each as its number and a one-line summary."""

    game_id: str
    events: list[int]
    summaries: list[str]
    version: int
    ended: ResultInfo | None = None


class CorrectionResult(WrittenEvents, kw_only=True):
    """Actions taken back (one for a retraction, several for a backup)."""

    retracted: list[int]


class PendingRuling(msgspec.Struct, kw_only=True):
    event: int
    action_event: int
    seat: str
    rulings: list[RulingNeeded]


class PositionView(msgspec.Struct, kw_only=True):
    """A position as one viewer may see it: after ``at`` standing actions."""

    game_id: str
    game: str
    ruleset: str
    variants: dict[str, str]
    players: dict[str, str]
    viewer: str
    at: int
    standing_actions: int
    version: int
    last_action: str | None
    to_act: list[str]
    to_move: str | None
    result: str
    ended: ResultInfo | None
    pending_rulings: list[PendingRuling]
    withdrawn: list[str]
    position: dict[str, Any]
    board: str


class AwaitedRuling(msgspec.Struct, kw_only=True):
    """A ruling the game waits for (REF-6.2): nothing but the adjustment that carries it out
    may be entered, and only a referee may enter it."""

    event: int
    """The ``RulingRequested`` event that asked."""
    action_event: int
    """The entry whose effect needs the ruling."""
    seat: str
    """The seat whose entry carried the effect."""
    card: str
    text: str
    """The effect as printed."""
    clause: str
    """The game's clause that hands the effect to the referee."""
    answered_by: str = "the referee"
    message: str
    """One line for people: what is awaited, from whom, and how to enter it."""
    entries: list[str]
    """What may be entered now: the adjustment commands (``adjust ... --card NAME``)."""


class LegalActions(msgspec.Struct, kw_only=True):
    """What may be entered now: the game's legal entries, or, while a ruling is awaited
    (``awaited``), no entry of the game but only the adjustment that answers it."""

    game_id: str
    to_act: list[str]
    seat: str | None
    to_move: str | None
    actions: list[str]
    awaited: AwaitedRuling | None = None


class PositionLegal(msgspec.Struct, kw_only=True):
    """The legal entries of a position given as a string (no stored game): ``referee legal
    --position TEXT``. ``position`` is the string as the game writes it."""

    game: str
    position: str
    to_act: list[str]
    seat: str | None
    to_move: str | None
    actions: list[str]


class PerftCount(msgspec.Struct, kw_only=True):
    """How many lines of play ``depth`` actions long a position allows (perft: the leaves
    of its game tree; a finished game has none below it), and how many follow each first
    entry (``divide``, by its notation), for comparing with another implementation's."""

    game: str
    position: str
    depth: int
    nodes: int
    divide: dict[str, int]


class ReplayFrame(msgspec.Struct, kw_only=True):
    """One step of a replay: the event shown, the position after it, what happened
    before it (rejections, corrections), and the disputes raised on it (wherever in
    the record they were raised)."""

    event: int
    ply: int
    what: str
    notes: list[str]
    position: dict[str, Any]
    board: str
    disputes: list[str] = []  # the disputes of this action, its rulings and appeals


class GameInfo(msgspec.Struct, kw_only=True):
    """A game type as the faces present it: seats, rulesets, switches and setup options."""

    name: str
    title: str
    seats: list[str]
    min_players: int
    max_players: int
    rulesets: list[str]
    variants: list[VariantOption]
    setup_fields: list[SetupField]
    takes_decks: bool


class GameRow(GameLine, kw_only=True):
    """One line of the games list."""

    cursor: int = 0
    """Where this game stands in the store's order: ``--before`` it lists the next page."""


def __getattr__(name: str) -> Any:
    """``GameReport`` and ``PenaltyLevel``, the event layer's, loaded when first asked for:
    the answers of an entry or a position (what ``service.remote`` decodes) need no store."""
    if name == "GameReport":
        from events.integrity import GameReport

        return GameReport
    if name == "PenaltyLevel":
        from events.schema import PenaltyLevel

        return PenaltyLevel
    if name == "GameView":  # a game as the service folds it (RefereeService.load)
        from events.view import GameView

        return GameView
    raise AttributeError(f"module 'service.results' has no attribute {name!r}")
