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

__all__ = [
    "GENESIS_HASH",
    "KINDS",
    "KIND_OF_TOPIC",
    "LEGACY_TOPICS",
    "SUPERSEDED_BY",
    "TOPICS",
    "TOPIC_OF",
    "GameCreatedV1",
    "GameEndedV1",
    "kind_of",
    "topic_of",
    "topics_for",
]
__all__ += facts.__all__

GENESIS_HASH = "0" * 64


class GameCreatedV1(facts.GameEvent, frozen=True, kw_only=True):
    """``referee.GameCreated.v1``: a creation without tournament labels (read, never written)."""

    game: str
    ruleset: str
    variants: dict[str, str]
    players: tuple[Player, ...]
    options: dict[str, Any] = {}  # noqa: RUF012 - a msgspec field: msgspec copies the default per instance
    created_by: str = ""
    imported_from: str | None = None


class GameEndedV1(facts.GameEvent, frozen=True, kw_only=True):
    """``referee.GameEnded.v1``: the two-seat result before rankings (read, never written)."""

    winner: str | None
    how: Literal["rule", "resignation", "agreement", "adjudication"]
    clause: str
    reason: str = ""
    by: str = ""


_GAME: dict[type[facts.GameEvent], tuple[str, str]] = {
    facts.GameCreated: ("referee.GameCreated.v2", "created"),
    facts.ActionRecorded: ("referee.ActionRecorded.v1", "action"),
    facts.ActionRejected: ("referee.ActionRejected.v1", "rejected"),
    facts.ActionRetracted: ("referee.ActionRetracted.v1", "retracted"),
    facts.GameEnded: ("referee.GameEnded.v2", "ended"),
    facts.ResultVoided: ("referee.ResultVoided.v1", "voided"),
    facts.DisputeOpened: ("referee.DisputeOpened.v1", "dispute"),
    facts.DisputeRuled: ("referee.DisputeRuled.v1", "ruling"),
    facts.DisputeAppealed: ("referee.DisputeAppealed.v1", "appeal"),
    facts.DeckRegistered: ("referee.DeckRegistered.v1", "deck"),
    facts.DeckOpened: ("referee.DeckOpened.v1", "deck-opened"),
    facts.RulingRequested: ("referee.RulingRequested.v1", "ruling-needed"),
    facts.AdjustmentRecorded: ("referee.AdjustmentRecorded.v1", "adjustment"),
    facts.PenaltyIssued: ("referee.PenaltyIssued.v1", "penalty"),
    # "penalty-withdrawn" is the event stream's fact
    facts.PenaltyWithdrawn: ("referee.PenaltyWithdrawn.v1", "penalty-withdrawal"),
    facts.SeatWithdrawn: ("referee.SeatWithdrawn.v1", "withdrawn"),
    facts.EntriesMerged: ("referee.EntriesMerged.v1", "offline-merged"),
    facts.BranchRecorded: ("referee.BranchRecorded.v1", "branch"),
    facts.BranchResolved: ("referee.BranchResolved.v1", "branch-resolved"),
    facts.TimeLimitSet: ("referee.TimeLimitSet.v1", "time-limit"),
    facts.JudgeCalledToGame: ("referee.JudgeCalledToGame.v1", "table-call"),
    facts.GameCallAnswered: ("referee.GameCallAnswered.v1", "table-call-step"),
}
"""Each game event type, once: the topic it is written under today and its kind's name (for
logs and exports); ``TOPICS``, ``TOPIC_OF``, ``KINDS`` and ``KIND_OF_TOPIC`` are read from it."""
_GAME_TOPICS = {topic: cls for cls, (topic, _) in _GAME.items()}

TOPICS: Mapping[str, type[facts.GameEvent]] = Deferred(
    _GAME_TOPICS,
    lambda: TOURNAMENT_TOPICS,  # each event (tournament) is a stream of its own in the same store
    keys=tuple(TOURNAMENT_TOPICS),
)
"""Every topic written today, with the class that writes it (the tournament types made
when one is first read: ``events.deferred``)."""

LEGACY_TOPICS: dict[str, type[facts.GameEvent]] = {
    "referee.GameCreated.v1": GameCreatedV1,
    "referee.GameEnded.v1": GameEndedV1,
}
"""Topics of earlier versions: read exactly with their own class (for hashing and
canonical checks), then upcast to today's class (``events.codec``)."""

SUPERSEDED_BY: dict[str, type[facts.GameEvent]] = {
    "referee.GameCreated.v1": facts.GameCreated,
    "referee.GameEnded.v1": facts.GameEnded,
}
"""Each legacy topic and the class it is read as today."""

TOPIC_OF: Mapping[type[facts.GameEvent], str] = Deferred(
    {cls: topic for cls, (topic, _) in _GAME.items()},
    lambda: {cls: topic for topic, cls in TOURNAMENT_TOPICS.items()},
)


def topics_for(cls: type[facts.GameEvent]) -> list[str]:
    """Every topic stored events of ``cls`` may carry: today's and older ones."""
    return [TOPIC_OF[cls]] + [topic for topic, new in SUPERSEDED_BY.items() if new is cls]


_GAME_KINDS = {cls: kind for cls, (_, kind) in _GAME.items()}

KINDS: Mapping[type[facts.GameEvent], str] = Deferred(_GAME_KINDS, lambda: TOURNAMENT_KINDS)

KIND_OF_TOPIC: Mapping[str, str] = Deferred(
    {
        **{topic: _GAME_KINDS[cls] for topic, cls in _GAME_TOPICS.items()},
        **{topic: _GAME_KINDS[cls] for topic, cls in SUPERSEDED_BY.items()},
    },
    lambda: {topic: TOURNAMENT_KINDS[cls] for topic, cls in TOURNAMENT_TOPICS.items()},
    keys=tuple(TOURNAMENT_TOPICS),
)


def topic_of(event: facts.GameEvent) -> str:
    return TOPIC_OF[type(event)]


def kind_of(event: facts.GameEvent) -> str:
    """Short lower-case name of an event's kind, for logs and exports."""
    return KINDS[type(event)]
