"""Folding a game's events into its current view. Pure: no storage here.

Replay only applies: entries were checked when they were recorded, so each
``ActionRecorded`` goes straight through the game's ``apply`` and each
adjustment through ``apply_change``. The view keeps a stack of positions, one
per standing action (an adjustment replaces the position of the action it
follows); retractions pop it, and a result reached by rule is voided when the
action that reached it is retracted.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING, Any

import msgspec

from events.kinds import Dispute, ReplayError, kind_of_event
from events.schema import (
    GENESIS_HASH,
    ActionRecorded,
    GameCreated,
    GameEnded,
    GameEvent,
    PenaltyIssued,
    RulingRequested,
    SeatWithdrawn,
)
from referee import games
from referee.contract import GameRules, Setup
from referee.procedure import Judgement, judge

if TYPE_CHECKING:
    from referee.game.view import KeyIndex

__all__ = ["ActionCache", "Dispute", "GameView", "ReplayError", "action_cache"]


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
        self.seen: dict[str, Any] = {}
        """Actions decoded so far, by notation (a loop may read it in place of a call)."""

    def __call__(self, event: ActionRecorded) -> Any:
        action = self.seen.get(event.notation)
        if action is None:
            action = self._decode(event.action)
            if len(self.seen) >= _ACTION_CACHE_LIMIT:
                self.seen.clear()
            self.seen[event.notation] = action
        return action


@cache
def action_cache(game: str) -> ActionCache:
    return ActionCache(game)


class GameView:
    """A game folded from its events: setup, the standing line of play, result.

    Besides the positions, it keeps what the referee procedure needs: disputes,
    rulings still awaited (``pending``, by the event that asked), seats that
    withdrew and the position count when they did, and penalties."""

    __slots__ = (
        "_decode",
        "created",
        "disputes",
        "ended",
        "events",
        "keys",
        "penalties",
        "pending",
        "rules",
        "setup",
        "standing",
        "states",
        "time_limit",
        "withdrawn",
    )

    def __init__(self, created: GameCreated) -> None:
        self.created = created
        self.rules: GameRules[Any, Any] = games.load(created.game)
        self.setup = Setup(
            players=created.players,
            ruleset=created.ruleset,
            variants=self.rules.recorded_variants(created.variants),
            options=dict(created.options),
        )
        self.events: list[GameEvent] = [created]
        self.states: list[Any] = [self.rules.start(self.setup, recorded=True)]
        self.standing: list[ActionRecorded] = []
        self.ended: GameEnded | None = None
        self.disputes: dict[int, Dispute] = {}
        self.pending: dict[int, RulingRequested] = {}
        self.withdrawn: list[tuple[SeatWithdrawn, int]] = []
        self.penalties: list[PenaltyIssued] = []
        self.time_limit: int | None = None  # set by a TimeLimitSet (else the created label)
        self._decode = action_cache(created.game)
        self.keys: KeyIndex | None = None  # its events' idempotency keys, once looked for

    @classmethod
    def from_events(cls, events: Iterable[GameEvent]) -> GameView:
        iterator = iter(events)
        first = next(iterator, None)
        if not isinstance(first, GameCreated):
            raise ReplayError("a game's stream must start with its creation event")
        view = cls(first)
        # ``fold`` inlined for actions (a load folds every event of the game, and most are
        # actions): one frame less per action, and the action cache read in place.
        events, states, standing = view.events, view.states, view.standing
        apply, decode, seen = view.rules.apply, view._decode, view._decode.seen
        for event in iterator:
            if isinstance(event, ActionRecorded):
                events.append(event)
                action = seen.get(event.notation)
                states.append(
                    apply(states[-1], decode(event) if action is None else action, event.actor)
                )
                standing.append(event)
            else:
                view.fold(event)
        return view

    def copy(self) -> GameView:
        """A copy that can be folded further without touching this view (a server keeps
        one folded view per game and hands each request its own copy). Positions and
        events are immutable and shared; the lists and dicts that folding grows are new."""
        clone = GameView.__new__(GameView)
        clone.created, clone.rules, clone.setup = self.created, self.rules, self.setup
        clone._decode, clone.ended = self._decode, self.ended
        clone.events, clone.states = list(self.events), list(self.states)
        clone.standing, clone.withdrawn = list(self.standing), list(self.withdrawn)
        clone.penalties, clone.pending = list(self.penalties), dict(self.pending)
        clone.time_limit = self.time_limit
        clone.keys = self.keys.copy() if self.keys is not None else None
        clone.disputes = {
            n: Dispute(number=d.number, event=d.event, opened=d.opened, steps=list(d.steps))
            for n, d in self.disputes.items()
        }
        return clone

    # -- folding -----------------------------------------------------------
    def fold(self, event: GameEvent) -> None:
        """Apply one stored event to the view (no rule checks)."""
        self.events.append(event)
        if isinstance(event, ActionRecorded):  # the common case first: one check, no assert
            self.states.append(self.rules.apply(self.states[-1], self._decode(event), event.actor))
            self.standing.append(event)
            return
        kind = kind_of_event(event)
        if kind is None or kind.fold is None:
            raise ReplayError(f"cannot fold event of type {type(event).__name__}")
        kind.fold(self, event)  # each event type's fold is registered in events.kinds

    # -- reading -----------------------------------------------------------
    @property
    def game_id(self) -> str:
        return self.created.originator_id

    @property
    def stream_id(self) -> str:
        """The stream a write is sealed after (``service.pipeline.Head``): the game's id."""
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

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(p.seat for p in self.created.players)

    def state_at(self, ply: int) -> Any:
        """The position after ``ply`` standing actions (and their adjustments)."""
        if not 0 <= ply < len(self.states):
            raise IndexError(
                f"the game has {len(self.states) - 1} standing actions; no position {ply}"
            )
        return self.states[ply]

    @property
    def result(self) -> str:
        return self.ended.result if self.ended else "*"

    def closed(self) -> str | None:
        """How the game ended, in words (``red by resignation``), or ``None`` while open."""
        if self.ended is None:
            return None
        if self.ended.how == "void":  # closed by its event (EV-3.9)
            return f"closed as void by its event, {self.ended.clause}: {self.ended.reason}"
        return f"{self.ended.result} by {self.ended.how}"

    def seat_names(self) -> dict[str, str]:
        return {p.seat: p.name for p in self.created.players}

    def withdrawn_seats(self) -> list[str]:
        return [w.seat for w, _ in self.withdrawn]

    def event(self, number: int) -> GameEvent:
        if not 1 <= number <= len(self.events):
            raise IndexError(f"the game has events 1 to {len(self.events)}; no event {number}")
        return self.events[number - 1]

    def judge(self, text: str, actor: str | None = None) -> Judgement:
        """The referee procedure on ``text`` as the next entry (see ``referee.procedure``)."""
        return judge(self.rules, self.state, text, actor, closed=self.closed())
