"""The one write pipeline: authorize -> decide -> seal -> append -> follow-ups.

Every write, to a game or to an event, from whichever door, goes through the same steps::

    GameWrite(ref, command, principal, action)  NewGame(command)   an event's write (@event_write)
        |                                          |                  |
    authorize   a game's: service.access.authorize     an event's: ``admit(principal, need)``
                (the principal, or the running          (``@event_write(need)``, or the
                 caller: ``admit_game``)                 write's ``authorize_write``)
                the caller: a face's (``as_caller``, ``identified``), or with none the
                command line's LOCAL, who may make any write; in a server's context
                (``serving``) none is refused: ``NoCallerError``, never LOCAL
        |                                          |                  |
    decide      the terms (``with_terms``:      referee.game         |
                If-Match, the key) checked       .decisions           |
                once (``check_terms``), then     .decide_new_game   referee.tournament.decide,
                referee.game.write.decision      (the id the key's) the version and key checked
                (a key stored: answered again)     |                  once (``check_terms``)
    plan        the follow-ups in the same transaction: a game of an event's match that
                ends updates the match (Tournaments.match_update); undoing a result the
                match counted is refused (check_game_reopened); the games an event's facts
                make void are closed as void (EV-3.9)
        |                                          |                  |
    seal        numbered and chained after the stream's head (events.store.sealed_at): a
                game's folded into the caller's view (the answer is read from it); the
                write's idempotency key on its first event (a game's ``write_key``, an
                event's ``idempotency_key``): a retry is known from the stream's own log
        |
    append      store.append_sealed: ONE transaction for the write's streams (the game's or
                the event's, the match's, new games, games closed as void) -- one write
                (the command line, imports) or many writes at once (the server's group
                commit, ``service.writer``: many games' writes; the event writes queued
                together, their commits held, each run again alone after a race)
        |
    follow-ups  the match told of its events as stored; an event's facts folded into its
                cached fold (on the server, at the held commit: dropped if it fails), a
                snapshot kept once stored (``after_commit``); the write's key marked stored

``stage`` carries a game's write up to the seal and ``stage_event`` an event's (a
``Staged``: the stream's state as the write leaves it, a ``GameView`` or an event's fold,
the sealed streams, the caller's answer, what to do once stored); ``commit`` appends
staged writes in one transaction and runs their follow-ups. The command line stages and
commits one write at a time (``Commands``, ``Tournaments``); the server's writer stages
many games' writes on its cached views and commits them together, judging again after a
race, and runs the event writes queued together with their commits held
(``commit_through``: the writer runs each write with its own commit), stored in one
transaction. A refusal at any step raises before anything is written.
"""

from __future__ import annotations

import contextlib
import functools
import gc
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from datetime import datetime
from typing import TYPE_CHECKING, Any, Generic, NoReturn, ParamSpec, Protocol, TypeVar, cast

import msgspec

from events.codec import seal_after
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
from referee.errors import StaleVersionError
from referee.game.entry import Decision, EntryCommand
from referee.game.write import decision, key_stored
from service.errors import RepeatedWriteError
from service.procedure import WRITING_TOKEN, header, summaries
from service.results import EntryResult, ResultInfo, WrittenEvents

if TYPE_CHECKING:
    from referee.game.commands import CreateGame, Write
    from service.access import Action, Game, Principal
    from service.ports import MatchHooks, MatchPlan

    class Writing(Protocol):
        """What the pipeline needs of the service: its store, clock and seed."""

        store: GameStore
        clock: Callable[[], datetime]
        draw_seed: Callable[[], int]


__all__ = [
    "EVERY",
    "NOBODY",
    "Answer",
    "Caller",
    "EventWriting",
    "GameWrite",
    "Head",
    "Need",
    "NewGame",
    "Staged",
    "Terms",
    "action_of",
    "admit",
    "admit_game",
    "admit_game_early",
    "admitted",
    "after_commit",
    "answered",
    "as_caller",
    "authorize_write",
    "check_terms",
    "commit",
    "commit_through",
    "entry_result",
    "event_write",
    "game_need",
    "held",
    "hold_after",
    "identified",
    "lock_through",
    "need",
    "no_answer",
    "party",
    "ruling_action",
    "serving",
    "stage",
    "stage_event",
    "stage_events",
    "stage_new",
    "stream_lock",
    "streams_of",
    "terms",
    "under_terms",
    "with_terms",
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


class Head(Protocol):
    """The stream a write is sealed after: a game's view (``GameView``) or an event's fold
    (``service.tournaments._Loaded``)."""

    @property
    def stream_id(self) -> str: ...

    @property
    def version(self) -> int: ...

    @property
    def last_hash(self) -> str: ...


H = TypeVar("H", bound=Head)
P = ParamSpec("P")
R = TypeVar("R")
V = TypeVar("V")


class Staged(msgspec.Struct, Generic[H]):
    """A write carried up to its seal: the stream's state (``view``: a game's view as the
    write leaves it, or an event's fold, advanced once stored), its sealed events followed
    by its follow-ups' (a match's, new games', games closed as void), the caller's answer,
    and what to run once they are stored (``follow``)."""

    view: H
    streams: list[list[GameEvent]]
    answer: Any
    follow: list[Callable[[], None]] = msgspec.field(default_factory=list)

    @property
    def stream_id(self) -> str:
        """The game's or the event's id."""
        return self.view.stream_id

    @property
    def events(self) -> list[GameEvent]:
        """The stream's own events, sealed (empty: nothing to store)."""
        return self.streams[0]


def stage(svc: Writing, view: GameView, write: GameWrite) -> Staged[GameView]:
    """Authorize, check the write's terms (``with_terms``), decide, plan the follow-ups
    and seal ``write`` on ``view`` (advanced past it); a refusal raised leaves ``view`` as
    it was."""
    command = write.command
    caller = _CALLER.get()
    if write.principal is not None:  # a face's caller, handed with the write (entries, ends)
        from service.access import authorize

        action = write.action
        if action is None and isinstance(command, EntryCommand):
            action = "check" if command.dry_run else "record"
        if action is not None:
            authorize(write.principal, action, view)
        command = write.command = party(write.principal, view, command)
    elif caller is not None:  # none: the command line's LOCAL, who may make any write
        admit_game(view, action_of(command, view))
        if caller.principal is not None and not caller.inside and caller.admitted is not EVERY:
            command = write.command = party(caller.principal, view, command)  # a face's
    base = header(view.game_id, svc.clock())
    running = _TERMS.get()  # the write's terms (``with_terms``): checked here, once a stage
    key: str | None = None
    if running is not None and running.stream in (None, view.game_id):  # not an event's
        key = running.idempotency_key
        stored: Callable[[str], int | None]
        stored = functools.partial(key_stored, view, token=base.get("token_id", ""))
        if key and not running.of_event:  # a game's write sent again: answered as the first
            number = stored(key)
            if number is not None:
                return _replayed(view, write, command, key, number, running)
            stored = _not_stored  # looked for in the whole game already
        check_terms(view.game_id, view.version, running, stored, stream="game")
    decided = decision(view, command, base)
    if key and decided.new:
        decided = msgspec.structs.replace(decided, new=_keyed(decided.new, key))
    before = view.version
    if decided.entry is None:
        return stage_events(svc, view, decided.new, decided.applied, answer=write.answer)
    staged = stage_events(svc, view, decided.new, decided.applied, answer=no_answer)
    staged.answer = entry_result(view, before, decided)  # an entry's answer is its result
    return staged


def _not_stored(key: str) -> None:
    """No event holds ``key``: what ``stage`` found looking for it before ``check_terms``."""


def _keyed(new: Sequence[GameEvent], key: str) -> list[GameEvent]:
    """``new`` with the write's idempotency key on its first event (``write_key``): a
    retry finds it in the game's log, in whichever process it reaches. A judge call's
    fact that carries the key in its own field (as stored before ``write_key``) keeps it
    there."""
    first = new[0]
    if getattr(first, "idempotency_key", None) == key:
        return list(new)
    return [msgspec.structs.replace(first, write_key=key), *new[1:]]


def _replayed(
    view: GameView, write: GameWrite, command: Write, key: str, number: int, running: Terms
) -> Staged[GameView]:
    """A game's write sent again with the key its first try stored with event ``number``
    (the answer to it was lost on the way): nothing is stored, and the answer is the first
    one, made again. The command is decided again on the game as it was before that event,
    at the time and by the token it was stored with (the decisions are pure): the same
    request decides the very events stored, to the byte, and is answered as the first
    time whatever the game did since; any other request (another command, other values)
    under the key is refused (``KeyReusedError``, HTTP 422)."""
    from referee.errors import KeyReusedError

    first = view.events[number - 1]
    before = GameView.from_events(view.events[: number - 1])
    base = header(view.game_id, first.timestamp)
    try:
        decided = decision(before, command, base)
    except (ValueError, RuntimeError) as exc:  # refused now: not what was stored
        raise KeyReusedError(view.game_id, key, number) from exc
    if decided.new:
        decided = msgspec.structs.replace(decided, new=_keyed(decided.new, key))
    sealed = sealed_after(before, decided.new)
    if not sealed or view.events[number - 1 : number - 1 + len(sealed)] != sealed:
        raise KeyReusedError(view.game_id, key, number)
    running.replayed = number
    running.checked = True
    at = before.version
    fold_written(before, sealed, decided.applied)
    answer: Any = (
        entry_result(before, at, decided)
        if decided.entry is not None
        else (write.answer or written)(before, sealed)
    )
    return Staged(view, [[]], answer)


def answered(view: GameView, write: GameWrite, key: str) -> Any | None:
    """The answer ``write`` got when the write this request's token sent with ``key`` was
    stored in ``view``'s game, made again as a retry of it is answered (``stage``), or
    ``None``: no write of the game holds the key, or it holds another request. A read: an
    offline batch asks it of each entry a table first sent live (``web.offline_api``)."""
    from referee.errors import KeyReusedError

    number = key_stored(view, key, token=WRITING_TOKEN.get())
    if number is None:
        return None
    try:
        return _replayed(view, write, write.command, key, number, Terms(None, key)).answer
    except KeyReusedError:
        return None


def party(principal: Principal, view: GameView, command: Write) -> Write:
    """The authorize stage's decision of whom a face's dispute or appeal is by (the
    command's ``by``): a player's own seat, found by their token's player id (never by a
    name another player may share), whatever the request named; the staff name the player
    (``RefusedError`` without one). Any other command is returned as it is."""
    from referee.game.commands import Appeal, OpenDispute

    if not isinstance(command, OpenDispute | Appeal):
        return command
    if principal.role == "player":
        from service.access import viewer_for

        seat = viewer_for(principal, view)
        return command if command.by == seat else msgspec.structs.replace(command, by=seat)
    if not command.by:
        from referee.errors import RefusedError

        raise RefusedError("name the player (by) who disputes or appeals")
    return command


def stage_events(
    svc: Writing,
    view: GameView,
    new: Sequence[GameEvent],
    applied: Any = None,
    *,
    answer: Answer | None = None,
) -> Staged[GameView]:
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


def stage_new(svc: Writing, new_game: NewGame) -> Staged[GameView]:
    """Decide a new game (its setup completed, seeds drawn, checked by its rules) and seal
    its first events; the answer is the game's view."""
    from referee import games
    from referee.game.decisions import decide_new_game
    from service.bounds import check_player_names

    command = new_game.command
    if _CALLER.get() is not None:  # none: the command line's LOCAL
        meta = command.meta
        admit_game(None, "create", table=meta.get("table"), event=meta.get("event"))
    if command.raw_options:  # a face's new game, not a recorded setup replayed as it was
        check_player_names(command.players)
    running = _TERMS.get()
    key = running.idempotency_key if running is not None and not running.of_event else None
    name = games.load(command.game).name
    if key and new_game.game_id is None:  # the id is the key's: a retry finds the game
        game_id = svc.store.keyed_game_id(name, f"{WRITING_TOKEN.get()}\n{key}")
        if svc.store.exists(game_id):
            assert running is not None
            return _created_again(svc, game_id, command, key, running)
    else:
        game_id = new_game.game_id or svc.store.new_game_id(name)
    new = decide_new_game(command, header(game_id, svc.clock()), svc.draw_seed)
    if key:
        new = _keyed(new, key)
    sealed = sealed_at(0, GENESIS_HASH, new)
    view = GameView.from_events(sealed)
    return Staged(view, [sealed], view)


def _created_again(
    svc: Writing, game_id: str, command: CreateGame, key: str, running: Terms
) -> Staged[GameView]:
    """A new game sent again with the key its first try was created with (its id is made
    from the key and the token): nothing is stored, and the answer is the game as its
    creation left it, as the first time. Decided again at the time it was stored, with the
    seeds it drew then, the same request makes the very events stored; another request
    under the key is refused (``KeyReusedError``, 422), and a game of that id created
    without the key (``RefusedError``: send another key)."""
    from referee import games
    from referee.errors import KeyReusedError, RefusedError
    from referee.game.decisions import decide_new_game

    stored = svc.store.load(game_id)
    created = stored.created
    if created.write_key != key or created.token != WRITING_TOKEN.get():
        raise RefusedError(f"game id {game_id} is taken; send another idempotency key")
    given = {k.replace("-", "_").lower() for k in command.options}
    seeds = iter(
        [
            created.options[f.key]
            for f in games.load(created.game).setup_fields
            if f.kind == "seed" and f.key in created.options and f.key not in given
        ]
    )
    try:
        new = decide_new_game(command, header(game_id, created.timestamp), lambda: next(seeds))
    except (ValueError, RuntimeError, StopIteration) as exc:  # not what was stored
        raise KeyReusedError(game_id, key, 1) from exc
    sealed = sealed_at(0, GENESIS_HASH, _keyed(new, key))
    if stored.events[: len(sealed)] != sealed:
        raise KeyReusedError(game_id, key, 1)
    running.replayed = 1
    running.checked = True
    view = GameView.from_events(sealed)
    return Staged(view, [[]], view)


Commit = Callable[[GameStore, Sequence["Staged[Any]"]], list[int]]
"""How staged writes are committed: ``append`` (alone) or the server's group commit."""

_COMMIT: ContextVar[Commit | None] = ContextVar("_COMMIT", default=None)


def commit(store: GameStore, staged: Sequence[Staged[Any]]) -> list[int]:
    """Append the staged writes in ONE transaction, then run their follow-ups; the
    events' positions in the store's log. A stream another writer moved meanwhile
    fails the whole commit (``ConcurrentWriteError``) and nothing is stored. On the
    server's writer thread the commit is its group's (``commit_through``)."""
    through = _COMMIT.get()
    if through is not None:
        return through(store, staged)
    ids = store.append_sealed(streams_of(staged))
    for one in staged:  # the follow-ups (``follow_up``)
        for step in one.follow:
            step()
    return ids


_AFTER: ContextVar[list[Callable[[], None]] | None] = ContextVar("_AFTER", default=None)


def after_commit(step: Callable[[], None]) -> None:
    """Run ``step`` (a cache's own work: an event's snapshot kept) once the running write's
    events are stored for good: now, unless the server's writer holds the commit of an
    event's write to commit it with the event writes around it (``hold_after``); then
    after that commit, and never if it fails."""
    held = _AFTER.get()
    if held is None:
        step()
    else:
        held.append(step)


def held() -> bool:
    """Whether the running write's commit is held (``hold_after``): what it folds into a
    cache is not stored yet, and is for its own thread alone until it is."""
    return _AFTER.get() is not None


hold_after: Callable[[list[Callable[[], None]] | None], object] = _AFTER.set
"""Hold the ``after_commit`` steps of the writes made from now on in this context in the
given list (``None``: run them at once again): the server's writer, for an event's write
whose commit it holds for the batch."""


def streams_of(staged: Sequence[Staged[Any]]) -> Sequence[Sequence[GameEvent]]:
    """The staged writes' streams that hold events, as ``append_sealed`` takes them."""
    if len(staged) == 1 and all(staged[0].streams):
        return staged[0].streams
    return [s for one in staged for s in one.streams if s]


commit_through: Callable[[Commit], object] = _COMMIT.set
"""Commit every write made from now on in this context (``commit``) through the given
commit: the server's writer runs an event's write, in its caller's context, with its
own commit (``context.run(commit_through, ...)``): held for the event writes around it,
or as a group of one."""


Lock = Callable[[GameStore, str], contextlib.AbstractContextManager[None]]
"""How a write takes a stream's write lock: the store's own (``GameStore.stream_lock``),
or the server's writer's, kept for the batch of event writes it holds."""

_LOCK: ContextVar[Lock | None] = ContextVar("_LOCK", default=None)


def stream_lock(store: GameStore, stream: str) -> contextlib.AbstractContextManager[None]:
    """``stream``'s write lock, held around a write's decision and its append
    (``GameStore.stream_lock``): on the server's writer, for an event's write whose commit
    is held, kept until the held batch is stored (``lock_through``)."""
    through = _LOCK.get()
    return store.stream_lock(stream) if through is None else through(store, stream)


lock_through: Callable[[Lock | None], object] = _LOCK.set
"""Take every stream lock of the writes made from now on in this context through the given
function (``None``: the store's own again): the server's writer, for the event writes whose
commit it holds, keeps each lock until their batch is stored, so another server process
writing the same event waits for the batch rather than deciding on the event without it."""


def follow_up(staged: Sequence[Staged[Any]]) -> None:
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


# -- an event's write ----------------------------------------------------------------


Need = tuple[str, str | None, tuple[int, ...]]
"""What an event's write asks of its writer's role: ``(action, event, tables)``, an
``EventAction`` (``run``, ``enter``, ``result``) or ``clock`` (the round clock), with the
event and tables when the rule depends on them (a slip's tables, a table's extension)."""


def need(action: str, event: str | None = None, tables: tuple[int, ...] = ()) -> Need:
    """A write's ``Need``: the event and tables named only where the rule reads them, so
    that what a face admitted before it read the body compares equal to the write's own."""
    if action in ("run", "enter") or (action == "clock" and not tables):
        return (action, None, ())
    return (action, event.strip() if event else None, tables)


def admit(principal: Principal, wanted: Need) -> None:
    """The authorize stage of an event's write, the one decision of whether ``principal``
    may make it (``service.access``: ``authorize_event``, ``authorize_clock``);
    ``AccessDeniedError`` (403) refuses it, before anything is read or decided."""
    from service.access import authorize_clock, authorize_event

    action, event, tables = wanted
    if action == "clock":
        authorize_clock(principal, table=tables[0] if tables else None, event=event)
    else:
        authorize_event(principal, action, tables=tables, event=event)  # type: ignore[arg-type]


class Caller:
    """Who a write is made by (``principal``: the token's holder over HTTP, the command
    line's ``LOCAL``; ``None``: nobody, a server's request whose caller is not known, whose
    writes are refused), what was already admitted for it (``admitted``: by a route's
    guard, before it read the body, so the authorize stage does not decide it again;
    ``EVERY`` for ``LOCAL``, who may make any write), and whether a write of it is running
    (``inside``: one made inside it is part of it)."""

    __slots__ = ("admitted", "inside", "principal")

    def __init__(
        self, principal: Principal | None, admitted: Need | None = None, *, inside: bool = False
    ) -> None:
        self.principal = principal
        self.admitted = admitted
        self.inside = inside


EVERY: Need = ("*", None, ())
"""What ``LOCAL`` is admitted to: every write (``admit(LOCAL, ...)`` always passes: the head)."""

NOBODY = Caller(None)
"""A server's caller before its request names one (``serving``): every write refused."""

_CALLER: ContextVar[Caller | None] = ContextVar("_CALLER", default=None)
_LOCAL: list[Caller] = []  # the command line's: made on first use


def serving() -> None:
    """Make this context a server's (the HTTP face's ASGI layer calls it for every request
    it takes, before anything else): ``LOCAL`` is no longer the default caller, and a write
    made here is refused (``NoCallerError``, 403) until the request's caller is known
    (``identified``) or handed to the write (``as_caller``, a ``GameWrite``'s principal).
    Without it (the command line, a test, a tool) a write with no caller is ``LOCAL``'s."""
    _CALLER.set(NOBODY)


def identified(principal: Principal) -> None:
    """The request's caller, once authenticated (``web.context.Web.principal``): the
    writes made in this context from now on are theirs, asked of by the authorize stage
    (what a guard admitted already for them is kept)."""
    current = _CALLER.get()
    if current is None or current.principal is not principal:
        _CALLER.set(Caller(principal))


def admitted(wanted: Need) -> None:
    """What a route's guard admitted for the request's caller (``identified``) before the
    body was read: the authorize stage of a write it makes does not decide it again."""
    current = _CALLER.get()
    if current is not None and current.principal is not None and not current.inside:
        _CALLER.set(Caller(current.principal, wanted))


def _nobody() -> NoReturn:
    from service.access import NoCallerError

    raise NoCallerError(
        "a write reached the server's pipeline with no caller (no token's holder was handed "
        "to it); refused, nothing stored"
    )


def _local() -> Caller:
    """The command line's caller (no face set one): ``LOCAL``, admitted to every write."""
    if not _LOCAL:
        from service.access import LOCAL

        _LOCAL.append(Caller(LOCAL, EVERY, inside=True))
    return _LOCAL[0]


def _holding(var: ContextVar[V], value: Callable[[], V], fn: Callable[P, R]) -> Callable[P, R]:
    """``fn``, run with ``var`` set to a ``value()`` of its own for the call (awaited
    through, for a coroutine function: a face's work that queues its write)."""
    import inspect  # a face's (a one-shot command never hands terms or a caller)

    if inspect.iscoroutinefunction(fn):

        async def awaited(*args: P.args, **kwargs: P.kwargs) -> Any:
            reset = var.set(value())
            try:
                return await fn(*args, **kwargs)
            finally:
                var.reset(reset)

        return cast("Callable[P, R]", awaited)

    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        reset = var.set(value())
        try:
            return fn(*args, **kwargs)
        finally:
            var.reset(reset)

    return run


def as_caller(
    principal: Principal, fn: Callable[P, R], admitted: Need | None = None
) -> Callable[P, R]:
    """``fn`` (an event's write, or a face's work that makes one) made by ``principal``:
    its authorize stage asks of that principal (``admitted``: what the face's guard already
    admitted for it), over a server's ``NOBODY`` too. Without it a write is the command
    line's, ``LOCAL``."""
    return _holding(_CALLER, lambda: Caller(principal, admitted), fn)


def authorize_write(
    action: str, event: str, tables: Callable[[], tuple[int, ...]] | None = None
) -> Principal:
    """The authorize stage for a rule that reads the write's arguments (``tables``: a slip's
    tables, read only when the caller's role needs them): ``admit`` the running write's
    principal unless it was admitted exactly this (or is ``LOCAL``); the principal."""
    caller = _CALLER.get() or (_LOCAL[0] if _LOCAL else _local())
    if caller.principal is None:
        _nobody()
    if caller.admitted is not EVERY:
        wanted = need(action, event, tables() if tables is not None else ())
        if caller.admitted != wanted:
            admit(caller.principal, wanted)
    return caller.principal


def game_need(
    action: Action, game: str | None = None, table: str | None = None, event: str | None = None
) -> Need:
    """A game's write's ``Need``: ``action`` (a ``service.access.Action``) in the game
    ``game``, or at ``table`` of ``event`` for a new game (``create``)."""
    if game is not None:
        return (f"game {action}", game, ())
    tables = (int(table),) if table and str(table).isdigit() else ()
    return (f"game {action}", f"event {event}" if event else None, tables)


def action_of(command: Write, view: GameView) -> Action:
    """What a game's command on ``view`` asks of its writer's role
    (``service.access.authorize``). A ruling on appeal, or a final one, is the head's
    (``ruling_action``). A judge call and a step on it are decided by the hall's write they
    are made inside (``call_as``, ``call_step_as``: the caller's seat or table); outside
    one, only a record's import writes them: the head's (``import``)."""
    from referee.game import commands as c

    if isinstance(command, EntryCommand):
        return "check" if command.dry_run else "record"
    if isinstance(command, c.End):
        return "adjudicate" if command.how == "adjudication" else "end"
    if isinstance(command, c.Rule):
        return ruling_action(view, command.dispute, final=command.final)
    return _ACTIONS.get(type(command).__name__, "import")


def ruling_action(view: GameView, dispute: int, *, final: bool) -> Action:
    """A ruling's ``Action`` on ``view``: the first ruling on a dispute is ``rule`` (a
    table referee's at their table); one on appeal, or a final one, ``rule_appeal``, the
    head referee's (REF-4.4). Whether there was an appeal is the game's state."""
    record = view.disputes.get(dispute)
    return "rule_appeal" if final or (record is not None and record.steps) else "rule"


_ACTIONS: dict[str, Action] = {
    "KeepRejection": "record",
    "RegisterDeck": "deck",
    "OpenDeck": "deck",
    "Retract": "retract",
    "Backup": "backup",
    "Penalize": "penalty",
    "WithdrawPenalty": "penalty",
    "SetTimeLimit": "time_limit",
    "Adjust": "adjust",
    "OpenDispute": "dispute",
    "Appeal": "appeal",
    "CallJudge": "import",
    "AnswerCall": "import",
}
"""The game commands' ``Action`` (an entry's and an end's are read from the command)."""


def admit_game(
    game: Game | None,
    action: Action,
    *,
    table: str | None = None,
    event: str | None = None,
) -> None:
    """The authorize stage of a game's write made by the running context's caller (not a
    ``GameWrite``'s principal): ``LOCAL`` (the command line) and a write inside an event's
    (a penalty's game loss, a round's games) pass; a server's context with no caller is
    refused (``NoCallerError``); a face's caller is asked ``service.access.authorize``
    (``action`` in ``game``, or at ``table`` of ``event`` for a new one) unless a guard
    admitted exactly this before the body was read (``admit_game_early``)."""
    caller = _CALLER.get()
    if caller is None or caller.inside or caller.admitted is EVERY:
        return
    principal = caller.principal
    if principal is None:
        _nobody()
    from service.access import authorize

    game_id = game.game_id if game is not None else None
    if caller.admitted == game_need(action, game_id, table, event):
        return
    authorize(principal, action, game, table=table, event=event)


def admit_game_early(
    principal: Principal,
    action: Action,
    game: Game | None = None,
    *,
    table: str | None = None,
    event: str | None = None,
) -> None:
    """A game write's authorize stage run by a face before it reads the body (a route's
    guard: 403 before 400), and kept for the request's writes (``admitted``), whose stage
    does not decide it again."""
    from service.access import authorize

    authorize(principal, action, game, table=table, event=event)
    game_id = game.game_id if game is not None else None
    admitted(game_need(action, game_id, table, event))


class Terms:
    """A write's terms while it runs: the version its writer saw (``If-Match``) and its
    idempotency key (``Idempotency-Key``); whether they were checked (``check_terms``, on
    the first load of the stream, or again under the event's lock), whether the key was
    looked for in the whole stored stream already, and whether it was stored (on the
    write's first commit)."""

    __slots__ = (
        "appended",
        "checked",
        "expected_version",
        "idempotency_key",
        "key_looked",
        "of_event",
        "replayed",
        "stamped",
        "stream",
    )

    def __init__(self, expected_version: int | None, idempotency_key: str | None) -> None:
        self.expected_version = expected_version
        self.idempotency_key = idempotency_key
        self.of_event = False  # an event's write (``event_write``): a stored key refuses (409)
        self.replayed: int | None = None  # a game's write answered again: its key's event
        self.checked = False
        self.key_looked = False  # the key was looked for in the stored stream, before its fold
        self.stamped = False
        self.appended = False  # the write stored something: the version moved by its doing
        self.stream: str | None = None  # the stream they were first checked on


_TERMS: ContextVar[Terms | None] = ContextVar("_TERMS", default=None)

terms: Callable[[], Terms | None] = _TERMS.get
"""The running write's terms (``with_terms``), if it named any."""


def with_terms(
    write: Callable[P, R], expected_version: int | None = None, idempotency_key: str | None = None
) -> Callable[P, R]:
    """``write`` made under these terms: the version of the stream its writer saw (HTTP
    ``If-Match``) and its idempotency key (HTTP ``Idempotency-Key``), checked once by
    ``check_terms`` (a stale version refuses the write, and a key already stored an event's
    write; nothing stored). An event's write (``event_write``) checks them on its first
    load of the event and stores the key with its first fact (``stage_event``); a game's
    write (any of the games' commands, or a face's work that queues one on the server's
    writer, which stages it in the caller's context) when it is staged (``stage``: again
    after a lost race, on the game as stored), the key looked for in the game: found, the
    write is answered as the first time, nothing stored (``_replayed``). A write made
    inside another keeps the outer one's terms (an event's game loss: checked on the event
    only)."""
    if expected_version is None and not idempotency_key:
        return write
    # fresh terms for each call (they note what was checked and stored), but a write made
    # inside one that named its own keeps those
    key = idempotency_key or None
    return _holding(_TERMS, lambda: _TERMS.get() or Terms(expected_version, key), write)


def under_terms(write: Callable[P, R], held: Terms) -> Callable[P, R]:
    """``write`` made under the terms ``held`` (``with_terms``'s, made by its caller): a face
    that reads them after the write, whether it was a game's write sent again and answered
    as the first time (``replayed``: HTTP ``Idempotent-Replayed``). One call per ``held``;
    a write made inside one that named its own keeps those."""
    return _holding(_TERMS, lambda: _TERMS.get() or held, write)


def event_write(
    action: str | None, *, as_who: bool = False
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Mark a write to an event, and name what it asks of its writer's role (``action``: a
    ``Need``'s action, checked by the authorize stage before the write reads anything;
    ``None``: the write admits its caller itself, from its arguments, ``authorize_write``,
    or from the event's state, the hall's ``*_as`` roles). A write made inside another (a
    call's step through ``call_as``, a slip inside a penalty) is part of the outer one:
    authorized with it, and keeping its terms. ``as_who``: the method acts as the principal
    it is given first (``who``, the hall's ``*_as``), which must be the write's caller (the
    stage's one principal; ``LOCAL``, the head, acts as anyone).

    The write's terms (If-Match, Idempotency-Key) are not its arguments: a face hands them
    over with ``with_terms``, as it hands over its caller with ``as_caller``."""
    wanted = need(action) if action is not None else None

    def mark(method: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(method)
        def write(*args: P.args, **kwargs: P.kwargs) -> R:
            caller = _CALLER.get()
            running = None
            if caller is not None and not caller.inside:  # a face's caller, not LOCAL's
                if caller.principal is None:  # a server's request that named no caller
                    _nobody()
                if as_who and kwargs.get("who", args[1] if len(args) > 1 else None) != (
                    caller.principal
                ):
                    from service.access import AccessDeniedError

                    raise AccessDeniedError(
                        f"{caller.principal.name} may act only as themselves here"
                    )
                if wanted is not None and caller.admitted not in (wanted, EVERY):
                    admit(caller.principal, wanted)  # the authorize stage: first, once
                running = _CALLER.set(Caller(caller.principal, caller.admitted, inside=True))
            # else the command line's (LOCAL, admitted to every write, inside or not), or a
            # write inside the running one, authorized with it
            held = _TERMS.get()
            if held is not None and not held.checked:  # the key refuses a retry (409)
                held.of_event = True
            try:
                return method(*args, **kwargs)
            finally:
                if running is not None:
                    _CALLER.reset(running)

        return write

    return mark


def check_terms(
    stream_id: str,
    version: int,
    terms: Terms,
    stored_key: Callable[[str], int | None],
    *,
    stream: str = "event",
) -> None:
    """The one check of a write's terms, before it decides anything: a key this writer's
    token already stored (``stored_key``: the number of the event that holds it) refuses a
    retry of a write that landed (``RepeatedWriteError``, 409: its own events moved the
    version), a version other than the stored one a stale write (``StaleVersionError``,
    412). Nothing is stored either way."""
    terms.checked = True
    if terms.stream is None:
        terms.stream = stream_id
    key = terms.idempotency_key
    if key:
        number = stored_key(key)
        terms.key_looked = True
        if number is not None:
            raise RepeatedWriteError(stream_id, key, number)
    expected = terms.expected_version
    if expected is not None and expected != version:
        raise StaleVersionError(stream_id, expected, version, stream=stream)


class EventWriting(Protocol):
    """What an event's write asks of the event service (``service.tournaments``)."""

    @property
    def store(self) -> GameStore: ...

    def clock(self) -> datetime: ...

    def void_closings(
        self, before: Any, facts: Sequence[Any]
    ) -> list[tuple[int, str, Sequence[GameEvent]]]:
        """The games ``facts`` close as void (EV-3.9), as (version, last hash, events)."""
        ...

    def event_folded(self, head: Any, sealed: Sequence[GameEvent]) -> None:
        """Fold an event's facts as stored into its cached fold (and keep a snapshot)."""
        ...


def stage_event(
    svc: EventWriting,
    head: H,
    state: Any,
    facts: Sequence[Any],
    *,
    extra: Mapping[int, Mapping[str, Any]] | None = None,
    games: Sequence[Sequence[GameEvent]] = (),
) -> Staged[H]:
    """An event's write carried up to its seal: ``facts`` (``referee.tournament``'s,
    decided on ``state``, the event at ``head``) as stored events (``extra``: stored
    fields by the fact's index; the write's idempotency key on its first fact), sealed
    after the event's head, with the new games' streams (``games``) and the games the
    facts close as void (EV-3.9) planned for the same transaction. Once stored the facts
    are folded into ``head`` and the key marked stored; the answer is the event's sealed
    events. Nothing is folded before the commit: ``head`` is the service's cached fold."""
    from events.tournament import to_stored
    from service.round_games import sealed_facts

    base = header(head.stream_id, svc.clock())  # with the writing token's id, as a game's
    extras = {i: dict(v) for i, v in extra.items()} if extra else {}
    running = _TERMS.get()
    stamping = (
        running is not None
        and bool(running.idempotency_key)
        and not running.stamped
        and bool(facts)
    )
    if stamping:
        assert running is not None
        extras.setdefault(0, {})["idempotency_key"] = running.idempotency_key
    if extras:
        new = [to_stored(fact, base, **extras.get(i, {})) for i, fact in enumerate(facts)]
        sealed = seal_after(head.version, head.last_hash, new)  # as ``sealed_at``
    else:  # as ``to_stored_all`` and ``seal_after``, a pairing's links from a template
        sealed = sealed_facts(facts, base, head.version, head.last_hash)
    streams = [sealed]
    if games:
        streams += [seal_after(0, GENESIS_HASH, stream) for stream in games]
    closings = svc.void_closings(state, facts)
    if closings:
        streams += [seal_after(*closing) for closing in closings]

    def stored() -> None:
        if running is not None:  # a write decided again after a lost race stamps anew
            running.checked = True  # what the write reads after its commit is its own doing
            running.stream = running.stream or head.stream_id
            running.stamped = running.stamped or stamping
            running.appended = True
        svc.event_folded(head, sealed)

    return Staged(head, streams, sealed, [stored])


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


@contextlib.contextmanager
def uncollected() -> Iterator[None]:
    """No cyclic garbage collection meanwhile (restored after): a posting's check, or a
    pairing of 10,000 players, makes some 200,000 to a million objects (decoded facts, the
    fold's maps, the standings, the round's tables and games) that all live until it ends,
    so the young collections their making sets off free nothing, and cost a tenth to a
    fifth of the work at 10,000 players."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
