"""A server's writes on one thread of their own, with the writes of many tables in one commit.

Recording an entry is a few hundred microseconds of judging and one transaction;
the transaction's commit (an fsync on SQLite, a round trip under the events
table's lock on PostgreSQL) cost three quarters of the server's time, and it ran
on the event loop, so reads and live streams waited for the disk (issue 23).

``GroupWriter`` runs every write of a server process on its writer thread, in
the order they arrive, through the one write pipeline (``service.pipeline``) that
the command line's commands use: entries (``entry``), game ends and other commands
on a game (``command``) and new games (``create``) are each staged (authorized,
decided by ``referee.game``, with the version check, their follow-ups planned,
sealed), writes of one game in arrival order, each on the position the one before
left. They are then appended in ONE transaction for all of their games, each game's
events numbered after the version its first write was decided on, so the store's
per-stream numbers still refuse a game another writer moved meanwhile. Each caller is
answered only when the commit holding its write has returned:

- a refusal (a stale ``If-Match``, an unreadable entry, a finished game, a caller
  not allowed) is that caller's alone and writes nothing;
- a commit refused for a race (``ConcurrentWriteError``) is retried one game at a
  time, each of the others answered as if alone; the writes of the game that moved
  are staged once more on the game as stored (as if they had come after the other
  writer's) and committed, so only a second race, or a refusal on the new position
  (a stale ``If-Match``, an entry out of turn), reaches their callers;
- any other failure (the disk, the database) is every caller's answer, and nothing
  of the batch is stored.

Each write runs in its caller's context (the token that writes, recorded on its
events). The views staged on are the cache's copies (``CachedService.load``), and the
cache only follows the store, so a failed commit leaves nothing ahead of it. A write
that ends a game of an event's match updates the match in the same transaction (the
pipeline's follow-up): the match's events go into the same commit as the game's, one
such match update per commit, so each is planned on the match as the commit before
left it. Any other write (``call``) runs alone between two batches, and what it commits
through the pipeline is committed by the same path as a group of one
(``_Group.commit_alone``: one transaction, the follow-ups, the log's position moved on).

Event writes queued together (``event``) are run one after another with their commits
held (``_Group.hold``): each write's facts are sealed and folded into the cached event
at once, so the write and those after it decide on them, and the held streams of them
all are appended in ONE transaction (``_Group.commit_held``) before their callers are
answered. A refusal is its caller's alone and holds nothing. A write whose commit
creates streams (a new event, a round's games) or writes a game goes alone, after the
writes held before it are stored: a write after it may read those streams back from the
store. Each held write's event lock (``Tournaments._raced``: on PostgreSQL, an advisory lock
that server processes sharing the store take in turn) is kept until the batch is stored
(``_Group.lock``), so the other process waits for the batch and decides after it; a batch
waits for a lock only while it holds none, so two processes cannot deadlock. A race (a
writer that takes no lock) refuses the whole transaction: the folds are dropped and the
writes are held once more on the events as stored, then, after a second race, each run
alone (``Tournaments._raced`` decides it again); any other failure is the answer of the
writes held, nothing stored and nothing left in the cache.
"""

from __future__ import annotations

import contextvars
import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar, overload

from events.backends import TakeLock
from events.schema import GameEvent
from events.store import ConcurrentWriteError, GameStore, ReplicaWriteError
from events.view import GameView
from referee.game.commands import Command, CreateGame
from referee.game.entry import EntryCommand
from service.access import Action, Principal
from service.cached import CachedService
from service.pipeline import (
    GameWrite,
    NewGame,
    Staged,
    commit_through,
    follow_up,
    hold_after,
    lock_through,
    stage,
    stage_new,
    streams_of,
)
from service.results import EntryResult, WrittenEvents

__all__ = ["GroupWriter"]

log = logging.getLogger("referee.writer")

T = TypeVar("T")


class _Entry(NamedTuple):
    """An entry as its caller asked it, made into the pipeline's ``GameWrite`` on the
    writer thread (the caller's thread, the event loop, builds no more than this); its
    terms (``pipeline.with_terms``) are its caller's context's, which it is staged in."""

    ref: str
    text: str
    actor: str | None
    by: str
    principal: Principal | None

    def write(self) -> GameWrite:
        command = EntryCommand(text=self.text, actor=self.actor, by=self.by)
        action: Action | None = "record" if self.principal is not None else None
        return GameWrite(self.ref, command, self.principal, action)


@dataclass(slots=True)
class _Item:
    """A queued write to be staged through the pipeline (``service.pipeline``), the
    future its caller awaits, and the caller's context (the writing token,
    ``service.procedure.WRITING_TOKEN``; the write's terms, ``pipeline.with_terms``), in
    which it is staged."""

    write: GameWrite | NewGame | _Entry
    future: Future[Any] = field(default_factory=Future)
    context: contextvars.Context = field(default_factory=contextvars.copy_context)


@dataclass(slots=True)
class _Call:
    """A write run as a whole on the writer thread (``call``), or an event's write whose
    commit is held for the event writes around it (``event``: ``held``)."""

    fn: Callable[[], Any]
    future: Future[Any] = field(default_factory=Future)
    context: contextvars.Context = field(default_factory=contextvars.copy_context)
    held: bool = False


@dataclass(slots=True)
class _Held:
    """An event's write run with its commit held (``_Group.hold``): the streams it would
    have appended, its ``after_commit`` steps (of those and of a commit it made alone, when
    it was the first to commit: a pairing), and its outcome, told once they are stored."""

    item: _Call
    streams: list[Sequence[GameEvent]] = field(default_factory=list)
    after: list[Callable[[], None]] = field(default_factory=list)
    result: Any = None
    error: BaseException | None = None

    def answer(self) -> None:
        """Run its ``after_commit`` steps (its commits are stored), then answer its caller."""
        for step in self.after:
            step()
        if self.error is not None:
            self.item.future.set_exception(self.error)
        else:
            self.item.future.set_result(self.result)


class _Alone(BaseException):
    """Raised into an event's write whose commit creates a stream (a new event, a round's
    games), met after writes of the batch were held: it stops, and is run again alone once
    they are stored (see ``_Group.held_commit``)."""


class _Wait(BaseException):
    """Raised into an event's write whose event's lock another process holds while the
    batch holds the locks of other events: it stops before deciding, and is held again once
    the batch is stored and its locks let go, waiting for the lock then holding no other
    (see ``_Group.lock``)."""


_KEPT = nullcontext()
"""A lock the batch already holds: leaving the write lets go of nothing."""


_STOP = object()

FOLLOW_WITHIN = 0.02
"""Seconds a busy writer may judge on its own last commit without reading the log again
(see ``_Group._follow``)."""


class GroupWriter:
    """The writer thread of a server: ``entry``, ``command``, ``create`` and ``call``
    queue a write and return a future answered after its commit. ``max_batch`` bounds
    the writes of one commit."""

    def __init__(self, svc: CachedService, *, max_batch: int = 256) -> None:
        self.svc = svc
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="writer", daemon=True)
        self._thread.start()
        self.commits = 0  # transactions that held grouped writes (for tests and benchmarks)
        self.entries = 0  # the grouped writes they held: entries, commands, new games
        self.races = 0  # held commits of event writes lost to another writer, held again
        # The writer follows the store's log (one query per commit, whoever wrote): the
        # games in ``fresh`` have cached views folded up to ``position``, so a batch judges
        # on them with no query per game.
        self.position: int | None = None
        self.fresh: set[str] = set()
        self.ids: dict[str, str] = {}  # a ref callers gave -> its game's id (ids never change)
        # Whether the log held nobody's events but ours up to our last commit, and when
        # the log was last read: a busy writer skips a read for a while (``_follow``).
        self.trusted = False
        self.read_at = 0.0

    def entry(
        self,
        ref: str,
        text: str,
        *,
        actor: str | None = None,
        by: str = "",
        principal: Principal | None = None,
    ) -> Future[EntryResult]:
        """Record an entry as ``Commands.record`` does, in the next group commit (under the
        terms its caller runs with: ``pipeline.with_terms``)."""
        item = _Item(_Entry(ref, text, actor, by, principal))
        self._queue.put(item)
        future: Future[EntryResult] = item.future
        return future

    @overload
    def command(
        self,
        ref: str,
        command: Command,
        answer: None = None,
        *,
        action: Action | None = None,
        principal: Principal | None = None,
    ) -> Future[WrittenEvents]: ...

    @overload
    def command(
        self,
        ref: str,
        command: Command,
        answer: Callable[[GameView, list[GameEvent]], T],
        *,
        action: Action | None = None,
        principal: Principal | None = None,
    ) -> Future[T]: ...

    def command(
        self,
        ref: str,
        command: Command,
        answer: Callable[[GameView, list[GameEvent]], Any] | None = None,
        *,
        action: Action | None = None,
        principal: Principal | None = None,
    ) -> Future[Any]:
        """Carry out a referee's command on a game (``referee.game.commands``: an end, an
        adjudication, ...) as ``Commands`` does, in the next group commit: ``principal``
        must be allowed ``action`` in the game. The answer is ``answer(view, written)``:
        the game as the write left it (read it, keep nothing of it) and the events
        written, as ``Commands._carry_out`` hands them to its answer; by default the events written
        (``WrittenEvents``, as ``Commands.end`` answers)."""
        item = _Item(GameWrite(ref, command, principal, action, answer))
        self._queue.put(item)
        return item.future

    def create(self, command: CreateGame, *, game_id: str | None = None) -> Future[GameView]:
        """Start a game as ``Commands.create_game`` does, in the next group commit; the
        answer is the new game's view (the caller's own copy)."""
        item = _Item(NewGame(command, game_id))
        self._queue.put(item)
        future: Future[GameView] = item.future
        return future

    def call(self, fn: Callable[[], T]) -> Future[T]:
        """Run any other write on the writer thread, alone, after the writes before it;
        what it commits through the pipeline is committed as a group of one."""
        item = _Call(fn)
        self._queue.put(item)
        return item.future

    def event(self, fn: Callable[[], T]) -> Future[T]:
        """Run an event's write (one that writes only through the pipeline: nothing past
        it that a second run would write twice) on the writer thread, after the writes
        before it; its commit joins those of the event writes queued with it, in ONE
        transaction (``_Group.hold``); answered once that commit has returned."""
        item = _Call(fn, held=True)
        self._queue.put(item)
        return item.future

    def close(self) -> None:
        """Finish what is queued, then stop the thread."""
        if self._thread.is_alive():
            self._queue.put(_STOP)
            self._thread.join(30)

    # -- the writer thread -----------------------------------------------------
    def _work(self) -> None:
        while True:
            try:
                batch, waited = [self._queue.get_nowait()], False
            except queue.Empty:
                batch, waited = [self._queue.get()], True
            while len(batch) < self.max_batch:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            stopping = any(item is _STOP for item in batch)
            try:
                self._batch([item for item in batch if item is not _STOP], waited)
            except BaseException as exc:
                log.exception("the writer failed a batch")
                self.position, self.trusted = None, False
                self.fresh.clear()
                for item in batch:
                    if item is not _STOP and not item.future.done():
                        item.future.set_exception(exc)
            if stopping:
                return

    def _batch(self, batch: list[_Item | _Call], waited: bool) -> None:
        group = _Group(self, waited)
        try:
            for item in batch:
                if isinstance(item, _Call):
                    group.flush()  # the games' writes before it, committed
                    if item.held:
                        group.hold(item)
                    else:
                        group.commit_held()
                        group.run(item)
                else:
                    group.commit_held()  # the event writes before it, committed
                    group.add(item)
            group.commit_held()
            group.flush()
        except BaseException:
            group.drop_held()  # nothing folded ahead of a commit that never came stays
            raise


class _Group:
    """The writes of one commit: their games' views as judged so far, their sealed
    events by game (with any match's), and the callers waiting for the commit."""

    def __init__(self, writer: GroupWriter, waited: bool = True, *, again: bool = False) -> None:
        self.writer = writer
        self.waited = waited  # the writer waited for this batch: it was idle
        self.again = again  # writes judged again after a race: a second race is the caller's
        self.svc = writer.svc
        self.views: dict[str, GameView] = {}
        self.events: dict[str, list[GameEvent]] = {}
        # by game: the follow-ups' streams (the match its end updates) and what to tell
        # them once stored (``Staged.follow``)
        self.matches: dict[str, Staged[GameView]] = {}
        self.waiting: list[tuple[Future[Any], Any, str, _Item]] = []
        self.followed = False
        # event writes whose commit is held for one transaction (``hold``), and the one
        # running
        self.held: list[_Held] = []
        self.holding: _Held | None = None
        # the write locks of the streams the held writes decided on, kept until they are
        # stored (``lock``)
        self.locks: AbstractContextManager[TakeLock] | None = None
        self.take: TakeLock | None = None
        self.locked: set[str] = set()

    def _follow(self) -> None:
        """Once per commit: read which games the store's log says moved since the writer
        last looked (any writer's events, ours included; their numbers, not the events);
        a fresh game whose cached view lacks an event is no longer fresh: it is read again
        (``CachedService.load``) when next written. Another writer's events are rare
        (each table writes through one server), and the log's events, the other server's
        half of the writes with two of them, are not read and decoded for nothing."""
        if self.followed:
            return
        self.followed = True
        writer, store = self.writer, self.svc.store
        now = time.monotonic()
        if writer.trusted and not self.waited and now - writer.read_at < FOLLOW_WITHIN:
            # Busy, and nobody else wrote up to our last commit, which ended a moment ago:
            # judge on it without a round trip (half the writer's wait on PostgreSQL). A
            # write by another process in that moment makes its game's commit refused
            # (409, as a write landing between a read and a commit always did), and the
            # log is read again after it.
            return
        writer.read_at, writer.trusted = now, False
        if writer.position is None:
            writer.position = store.recorder.max_notification_id() or 0
            writer.fresh.clear()
            return
        try:
            for position, game_id, number in store.log_heads(after=writer.position):
                writer.position = max(writer.position, position)
                if game_id in writer.fresh and not self.svc.holds(game_id, number):
                    writer.fresh.discard(game_id)
        except Exception:
            writer.position = None  # start afresh: every game is read again
            writer.fresh.clear()
            raise

    def _view(self, ref: str) -> GameView:
        self._follow()
        ids = self.writer.ids
        game_id = ids.get(ref)
        if game_id is not None:
            if game_id in self.views:
                return self.views[game_id]
            if game_id in self.writer.fresh:  # cached and folded up to the log's end
                cached = self.svc.cached_copy(game_id)
                if cached is not None:
                    self.views[game_id] = cached
                    return cached
        view = self.svc.load(ref)  # the cache's copy, caught up with the store
        if len(ids) > 100_000:
            ids.clear()
        ids[ref] = view.game_id
        return self.views.setdefault(view.game_id, view)

    # -- staging ----------------------------------------------------------------
    def _stage(self, item: _Item) -> Staged[GameView]:
        """``item`` staged through the pipeline (authorized, decided, its follow-ups
        planned, sealed and folded into the group's view of its game), or the caller's
        refusal (raised). A write to an event's game waits for a match update already
        in this commit: it is staged after that commit, on the match as it leaves it."""
        write = item.write
        if isinstance(write, _Entry):
            write = item.write = write.write()
        if isinstance(write, NewGame):
            staged = item.context.run(stage_new, self.svc, write)
            if not staged.events:  # created already, by this key: answered as then
                return staged
            game_id = staged.stream_id
            self.writer.ids[game_id] = game_id
            self.views[game_id] = staged.view
            staged.answer = staged.view.copy()  # the caller's own; the group's is cached
            return staged
        view = self._view(write.ref)
        if self.matches and view.created.meta.get("event"):
            self.flush()
            view = self._view(write.ref)
        before = view.version
        try:
            return item.context.run(stage, self.svc, view, write)
        except BaseException:
            if view.version != before:  # never stage on a half-folded view
                self.views.pop(view.game_id, None)  # nor cache it: the log brings it
                self.writer.fresh.discard(view.game_id)
                self.flush()
            raise

    def add(self, item: _Item, *, started: bool = False) -> None:
        if not started and not item.future.set_running_or_notify_cancel():
            return  # the caller went away before its turn
        try:
            staged = self._stage(item)
        except BaseException as exc:
            item.future.set_exception(exc)
            return
        if not staged.events:  # a dry run, or a write sent again with its key: answered...
            if staged.stream_id in self.events:  # ...on this commit's writes: once stored
                self.waiting.append((item.future, staged.answer, staged.stream_id, item))
            else:
                item.future.set_result(staged.answer)  # nothing to commit
            return
        game_id = staged.stream_id
        self.events.setdefault(game_id, []).extend(staged.events)
        if len(staged.streams) > 1 or staged.follow:
            self.matches[game_id] = staged
        self.waiting.append((item.future, staged.answer, game_id, item))

    # -- a write of its own -----------------------------------------------------------
    def run(self, item: _Call, *, started: bool = False) -> None:
        """Run ``item`` (any write, or an event's that could not be held) alone, after the
        writes before it were committed: what it commits through the pipeline
        (``pipeline.commit``) is committed here, as a group of one (``commit_alone``)."""
        if not started and not item.future.set_running_or_notify_cancel():
            return
        try:
            item.context.run(_alone, self.commit_alone)  # the item's context alone
            item.future.set_result(item.context.run(item.fn))
        except BaseException as exc:
            item.future.set_exception(exc)
        finally:
            # it may have written past the pipeline (a side table, a token): read the log
            self.followed = self.writer.trusted = False

    def commit_alone(self, store: GameStore, staged: Sequence[Staged[Any]]) -> list[int]:
        """Commit ``staged`` (an event's write: the event's facts, its new games, the games
        it closes as void) in ONE transaction, as the group commit does, and run its
        follow-ups. A race (``ConcurrentWriteError``) is the write's own: it decides again
        on the event as stored (``Tournaments._raced``)."""
        one = staged[0] if len(staged) == 1 else None
        streams = one.streams if one is not None and all(one.streams) else streams_of(staged)
        self.writer.commits += 1
        self.writer.entries += 1
        self.writer.trusted = False
        ids = store.append_sealed(streams)
        # the games it wrote (closed as void, created, a penalty's game) are read from the
        # store when next written: the writer trusts only the views its groups adopted
        fresh = self.writer.fresh
        for stream in streams:
            fresh.discard(stream[0].originator_id)
        self._stored(ids, staged, {})
        return ids

    # -- event writes, their commits held for one transaction --------------------------
    def hold(self, item: _Call, *, started: bool = False) -> None:
        """Run ``item``, an event's write, with its commits held (``held_commit``): its
        facts are sealed and folded into the cached event at once (the write, and those
        after it in the batch, decide on them), and stored with the writes held around it
        in ONE transaction (``commit_held``), which answers its caller. A write whose
        commit creates a stream (a new event; pairing a round, which makes its games) is
        committed alone, before anything else is held: a write after it may read those
        streams from the store (a slip's games), which a held commit would not yet hold;
        so is a game's write made inside an event's, which may read its game back."""
        if not started and not item.future.set_running_or_notify_cancel():
            return
        held = self.holding = _Held(item)
        try:
            item.context.run(_holding, self.held_commit, held.after, self.lock)
            held.result = item.context.run(item.fn)
        except (_Alone, _Wait) as stop:
            self.holding = None
            # its own folds are undone (with those of the writes held on the same events,
            # which the store brings back once they are committed)
            self.svc.forget_streams(_ids(held.streams))
            self.commit_held()
            if isinstance(stop, _Alone):
                self.run(item, started=True)
            else:
                self.hold(item, started=True)  # holding no lock now: it waits for its own
            return
        except BaseException as exc:
            held.error = exc
        finally:
            self.holding = None
        self.held.append(held)

    def lock(self, store: GameStore, stream: str) -> AbstractContextManager[None]:
        """A held write's lock on ``stream`` (``pipeline.stream_lock``), kept until the
        batch's held commit (``commit_held``) has stored it: another server process
        writing the same event waits for the batch, then reads it and decides on it,
        rather than deciding on the event without it and winning the race for its next
        version. The batch waits for a lock only while it holds none (it cannot deadlock
        with another process doing the same); one another process holds while the batch
        holds others stops the write (``_Wait``), which is held again, first, once the
        batch is stored."""
        if stream in self.locked:
            return _KEPT
        if self.take is None:
            locks = store.stream_locks()
            take = locks.__enter__()
            try:
                take(stream, True)  # a wait too long: the write's own StoreBusyError
            except BaseException:
                locks.__exit__(None, None, None)
                raise
            self.locks, self.take = locks, take
        elif not self.take(stream, False):
            raise _Wait
        self.locked.add(stream)
        return _KEPT

    def unlock(self) -> None:
        """Let go of the held writes' locks (their commit returned, or failed)."""
        locks = self.locks
        if locks is None:
            return
        self.locks = self.take = None
        self.locked = set()
        try:
            locks.__exit__(None, None, None)
        except Exception as exc:  # the lock's connection lost: the server let go too
            log.warning("letting go of event locks failed: %s", exc)

    def held_commit(self, store: GameStore, staged: Sequence[Staged[Any]]) -> list[int]:
        """The running event write's commit, held (``pipeline.commit`` on the writer thread,
        ``hold``): its streams kept for ``commit_held`` and its follow-ups run now (its
        facts folded into the cached event; a snapshot waits for the commit); no positions
        yet (nobody reads them). A commit that creates a stream, or a game's write (a call
        kept in a game outside any event: the write reads the game back from the store,
        ``Calls.table_call``), is stored at once when nothing is held yet, else the write is
        stopped (``_Alone``) and run alone."""
        held = self.holding
        if held is None:  # not from ``hold``'s own write: as a group of one
            return self.commit_alone(store, staged)
        streams = streams_of(staged)
        if _alone_only(staged, streams):
            if self.held or held.streams:
                raise _Alone
            return self.commit_alone(store, staged)
        held.streams.extend(streams)
        follow_up(staged)
        return []

    def commit_held(self, *, again: bool = False) -> None:
        """Store the held event writes' streams in ONE transaction, let go of their events'
        locks (``lock``) and answer their callers. A race (a writer that takes no lock, a
        one-shot command, stored first: ``ConcurrentWriteError``) undoes the folds and holds
        the writes from the first that wrote once more, on the events as stored; a second
        race, or a replica's stream (``ReplicaWriteError``), runs each of them alone (a
        race then is that write's own, decided again by ``Tournaments._raced``). Any other
        failure is the answer of those writes and of the ones after them (decided on their
        folds), nothing stored and nothing cached."""
        held, self.held = self.held, []
        first, writes, streams = len(held), 0, []
        for n, one in enumerate(held):
            if one.streams:
                first, writes = min(first, n), writes + 1
                streams += one.streams
        if not writes:
            self.unlock()
            for one in held:
                one.answer()
            return
        writer = self.writer
        writer.commits += 1
        writer.entries += writes
        writer.trusted = False
        self.followed = False
        try:
            ids = self.svc.store.append_sealed(streams)
        except (ConcurrentWriteError, ReplicaWriteError) as exc:
            self._undo(streams)
            for one in held[:first]:
                one.answer()
            if again or isinstance(exc, ReplicaWriteError):
                self.unlock()
                for one in held[first:]:
                    self.run(one.item, started=True)
                return
            writer.races += 1
            for one in held[first:]:  # their locks still held: nobody else moves them
                self.hold(one.item, started=True)
            self.commit_held(again=True)
        except BaseException as exc:
            self.unlock()
            log.warning("a held commit of %d event writes failed: %s", len(held), exc)
            self._undo(streams)
            for one in held[:first]:
                one.answer()
            for one in held[first:]:  # folds dropped (``_undo``), nothing kept of them
                one.item.future.set_exception(exc)
        else:
            self.unlock()  # stored: another process may read it and write after it
            self._stored(ids, (), {})
            writer.fresh.difference_update(_ids(streams))  # read from the store when next
            for one in held:
                one.answer()  # its snapshots kept, of what is now stored

    def drop_held(self) -> None:
        """Forget what the held writes folded (the batch failed before their commit)."""
        held, self.held = self.held, []
        if self.holding is not None:
            held.append(self.holding)
        self.unlock()
        self._undo([stream for one in held for stream in one.streams])

    def _undo(self, streams: Sequence[Sequence[GameEvent]]) -> None:
        """Nothing of a failed held commit stays cached: its streams are read again."""
        ids = _ids(streams)
        self.writer.fresh.difference_update(ids)
        self.svc.forget_streams(ids)

    # -- committing ------------------------------------------------------------
    def _streams(self, game_id: str) -> list[list[GameEvent]]:
        match = self.matches.get(game_id)
        return [self.events[game_id], *(match.streams[1:] if match is not None else ())]

    def flush(self) -> None:
        """Commit what was staged, answer its callers, and cache the views as stored."""
        if not self.waiting:
            self._clear()
            return
        waiting, views, matches = self.waiting, self.views, self.matches
        streams = {game_id: self._streams(game_id) for game_id in self.events}
        self.followed = False
        self._clear()
        store = self.svc.store
        self.writer.commits += 1
        self.writer.entries += len(waiting)
        self.writer.trusted = False  # until this commit is known to follow the last read
        try:
            ids = store.append_sealed([s for unit in streams.values() for s in unit])
        except (ConcurrentWriteError, ReplicaWriteError):
            # A game moved under us (another process, the command line), or one is a
            # replica's (REF-9.1, refused to its callers alone): each game alone;
            # the writes of a game that moved are staged once more on it as stored, as if
            # they had arrived after it moved, and only a second race is their callers'.
            failed: dict[str, BaseException] = {}
            for game_id, unit in streams.items():
                try:
                    store.append_sealed(unit)
                except BaseException as exc:
                    failed[game_id] = exc
                else:
                    if game_id in matches:
                        follow_up([matches[game_id]])
            retry: list[_Item] = []
            for future, result, game_id, item in waiting:
                problem = failed.get(game_id)
                if problem is None:
                    future.set_result(result)
                elif isinstance(problem, ConcurrentWriteError) and not self.again:
                    retry.append(item)
                else:
                    future.set_exception(problem)
            if retry:
                self.writer.fresh.difference_update(failed)
                again = _Group(self.writer, again=True)  # reads the log first
                for item in retry:
                    again.add(item, started=True)
                again.flush()
        except BaseException as exc:
            log.warning("a group commit of %d writes failed: %s", len(waiting), exc)
            for future, _, _, _ in waiting:
                future.set_exception(exc)
        else:
            self._stored(ids, list(matches.values()), views)
            for future, result, _, _ in waiting:
                future.set_result(result)

    def _stored(
        self, ids: list[int], staged: Sequence[Staged[Any]], views: dict[str, GameView]
    ) -> None:
        """After a commit (a group's, or an event write's alone): the log's position
        moved on, the follow-ups run, and the views judged on adopted by the cache."""
        position = self.writer.position
        if position is not None and sorted(ids) == list(
            range(position + 1, position + 1 + len(ids))
        ):
            # Nobody wrote between the log's last read and this commit: the next read
            # starts after it rather than reading back what was just written.
            self.writer.position = position + len(ids)
            self.writer.trusted = True
        for one in staged:  # the follow-ups (``pipeline.follow_up``)
            for step in one.follow:
                step()
        for view in views.values():
            self.svc.adopt(view)  # as stored: the next batch folds nothing again
        if len(self.writer.fresh) > 100_000:
            self.writer.fresh.clear()
        self.writer.fresh.update(views)

    def _clear(self) -> None:
        self.views, self.events, self.matches, self.waiting = {}, {}, {}, []


def _alone_only(staged: Sequence[Staged[Any]], streams: Sequence[Sequence[GameEvent]]) -> bool:
    """Whether a commit is not to be held: it writes a game (``Staged[GameView]``) or
    creates a stream (its first event is number 1)."""
    for one in staged:
        if isinstance(one.view, GameView):
            return True
    for stream in streams:  # noqa: SIM110 - a loop, not a generator's call per write
        if stream and stream[0].originator_version == 1:
            return True
    return False


def _ids(streams: Sequence[Sequence[GameEvent]]) -> set[str]:
    return {stream[0].originator_id for stream in streams if stream}


def _alone(commit: Callable[[GameStore, Sequence[Staged[Any]]], list[int]]) -> None:
    """In a write's context: its commits made through ``commit``, its ``after_commit``
    steps run at once."""
    commit_through(commit)
    hold_after(None)
    lock_through(None)


def _holding(
    commit: Callable[[GameStore, Sequence[Staged[Any]]], list[int]],
    after: list[Callable[[], None]],
    lock: Callable[[GameStore, str], AbstractContextManager[None]],
) -> None:
    """In an event write's context: its commits held (``commit``), its ``after_commit``
    steps kept in ``after`` and its streams' locks (``lock``) until they are stored."""
    commit_through(commit)
    hold_after(after)
    lock_through(lock)
