"""Folding a game's events into its current view. Pure: no storage here.

Replay only applies: actions were checked when they were recorded, so each
``ActionRecorded`` goes straight through the game's ``apply``. Retractions pop
the standing line; a result reached by rule is voided when the action that
reached it is retracted.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

import msgspec

from events.schema import (
    GENESIS_HASH,
    ActionRecorded,
    ActionRejected,
    ActionRetracted,
    DisputeAppealed,
    DisputeOpened,
    DisputeRuled,
    GameCreated,
    GameEnded,
    GameEvent,
    ResultVoided,
)
from referee import games
from referee.core import GameRules, Setup, Verdict
from referee.errors import ActionSyntaxError


class ReplayError(ValueError):
    """A stream that cannot be folded: it does not start with a creation, or an
    event refers to something that is not there."""


@cache
def action_decoder(game: str) -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(games.load(game).action_type)


_ACTION_CACHE_LIMIT = 200_000


class ActionCache:
    """Decoded actions by canonical notation, so replay decodes each distinct action once.

    Safe because notation round-trips exactly (``parse(notation(a)) == a``) and
    actions are immutable; the stored JSON is decoded on a miss, so the cache
    never invents an action."""

    def __init__(self, game: str) -> None:
        self._decode = action_decoder(game).decode
        self._seen: dict[str, Any] = {}

    def __call__(self, event: ActionRecorded) -> Any:
        action = self._seen.get(event.notation)
        if action is None:
            action = self._decode(event.action)
            if len(self._seen) >= _ACTION_CACHE_LIMIT:
                self._seen.clear()
            self._seen[event.notation] = action
        return action


@cache
def action_cache(game: str) -> ActionCache:
    return ActionCache(game)


class Dispute(msgspec.Struct, kw_only=True):
    """A dispute as the stream tells it: the claim and its rulings and appeals in order."""

    number: int
    event: int
    opened: DisputeOpened
    steps: list[DisputeRuled | DisputeAppealed] = []

    @property
    def status(self) -> str:
        if not self.steps:
            return "open"
        last = self.steps[-1]
        if isinstance(last, DisputeAppealed):
            return "appealed"
        return "closed" if last.level == "final" else f"ruled ({last.decision})"

    @property
    def final(self) -> bool:
        last = self.steps[-1] if self.steps else None
        return isinstance(last, DisputeRuled) and last.level == "final"


class GameView:
    """A game folded from its events: setup, the standing line of play, result."""

    __slots__ = (
        "_decode",
        "created",
        "disputes",
        "ended",
        "events",
        "rules",
        "setup",
        "standing",
        "states",
    )

    def __init__(self, created: GameCreated) -> None:
        self.created = created
        self.rules: GameRules[Any, Any] = games.load(created.game)
        self.setup = Setup(
            players=created.players,
            ruleset=created.ruleset,
            variants=dict(created.variants),
            options=dict(created.options),
        )
        self.events: list[GameEvent] = [created]
        self.states: list[Any] = [self.rules.initial_state(self.setup)]
        self.standing: list[ActionRecorded] = []
        self.ended: GameEnded | None = None
        self.disputes: dict[int, Dispute] = {}
        self._decode = action_cache(created.game)

    @classmethod
    def from_events(cls, events: Iterable[GameEvent]) -> GameView:
        iterator = iter(events)
        first = next(iterator, None)
        if not isinstance(first, GameCreated):
            raise ReplayError("a game's stream must start with its creation event")
        view = cls(first)
        for event in iterator:
            view.fold(event)
        return view

    # -- folding -----------------------------------------------------------
    def fold(self, event: GameEvent) -> None:
        """Apply one stored event to the view (no rule checks)."""
        self.events.append(event)
        if type(event) is ActionRecorded:
            self.states.append(self.rules.apply(self.states[-1], self._decode(event)))
            self.standing.append(event)
        elif type(event) is ActionRejected:
            pass
        elif type(event) is ActionRetracted:
            if not self.standing or self.standing[-1].originator_version != event.event:
                raise ReplayError(
                    f"event {event.originator_version} retracts event {event.event}, "
                    "which is not the latest standing action"
                )
            self.standing.pop()
            self.states.pop()
            if self.ended is not None and self.ended.how == "rule":
                self.ended = None
        elif type(event) is GameEnded:
            self.ended = event
        elif type(event) is ResultVoided:
            if self.ended is None or self.ended.originator_version != event.event:
                raise ReplayError(
                    f"event {event.originator_version} voids event {event.event}, which is not the "
                    "result in force"
                )
            self.ended = None
        elif type(event) is DisputeOpened:
            self.disputes[event.dispute] = Dispute(
                number=event.dispute, event=event.event, opened=event
            )
        elif type(event) is DisputeRuled or type(event) is DisputeAppealed:
            dispute = self.disputes.get(event.dispute)
            if dispute is None:
                raise ReplayError(f"event {event.originator_version} names unknown dispute")
            dispute.steps.append(event)
        else:
            raise ReplayError(f"cannot fold event of type {type(event).__name__}")

    # -- reading -----------------------------------------------------------
    @property
    def game_id(self) -> str:
        return self.created.originator_id

    @property
    def game(self) -> str:
        return self.created.game

    @property
    def version(self) -> int:
        return self.events[-1].originator_version

    @property
    def last_hash(self) -> str:
        return self.events[-1].hash if self.events else GENESIS_HASH

    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def ply(self) -> int:
        """Number of standing actions."""
        return len(self.standing)

    def state_at(self, ply: int) -> Any:
        """The position after ``ply`` standing actions (negative counts from the end)."""
        if ply < 0:
            ply += len(self.states)
        if not 0 <= ply < len(self.states):
            raise IndexError(f"the game has {len(self.states) - 1} standing actions; no position {ply}")
        return self.states[ply]

    @property
    def result(self) -> str:
        return self.ended.result if self.ended else "*"

    def seat_names(self) -> dict[str, str]:
        return {p.seat: p.name for p in self.created.players}

    def event(self, number: int) -> GameEvent:
        if not 1 <= number <= len(self.events):
            raise IndexError(f"the game has events 1 to {len(self.events)}; no event {number}")
        return self.events[number - 1]


def judge(view: GameView, text: str, actor: str | None = None) -> tuple[Any, Verdict]:
    """Check ``text`` as the next action of ``view``: (the action or ``None``, verdict).

    Procedure clauses come first (a closed game, the wrong seat), then the
    game's notation, then its rules.
    """
    rules = view.rules
    if view.ended is not None:
        return None, Verdict.illegal(
            "REF-1.3",
            f"the game is over ({view.ended.result} by {view.ended.how}); no action can be recorded",
        )
    try:
        action = rules.parse(text)
    except ActionSyntaxError as exc:
        return None, Verdict.illegal(exc.clause, f"cannot read {text!r}: {exc.reason}")
    to_move = rules.to_move(view.state)
    if actor is not None and actor != to_move:
        return action, Verdict.illegal(
            "REF-1.2", f"it is {to_move}'s turn, not {actor}'s; {text!r} was not recorded"
        )
    return action, rules.check(view.state, action)
