"""The one write pipeline of a game: authorize -> decide -> seal -> append -> follow-ups.

Every write to a game, from whichever door, goes through the same steps::

    GameWrite(ref, command, principal, action)       NewGame(command, game_id)
        |                                                |
    authorize   service.access.authorize (a face's caller; the command line has none)
        |                                                |
    decide      referee.game.write.decision          referee.game.decisions
                (the expected version checked here,   .decide_new_game
                 once; then the entry or the command)    |
        |                                                |
    plan        the follow-ups in the same transaction: a game of an event's match that
                ends updates the match (Tournaments.match_update); undoing a result the
                match counted is refused (check_game_reopened)
        |                                                |
    seal        numbered and chained after the view's last event (events.store.sealed_after),
                and folded into the caller's view: the answer is read from it
        |
    append      store.append_sealed: ONE transaction for the game's events and its match's
                -- one write (``Commands``: the command line, imports) or many games'
                   writes at once (``service.writer``: the server's group commit)
        |
    follow-ups  the match told of its events as stored

``stage`` carries a write up to the seal (a ``Staged``: the view as the write leaves
it, the sealed streams, the caller's answer, what to do once stored); ``commit``
appends staged writes in one transaction and runs their follow-ups. The command line
stages and commits one write at a time (``Commands``); the server's writer stages
many on its cached views and commits them together, judging again after a race. A
refusal at any step raises before anything is written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, cast

import msgspec

from events.schema import (
    GENESIS_HASH,
    ActionRetracted,
    GameCreated,
    GameEnded,
    GameEvent,
    ResultVoided,
)
from events.store import GameStore, fold_written, sealed_after, sealed_at
from events.view import GameView
from referee.game.entry import Decision, EntryCommand
from referee.game.write import decision
from service.procedure import header, summaries
from service.results import EntryResult, ResultInfo, WrittenEvents

if TYPE_CHECKING:
    from typing import Protocol

    from referee.game.commands import CreateGame, Write
    from service.access import Action, Principal
    from service.ports import MatchHooks, MatchPlan

    class Writing(Protocol):
        """What the pipeline needs of the service: its store, clock and seed."""

        store: GameStore
        clock: Callable[[], datetime]
        draw_seed: Callable[[], int]


__all__ = [
    "Answer",
    "GameWrite",
    "NewGame",
    "Staged",
    "commit",
    "entry_result",
    "no_answer",
    "stage",
    "stage_events",
    "stage_new",
    "written",
]

Answer = Callable[[GameView, list[GameEvent]], Any]
"""A caller's answer from the game as the write left it and the events written."""


class GameWrite(msgspec.Struct):
    """One write to an existing game: ``command`` (an entry or a referee's command) on the
    game ``ref``; ``principal``, a face's caller, must be allowed ``action`` there (an
    entry's is ``record``, or ``check`` for a dry run); ``answer`` builds the caller's
    answer (an entry's is its ``EntryResult``; by default a command's ``WrittenEvents``)."""

    ref: str
    command: Write
    principal: Principal | None = None
    action: Action | None = None
    answer: Answer | None = None


class NewGame(msgspec.Struct):
    """A new game (``game_id`` drawn when not given)."""

    command: CreateGame
    game_id: str | None = None


class Staged(msgspec.Struct):
    """A write carried up to its seal: the game's view as the write leaves it, its
    sealed events followed by its follow-ups' (a match's), the caller's answer, and
    what to run once they are stored (``follow``)."""

    view: GameView
    streams: list[list[GameEvent]]
    answer: Any
    follow: list[Callable[[], None]] = msgspec.field(default_factory=list)

    @property
    def game_id(self) -> str:
        return self.view.game_id

    @property
    def events(self) -> list[GameEvent]:
        """The game's own events, sealed (empty: nothing to store)."""
        return self.streams[0]


def stage(svc: Writing, view: GameView, write: GameWrite) -> Staged:
    """Authorize, decide, plan the follow-ups and seal ``write`` on ``view`` (advanced
    past it); a refusal raised leaves ``view`` as it was."""
    command = write.command
    if write.principal is not None:
        from service.access import authorize  # a face's caller; the command line has none

        action = write.action
        if action is None and isinstance(command, EntryCommand):
            action = "check" if command.dry_run else "record"
        if action is not None:
            authorize(write.principal, action, view)
    decided = decision(view, command, header(view.game_id, svc.clock()))
    before = view.version
    if decided.entry is None:
        return stage_events(svc, view, decided.new, decided.applied, answer=write.answer)
    staged = stage_events(svc, view, decided.new, decided.applied, answer=no_answer)
    staged.answer = entry_result(view, before, decided)  # an entry's answer is its result
    return staged


def stage_events(
    svc: Writing,
    view: GameView,
    new: Sequence[GameEvent],
    applied: Any = None,
    *,
    answer: Answer | None = None,
) -> Staged:
    """Plan the follow-ups of appending ``new`` (decided on ``view``) and seal them after
    ``view``'s last event, folding them in; ``applied`` is the position after a recorded
    action when the decision computed it (no second ``apply``)."""
    streams: list[list[GameEvent]] = [[]]
    follow: list[Callable[[], None]] = []
    if new:
        match = _match_update(svc, view, new)
        sealed = sealed_after(view, new)
        streams = [sealed]
        if match is not None:
            others = [sealed_at(v, prev, batch) for v, prev, batch in match.batches]
            streams += others
            follow.append(lambda: match.folded(others[0]))
        fold_written(view, sealed, applied)
    result = (answer or written)(view, streams[0])
    return Staged(view, streams, result, follow)


def stage_new(svc: Writing, new_game: NewGame) -> Staged:
    """Decide a new game (its setup completed, seeds drawn, checked by its rules) and seal
    its first events; the answer is the game's view."""
    from referee import games
    from referee.game.decisions import decide_new_game

    command = new_game.command
    game_id = new_game.game_id or svc.store.new_game_id(games.load(command.game).name)
    new = decide_new_game(command, header(game_id, svc.clock()), svc.draw_seed)
    sealed = sealed_at(0, GENESIS_HASH, new)
    view = GameView.from_events(sealed)
    return Staged(view, [sealed], view)


def commit(store: GameStore, staged: Sequence[Staged]) -> list[int]:
    """Append the staged writes in ONE transaction, then run their follow-ups; the
    events' positions in the store's log. A stream another writer moved meanwhile
    fails the whole commit (``ConcurrentWriteError``) and nothing is stored."""
    ids = store.append_sealed([s for one in staged for s in one.streams if s])
    follow_up(staged)
    return ids


def follow_up(staged: Sequence[Staged]) -> None:
    """What the staged writes do once stored (a match told of its events)."""
    for one in staged:
        for step in one.follow:
            step()


def _hooks(svc: Writing) -> MatchHooks | None:
    """The event service a game's write asks about its match: the games' service holds it
    (``matches``); the server's writer hands the facade, which answers for it."""
    hooks = getattr(svc, "matches", None)
    if hooks is None and hasattr(svc, "match_update") and hasattr(svc, "check_game_reopened"):
        hooks = svc
    return cast("MatchHooks | None", hooks)


def _match_update(svc: Writing, view: GameView, new: Sequence[GameEvent]) -> MatchPlan | None:
    """What appending ``new`` writes to the match of an event's game, in the same
    transaction (a crash never leaves a finished game its match did not hear of); undoing
    the end of a game the match counted (a retraction after the end, a voided result) is
    refused (EV-8.5: the head corrects the table with ``event correct``)."""
    created: GameCreated = view.created
    if not created.meta.get("event", ""):
        return None
    hooks = _hooks(svc)
    if hooks is None:
        return None
    if view.ended is not None and any(isinstance(e, ActionRetracted | ResultVoided) for e in new):
        hooks.check_game_reopened(created)
    ended = next((e for e in new if isinstance(e, GameEnded)), None)
    return hooks.match_update(created, ended) if ended is not None else None


# -- answers ---------------------------------------------------------------------------


def no_answer(view: GameView, events: Sequence[GameEvent]) -> None:
    """No answer from the view: the caller builds its own (an entry's result, a shell that
    reads the events written)."""


def written(view: GameView, events: Sequence[GameEvent]) -> WrittenEvents:
    """The answer to a command that wrote ``events`` to the game, ``view`` as the write
    left it (``end``, ``penalty``, ...)."""
    ended = next((e for e in events if isinstance(e, GameEnded)), None)
    return WrittenEvents(
        game_id=view.game_id,
        events=[e.originator_version for e in events],
        summaries=summaries(events),
        version=view.version,
        ended=ResultInfo.of(ended, view.seats) if ended else None,
    )


def entry_result(view: GameView, before: int, decided: Decision) -> EntryResult:
    """The answer to an entry decided on version ``before`` of ``view``'s game, numbered
    as its events are (``view`` may be advanced past them, or not: a dry run)."""
    entry = decided.entry
    assert entry is not None
    new = decided.new
    ended: ResultInfo | None = None
    for number, event in enumerate(new, start=before + 1):
        if isinstance(event, GameEnded):
            if event.originator_version != number:  # not sealed: number it as stored
                event = msgspec.structs.replace(event, originator_version=number)
            ended = ResultInfo.of(event, view.seats)
    return EntryResult(
        game_id=view.game_id,
        status=entry.status,
        accepted=entry.status in ("recorded", "legal"),
        text=entry.text,
        seat=entry.seat,
        notation=entry.notation,
        violations=list(entry.violations),
        rulings=list(entry.rulings),
        event=before + 1 if new else None,
        version=before + len(new),
        ended=ended,
        stored=entry.status in ("recorded", "rejected"),  # a dry run stores nothing
    )
