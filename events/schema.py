"""Domain events of a game's stream: msgspec Structs with explicit, versioned topics.

Every event carries its game id, its 1-based number in the game's stream, a UTC
time, the hash of the previous event of the same game and its own hash, so that
an edited, deleted or reordered event is detectable (see ``events.integrity``).
Topics are explicit strings, never derived from module paths, so moving a class
never orphans stored events. A new shape of an event gets a new topic (``.v2``)
and an upcaster in ``events.codec``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

import msgspec

from referee.core import Player, Violation

GENESIS_HASH = "0" * 64

EndHow = Literal["rule", "resignation", "agreement", "adjudication"]
RulingDecision = Literal["uphold", "overturn"]
RulingLevel = Literal["referee", "appeal", "final"]


class GameEvent(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Fields common to every event of a game."""

    originator_id: str
    originator_version: int
    timestamp: datetime
    prev_hash: str
    hash: str = ""


class GameCreated(GameEvent, frozen=True, kw_only=True):
    """A game was set up: game type, pinned ruleset, resolved variants, players."""

    game: str
    ruleset: str
    variants: dict[str, str]
    players: tuple[Player, ...]
    options: dict[str, Any] = {}
    created_by: str = ""
    imported_from: str | None = None


class ActionRecorded(GameEvent, frozen=True, kw_only=True):
    """A checked, legal action became part of the game.

    ``seq`` is the action's number in the standing line of play (a retracted
    action's number is reused by the next action); ``action`` is the game's
    action Struct as JSON, decoded at replay with the game's own type.
    """

    seq: int
    actor: str
    action: msgspec.Raw
    notation: str
    recorded_by: str = ""


class ActionRejected(GameEvent, frozen=True, kw_only=True):
    """An attempted action that broke a clause; evidence only, the position is unchanged.

    ``seq`` is the number the action would have had.
    """

    seq: int
    actor: str | None
    text: str
    violations: tuple[Violation, ...]
    recorded_by: str = ""


class ActionRetracted(GameEvent, frozen=True, kw_only=True):
    """A correction: the standing action ``seq`` (stream event ``event``) is taken back."""

    seq: int
    event: int
    reason: str
    by: str = ""


class GameEnded(GameEvent, frozen=True, kw_only=True):
    """The game has a result: ``winner`` seat, or ``None`` for a draw."""

    winner: str | None
    how: EndHow
    clause: str
    reason: str = ""
    by: str = ""

    @property
    def result(self) -> str:
        return self.winner if self.winner is not None else "draw"


class ResultVoided(GameEvent, frozen=True, kw_only=True):
    """A declared result (stream event ``event``) set aside by a ruling; the game is open again."""

    event: int
    reason: str
    by: str = ""


class DisputeOpened(GameEvent, frozen=True, kw_only=True):
    """A player disputes the referee's handling of stream event ``event``."""

    dispute: int
    event: int
    by: str
    claim: str


class DisputeRuled(GameEvent, frozen=True, kw_only=True):
    """A ruling on a dispute: by the table referee, on appeal, or final (head referee)."""

    dispute: int
    decision: RulingDecision
    level: RulingLevel
    clause: str
    reason: str
    by: str


class DisputeAppealed(GameEvent, frozen=True, kw_only=True):
    """A party appeals the latest ruling on a dispute to a higher referee."""

    dispute: int
    by: str
    grounds: str


TOPICS: dict[str, type[GameEvent]] = {
    "referee.GameCreated.v1": GameCreated,
    "referee.ActionRecorded.v1": ActionRecorded,
    "referee.ActionRejected.v1": ActionRejected,
    "referee.ActionRetracted.v1": ActionRetracted,
    "referee.GameEnded.v1": GameEnded,
    "referee.ResultVoided.v1": ResultVoided,
    "referee.DisputeOpened.v1": DisputeOpened,
    "referee.DisputeRuled.v1": DisputeRuled,
    "referee.DisputeAppealed.v1": DisputeAppealed,
}
TOPIC_OF: dict[type[GameEvent], str] = {cls: topic for topic, cls in TOPICS.items()}

AnyEvent = (
    GameCreated
    | ActionRecorded
    | ActionRejected
    | ActionRetracted
    | GameEnded
    | ResultVoided
    | DisputeOpened
    | DisputeRuled
    | DisputeAppealed
)


def topic_of(event: GameEvent) -> str:
    return TOPIC_OF[type(event)]


def kind_of(event: GameEvent) -> str:
    """Short lower-case name of an event's kind, for logs and exports."""
    return {
        GameCreated: "created",
        ActionRecorded: "action",
        ActionRejected: "rejected",
        ActionRetracted: "retracted",
        GameEnded: "ended",
        ResultVoided: "voided",
        DisputeOpened: "dispute",
        DisputeRuled: "ruling",
        DisputeAppealed: "appeal",
    }[type(event)]
