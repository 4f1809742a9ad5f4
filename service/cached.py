"""A long-running service that keeps each game folded in memory between requests.

``RefereeService.load`` rebuilds a game from all its events, which is right for
a command that runs once. A server answering many requests per game keeps the
folded ``GameView`` instead and, on each ``load``, reads only the events stored
since (one indexed query): whatever another process or the command line wrote
is folded in, so an answer is never older than the store. Each caller gets its
own copy of the view, which the commands may advance as they append; the cache
is only ever advanced from the store, so a command that fails leaves it as it
was, and two threads never share a view.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import TYPE_CHECKING, Unpack, cast

from events.codec import decode
from events.store import GameStore
from events.view import GameView
from service.access import Seating
from service.app import RefereeService, ServiceOptions
from service.game_service import GameService
from service.ports import Basis
from service.tournaments import SERVED_SAVE_SECONDS

if TYPE_CHECKING:
    from service.event_service import EventService

__all__ = ["CachedGames", "CachedService"]


class CachedService(RefereeService):
    """``RefereeService`` whose game service is ``CachedGames``: its ``load`` (and every
    command's, which loads through it) catches a cached view up instead of replaying the
    whole stream. ``capacity`` bounds how many games are kept."""

    def __init__(
        self, store: GameStore, *, capacity: int = 2000, **options: Unpack[ServiceOptions]
    ) -> None:
        self.capacity = capacity
        super().__init__(store, **options)
        # a server writes an event many times a second at a round's end: its snapshot
        # (a cost in the event's size) is kept at most every half minute
        self.parts.events.save_seconds = SERVED_SAVE_SECONDS

    cache: CachedGames
    """The game service, with its cache (``parts.games`` as its own type)."""

    def _new_games(self, basis: Basis) -> GameService:
        self.cache = CachedGames(basis, self.capacity)
        return self.cache

    def cached_copy(self, game_id: str) -> GameView | None:
        """``CachedGames.cached_copy``."""
        return self.cache.cached_copy(game_id)

    def holds(self, game_id: str, version: int) -> bool:
        """``CachedGames.holds``."""
        return self.cache.holds(game_id, version)

    def adopt(self, view: GameView) -> None:
        """``CachedGames.adopt``."""
        self.cache.adopt(view)

    def forget(self, game_id: str) -> None:
        """``CachedGames.forget``."""
        self.cache.forget(game_id)

    def exists(self, game_id: str) -> bool:
        """``CachedGames.exists``."""
        return self.cache.exists(game_id)

    def forget_streams(self, stream_ids: Iterable[str]) -> None:
        """Drop what is cached of these streams (games' views, events' folds), so that
        each is read again from the store: a held commit of the writer failed after
        folding its events' facts (``service.writer``)."""
        ids = list(stream_ids)
        for stream_id in ids:
            self.cache.forget(stream_id)
        events = self.parts.built().get("events")
        if events is not None:
            cast("EventService", events).forget_events(ids)


class CachedGames(GameService):
    """The game service of a long-running server: games kept folded between requests."""

    def __init__(self, basis: Basis, capacity: int = 2000) -> None:
        super().__init__(basis)
        self.capacity = capacity
        self._views: OrderedDict[str, tuple[threading.Lock, GameView]] = OrderedDict()
        self._lock = threading.Lock()

    def load(self, ref: str) -> GameView:
        entry = self._entry(ref)
        if entry is None:
            game_id = self.resolve(ref)
            entry = self._entry(game_id)
            if entry is None:
                view = self.store.load(game_id)
                with self._lock:
                    entry = self._views.setdefault(game_id, (threading.Lock(), view))
                    while len(self._views) > self.capacity:
                        self._views.popitem(last=False)
        lock, view = entry
        with lock:
            try:
                self._catch_up(view)
            except Exception:
                self.forget(view.game_id)  # never keep a half-folded view
                raise
            return view.copy()

    def seating(self, ref: str) -> Seating:
        """A cached game's seating, with no read: who sits where never changes."""
        entry = self._entry(ref)
        return Seating.of(entry[1]) if entry is not None else super().seating(ref)

    def _entry(self, game_id: str) -> tuple[threading.Lock, GameView] | None:
        with self._lock:
            entry = self._views.get(game_id)
            if entry is not None:
                self._views.move_to_end(game_id)
            return entry

    def _catch_up(self, view: GameView) -> None:
        """Fold the events stored after ``view``'s last one."""
        for _, topic, state in self.store.rows(view.game_id, after=view.version):
            view.fold(decode(topic, state))

    def cached_copy(self, game_id: str) -> GameView | None:
        """A copy of the cached view of ``game_id`` as it is, without asking the store what
        was written since (``None`` if the game is not cached). Only for a caller that
        knows nothing was: the server's writer, which wrote last (``service.writer``)."""
        entry = self._entry(game_id)
        if entry is None:
            return None
        lock, view = entry
        with lock:
            return view.copy()

    def holds(self, game_id: str, version: int) -> bool:
        """Whether the cached view of ``game_id`` holds its event ``version`` (False when
        the game is not cached): a writer following the store's log asks it of each event
        written, and reads again a game another writer moved."""
        entry = self._entry(game_id)
        if entry is None:
            return False
        lock, view = entry
        with lock:
            return view.version >= version

    def adopt(self, view: GameView) -> None:
        """Cache ``view``, whose events are all in the store (a group commit has just
        stored them), in place of an older one: the next ``load`` folds nothing again.
        The caller hands the view over and folds it no further."""
        with self._lock:
            entry = self._views.get(view.game_id)
            if entry is None:
                self._views[view.game_id] = (threading.Lock(), view)
                while len(self._views) > self.capacity:
                    self._views.popitem(last=False)
                return
        lock, cached = entry
        with lock, self._lock:
            if self._views.get(view.game_id) is entry and cached.version <= view.version:
                self._views[view.game_id] = (lock, view)

    def forget(self, game_id: str) -> None:
        """Drop a cached game (after an import replaced nothing, say)."""
        with self._lock:
            self._views.pop(game_id, None)

    def exists(self, game_id: str) -> bool:
        """Whether the store holds the game (cached games answer without a query)."""
        with self._lock:
            if game_id in self._views:
                return True
        return self.store.exists(game_id)
