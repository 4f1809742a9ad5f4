"""A server's writes on one thread of their own, with the entries of many tables in one commit.

Recording an entry is a few hundred microseconds of judging and one transaction;
the transaction's commit (an fsync on SQLite, a round trip under the events
table's lock on PostgreSQL) cost three quarters of the server's time, and it ran
on the event loop, so reads and live streams waited for the disk (issue 23).

``GroupWriter`` runs every write of a server process on its writer thread, in
the order they arrive. Entries that arrive together, from any number of tables,
are each judged as ``Commands.record`` judges them (``decide_entry``; entries of
one game in arrival order, each on the position the one before left), then
appended in ONE transaction for all of their games, each game's events numbered
after the version its first entry was judged on, so the store's per-stream
numbers still refuse a game another writer moved meanwhile. Each caller is
answered only when the commit holding its entry has returned:

- a refusal (a stale ``If-Match``, an unreadable entry, a finished game) is that
  caller's alone and writes nothing;
- a commit refused for a race (``ConcurrentWriteError``) is retried one game at a
  time, so only the callers of the game that moved hear of it (409), each of the
  others is answered as if alone;
- any other failure (the disk, the database) is every caller's answer, and nothing
  of the batch is stored.

Each write runs in its caller's context (the token that writes, recorded on its
events). The views judged on are the cache's copies (``CachedService.load``), and the cache
only follows the store, so a failed commit leaves nothing ahead of it. An entry
that ends a game of an event's match is appended alone, after what was decided
before it, through ``Commands.record`` (its match is updated in the same
transaction). Any other write (``call``) runs alone between two batches.
"""

from __future__ import annotations

import contextvars
import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, TypeVar

from events.schema import GameEvent
from events.store import ConcurrentWriteError, fold_written, sealed_after
from events.view import GameView
from service.access import Principal, authorize
from service.cached import CachedService
from service.entries import EntryCommand, decide_entry, ends_event_game
from service.results import EntryResult

__all__ = ["GroupWriter"]

log = logging.getLogger("referee.writer")

T = TypeVar("T")


@dataclass(slots=True)
class _Entry:
    ref: str
    text: str
    actor: str | None
    by: str
    expected_version: int | None
    principal: Principal | None
    future: Future[EntryResult] = field(default_factory=Future)
    # the submitter's context (the writing token, ``service.procedure.WRITING_TOKEN``)
    context: contextvars.Context = field(default_factory=contextvars.copy_context)


@dataclass(slots=True)
class _Call:
    fn: Callable[[], Any]
    future: Future[Any] = field(default_factory=Future)
    context: contextvars.Context = field(default_factory=contextvars.copy_context)


_STOP = object()


class GroupWriter:
    """The writer thread of a server: ``entry`` and ``call`` queue a write and return a
    future answered after its commit. ``max_batch`` bounds the entries of one commit."""

    def __init__(self, svc: CachedService, *, max_batch: int = 256) -> None:
        self.svc = svc
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="writer", daemon=True)
        self._thread.start()
        self.commits = 0  # transactions that held entries (for tests and benchmarks)
        self.entries = 0
        # The writer follows the store's log (one query per commit, whoever wrote): the
        # games in ``fresh`` have cached views folded up to ``position``, so a batch judges
        # on them with no query per game.
        self.position: int | None = None
        self.fresh: set[str] = set()
        self.ids: dict[str, str] = {}  # a ref callers gave -> its game's id (ids never change)

    def entry(
        self,
        ref: str,
        text: str,
        *,
        actor: str | None = None,
        by: str = "",
        expected_version: int | None = None,
        principal: Principal | None = None,
    ) -> Future[EntryResult]:
        """Record an entry as ``Commands.record`` does, in the next group commit."""
        item = _Entry(ref, text, actor, by, expected_version, principal)
        self._queue.put(item)
        return item.future

    def call(self, fn: Callable[[], T]) -> Future[T]:
        """Run any other write on the writer thread, alone, after the entries before it."""
        item = _Call(fn)
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
            batch = [self._queue.get()]
            while len(batch) < self.max_batch:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            stopping = any(item is _STOP for item in batch)
            try:
                self._batch([item for item in batch if item is not _STOP])
            except BaseException as exc:  # noqa: BLE001 - the thread must live on: answer and go on
                log.exception("the writer failed a batch")
                self.position = None
                self.fresh.clear()
                for item in batch:
                    if item is not _STOP and not item.future.done():
                        item.future.set_exception(exc)
            if stopping:
                return

    def _batch(self, batch: list[_Entry | _Call]) -> None:
        group = _Group(self)
        for item in batch:
            if isinstance(item, _Call):
                group.flush()
                _run(item)
                group.followed = False  # it wrote past the cache: read the log again
            else:
                group.add(item)
        group.flush()


def _run(item: _Call) -> None:
    if not item.future.set_running_or_notify_cancel():
        return
    try:
        item.future.set_result(item.context.run(item.fn))
    except BaseException as exc:  # noqa: BLE001 - the caller's answer, raised where it awaits
        item.future.set_exception(exc)


class _Group:
    """The entries of one commit: their games' views as judged so far, their sealed
    events by game, and the callers waiting for the commit."""

    def __init__(self, writer: GroupWriter) -> None:
        self.writer = writer
        self.svc = writer.svc
        self.views: dict[str, GameView] = {}
        self.events: dict[str, list[GameEvent]] = {}
        self.waiting: list[tuple[Future[EntryResult], EntryResult, str]] = []
        self.followed = False

    def _follow(self) -> None:
        """Once per commit: fold what the store's log holds since the writer last looked
        (any writer's events, ours included) into the fresh games' cached views."""
        if self.followed:
            return
        self.followed = True
        writer, store = self.writer, self.svc.store
        if writer.position is None:
            writer.position = store.recorder.max_notification_id() or 0
            writer.fresh.clear()
            return
        try:
            for note in store.iter_notifications(after=writer.position):
                writer.position = max(writer.position, note.id)
                game_id = str(note.originator_id)
                if game_id in writer.fresh and not self.svc.fold_stored(game_id, note):
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

    def add(self, entry: _Entry) -> None:
        if not entry.future.set_running_or_notify_cancel():
            return  # the caller went away before its turn
        try:
            view = self._view(entry.ref)
            if entry.principal is not None:
                authorize(entry.principal, "record", view)
            decision = entry.context.run(
                decide_entry,
                view,
                EntryCommand(
                    entry.text,
                    self.svc.clock(),
                    actor=entry.actor,
                    by=entry.by,
                    expected_version=entry.expected_version,
                ),
            )
        except BaseException as exc:  # noqa: BLE001 - a refusal: this caller's answer alone
            entry.future.set_exception(exc)
            return
        game_id = view.game_id
        if ends_event_game(view, decision):
            # The match is updated in the same transaction: alone, after what came before.
            self.flush()
            try:
                entry.future.set_result(
                    entry.context.run(
                        self.svc.record,
                        game_id,
                        entry.text,
                        actor=entry.actor,
                        by=entry.by,
                        expected_version=entry.expected_version,
                        principal=entry.principal,
                    )
                )
            except BaseException as exc:  # noqa: BLE001 - the caller's answer
                entry.future.set_exception(exc)
            self.followed = False  # appended from its own copy: the log brings it in
            return
        try:
            sealed = sealed_after(view, decision.new)
            fold_written(view, sealed, decision.applied)
        except BaseException as exc:  # noqa: BLE001 - never judge on a half-folded view
            entry.future.set_exception(exc)
            del self.views[game_id]  # neither judged on again nor cached: the log brings it
            self.writer.fresh.discard(game_id)
            self.flush()
            return
        self.events.setdefault(game_id, []).extend(sealed)
        self.waiting.append((entry.future, decision.result, game_id))

    def flush(self) -> None:
        """Commit what was decided, answer its callers, and cache the views as stored."""
        if not self.waiting:
            self._clear()
            return
        waiting, events, views = self.waiting, self.events, self.views
        self.followed = False
        self._clear()
        store = self.svc.store
        self.writer.commits += 1
        self.writer.entries += len(waiting)
        try:
            ids = store.append_sealed(list(events.values()))
        except ConcurrentWriteError:
            # A game moved under us (another process, the command line): each game alone,
            # so only the callers of the game that moved are refused.
            failed: dict[str, BaseException] = {}
            for game_id, stream in events.items():
                try:
                    store.append_sealed([stream])
                except BaseException as exc:  # noqa: BLE001 - that game's callers' answer
                    failed[game_id] = exc
            for future, result, game_id in waiting:
                if game_id in failed:
                    future.set_exception(failed[game_id])
                else:
                    future.set_result(result)
        except BaseException as exc:  # noqa: BLE001 - nothing stored: every caller hears it
            log.warning("a group commit of %d entries failed: %s", len(waiting), exc)
            for future, _, _ in waiting:
                future.set_exception(exc)
        else:
            position = self.writer.position
            if position is not None and sorted(ids) == list(
                range(position + 1, position + 1 + len(ids))
            ):
                # Nobody wrote between the log's last read and this commit: the next read
                # starts after it rather than reading back what was just written.
                self.writer.position = position + len(ids)
            for view in views.values():
                self.svc.adopt(view)  # as stored: the next batch folds nothing again
            if len(self.writer.fresh) > 100_000:
                self.writer.fresh.clear()
            self.writer.fresh.update(views)
            for future, result, _ in waiting:
                future.set_result(result)

    def _clear(self) -> None:
        self.views, self.events, self.waiting = {}, {}, []
