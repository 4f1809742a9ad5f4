"""How a game's facts are stored: topics, legacy shapes, kinds.

A game's facts (``GameCreated``, ``ActionRecorded``, ...) are defined in the domain,
beside the rules (``referee.game.facts``); this module maps each to the explicit,
versioned topic it is stored under (``TOPICS``), keeps the shapes of earlier topics
that old stores hold (``LEGACY_TOPICS``, read exactly for hashing, then upcast by
``events.codec``) and names each kind for logs and exports. The facts are
re-exported here, as ``referee.game.facts.__all__`` lists them, so the event layer,
the service and the tests keep naming them from one place. Topics are explicit
strings, never derived from module paths, so moving a class never orphans stored
events. A new shape of an event gets a new topic (``.v2``) and an upcaster in
``events.codec``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from events.deferred import Deferred
from events.tournament import TOURNAMENT_KINDS, TOURNAMENT_TOPICS
from referee.contract import Player
from referee.game import facts
from referee.game.facts import *  # noqa: F403 - the game's facts, as referee.game.facts lists them
from referee.game.facts import (
    ActionRecorded,
    ActionRejected,
    ActionRetracted,
    AdjustmentRecorded,
    BranchRecorded,
    BranchResolved,
    DeckOpened,
    DeckRegistered,
    DisputeAppealed,
    DisputeOpened,
    DisputeRuled,
    EntriesMerged,
    GameCallAnswered,
    GameCreated,
    GameEnded,
    GameEvent,
    JudgeCalledToGame,
    PenaltyIssued,
    PenaltyWithdrawn,
    ResultVoided,
    RulingRequested,
    SeatWithdrawn,
    TimeLimitSet,
)

__all__ = [
    "GENESIS_HASH",
    "KINDS",
    "KIND_OF_TOPIC",
    "LEGACY_TOPICS",
    "SUPERSEDED_BY",
    "TOPICS",
    "TOPIC_OF",
    "AnyEvent",
    "GameCreatedV1",
    "GameEndedV1",
    "kind_of",
    "topic_of",
    "topics_for",
]
__all__ += facts.__all__

GENESIS_HASH = "0" * 64


class GameCreatedV1(GameEvent, frozen=True, kw_only=True):
    """``referee.GameCreated.v1``: a creation without tournament labels (read, never written)."""

    game: str
    ruleset: str
    variants: dict[str, str]
    players: tuple[Player, ...]
    options: dict[str, Any] = {}  # noqa: RUF012 - a msgspec field: msgspec copies the default per instance
    created_by: str = ""
    imported_from: str | None = None


class GameEndedV1(GameEvent, frozen=True, kw_only=True):
    """``referee.GameEnded.v1``: the two-seat result before rankings (read, never written)."""

    winner: str | None
    how: Literal["rule", "resignation", "agreement", "adjudication"]
    clause: str
    reason: str = ""
    by: str = ""


_GAME_TOPICS: dict[str, type[GameEvent]] = {
    "referee.GameCreated.v2": GameCreated,
    "referee.ActionRecorded.v1": ActionRecorded,
    "referee.ActionRejected.v1": ActionRejected,
    "referee.ActionRetracted.v1": ActionRetracted,
    "referee.GameEnded.v2": GameEnded,
    "referee.ResultVoided.v1": ResultVoided,
    "referee.DisputeOpened.v1": DisputeOpened,
    "referee.DisputeRuled.v1": DisputeRuled,
    "referee.DisputeAppealed.v1": DisputeAppealed,
    "referee.DeckRegistered.v1": DeckRegistered,
    "referee.DeckOpened.v1": DeckOpened,
    "referee.RulingRequested.v1": RulingRequested,
    "referee.AdjustmentRecorded.v1": AdjustmentRecorded,
    "referee.PenaltyIssued.v1": PenaltyIssued,
    "referee.PenaltyWithdrawn.v1": PenaltyWithdrawn,
    "referee.SeatWithdrawn.v1": SeatWithdrawn,
    "referee.EntriesMerged.v1": EntriesMerged,
    "referee.BranchRecorded.v1": BranchRecorded,
    "referee.BranchResolved.v1": BranchResolved,
    "referee.TimeLimitSet.v1": TimeLimitSet,
    "referee.JudgeCalledToGame.v1": JudgeCalledToGame,
    "referee.GameCallAnswered.v1": GameCallAnswered,
}

TOPICS: Mapping[str, type[GameEvent]] = Deferred(
    _GAME_TOPICS,
    lambda: TOURNAMENT_TOPICS,  # each event (tournament) is a stream of its own in the same store
    keys=tuple(TOURNAMENT_TOPICS),
)
"""Every topic written today, with the class that writes it (the tournament types made
when one is first read: ``events.deferred``)."""

LEGACY_TOPICS: dict[str, type[GameEvent]] = {
    "referee.GameCreated.v1": GameCreatedV1,
    "referee.GameEnded.v1": GameEndedV1,
}
"""Topics of earlier versions: read exactly with their own class (for hashing and
canonical checks), then upcast to today's class (``events.codec``)."""

SUPERSEDED_BY: dict[str, type[GameEvent]] = {
    "referee.GameCreated.v1": GameCreated,
    "referee.GameEnded.v1": GameEnded,
}
"""Each legacy topic and the class it is read as today."""

TOPIC_OF: Mapping[type[GameEvent], str] = Deferred(
    {cls: topic for topic, cls in _GAME_TOPICS.items()},
    lambda: {cls: topic for topic, cls in TOURNAMENT_TOPICS.items()},
)


def topics_for(cls: type[GameEvent]) -> list[str]:
    """Every topic stored events of ``cls`` may carry: today's and older ones."""
    return [TOPIC_OF[cls]] + [topic for topic, new in SUPERSEDED_BY.items() if new is cls]


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
    | DeckRegistered
    | DeckOpened
    | RulingRequested
    | AdjustmentRecorded
    | PenaltyIssued
    | PenaltyWithdrawn
    | SeatWithdrawn
    | EntriesMerged
    | BranchRecorded
    | BranchResolved
    | TimeLimitSet
    | JudgeCalledToGame
    | GameCallAnswered
)

_GAME_KINDS: dict[type[GameEvent], str] = {
    GameCreated: "created",
    ActionRecorded: "action",
    ActionRejected: "rejected",
    ActionRetracted: "retracted",
    GameEnded: "ended",
    ResultVoided: "voided",
    DisputeOpened: "dispute",
    DisputeRuled: "ruling",
    DisputeAppealed: "appeal",
    DeckRegistered: "deck",
    DeckOpened: "deck-opened",
    RulingRequested: "ruling-needed",
    AdjustmentRecorded: "adjustment",
    PenaltyIssued: "penalty",
    PenaltyWithdrawn: "penalty-withdrawal",  # "penalty-withdrawn" is the event stream's fact
    SeatWithdrawn: "withdrawn",
    EntriesMerged: "offline-merged",
    BranchRecorded: "branch",
    BranchResolved: "branch-resolved",
    TimeLimitSet: "time-limit",
    JudgeCalledToGame: "table-call",
    GameCallAnswered: "table-call-step",
}

KINDS: Mapping[type[GameEvent], str] = Deferred(_GAME_KINDS, lambda: TOURNAMENT_KINDS)

KIND_OF_TOPIC: Mapping[str, str] = Deferred(
    {
        **{topic: _GAME_KINDS[cls] for topic, cls in _GAME_TOPICS.items()},
        **{topic: _GAME_KINDS[cls] for topic, cls in SUPERSEDED_BY.items()},
    },
    lambda: {topic: TOURNAMENT_KINDS[cls] for topic, cls in TOURNAMENT_TOPICS.items()},
    keys=tuple(TOURNAMENT_TOPICS),
)


def topic_of(event: GameEvent) -> str:
    return TOPIC_OF[type(event)]


def kind_of(event: GameEvent) -> str:
    """Short lower-case name of an event's kind, for logs and exports."""
    return KINDS[type(event)]
