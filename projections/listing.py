"""The games list: every game's row (players, labels, where it stands), folded from the
log and kept in memory, reading only what the log gained on each call.

The server's games page, its live stream and ``GET /api/games`` read it; a read-only
store with no games catalog beside it (``projections.projector``) is listed from it
too. Where a game stands is ``projections.status``'s one fold.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from events.codec import decode
from events.schema import GameCreated, GameEvent
from events.store import GameStore, LogPage
from projections.catchup import Follower
from projections.rows import GameLine, shown_result
from projections.status import OPEN, STATUS_TOPICS, Outcome, outcome_after

__all__ = ["GameListing", "ListedGame", "listed_games", "shown_result"]

PAGE = 5_000
"""Events per page read while catching up."""


class ListedGame(GameLine, kw_only=True):
    """One game of the games list, with its tournament labels."""

    meta: dict[str, str]
    changed: int  # the notification id that last changed this row

    @property
    def outcome(self) -> Outcome:
        """Where the game stands, as ``projections.status`` folds it."""
        return Outcome(result=self.result, how=self.how, status=self.status)


class GameListing:
    """The games list, caught up from the notification log on every call."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._rows: dict[str, ListedGame] = {}
        self._by_change: dict[str, ListedGame] = {}  # the same rows, last changed last
        self._after = 0
        self._log = Follower(store, page=PAGE, topics=STATUS_TOPICS)
        self._covered = -1  # every change at or before this log position is in ``_rows``
        self._lock = threading.Lock()

    def rows(
        self,
        *,
        game: str | None = None,
        status: str | None = None,
        player: str | None = None,
        table: str | None = None,
        event: str | None = None,
        round_: str | None = None,
        ids: Sequence[str] | None = None,
        seen: int | None = None,
    ) -> list[ListedGame]:
        """Every game, or those that match every filter given (names and labels
        case-insensitive; ``player`` matches any part of a player's name).

        ``seen``: a log position the log had reached before this call (a live stream's
        last reading of it); when an earlier catch-up was made past it, the log is not
        asked again (ten followers of the games list asked it ten times per write)."""
        with self._lock:
            self._catch_up_past(seen)
            found = list(self._rows.values())

        def same(a: str | None, b: str | None) -> bool:
            return (a or "").strip().casefold() == (b or "").strip().casefold()

        if ids is not None:
            wanted = set(ids)
            found = [r for r in found if r.game_id in wanted]
        if game:
            found = [r for r in found if same(r.game, game)]
        if status:
            found = [r for r in found if r.status == status]
        if player:
            needle = player.strip().casefold()
            found = [r for r in found if any(needle in n.casefold() for n in r.players.values())]
        for key, value in (("table", table), ("event", event), ("round", round_)):
            if value:
                found = [r for r in found if same(r.meta.get(key), value)]
        return found

    def changed_after(self, after: int, *, seen: int | None = None) -> list[ListedGame]:
        """The games whose row changed after log position ``after``, oldest change first
        (a live stream's next messages: no walk over every game); ``seen`` as for ``rows``."""
        newer: list[ListedGame] = []
        with self._lock:
            self._catch_up_past(seen)
            for row in reversed(self._by_change.values()):
                if row.changed <= after:
                    break
                newer.append(row)
        newer.reverse()
        return newer

    def _catch_up_past(self, seen: int | None) -> None:
        if seen is None or seen > self._covered:
            self._catch_up()
            if seen is not None:
                self._covered = seen

    def _catch_up(self) -> None:
        self._after = self._log.follow(self._after, self._fold_page)

    def _fold_page(self, page: LogPage) -> None:
        for note_id, game_id, _, topic, data in page.events:
            event: GameEvent = decode(topic, data)
            if isinstance(event, GameCreated):
                self._rows[game_id] = self._by_change[game_id] = ListedGame(
                    game_id=game_id,
                    game=event.game,
                    ruleset=event.ruleset,
                    players={p.seat: p.name for p in event.players},
                    created=event.timestamp,
                    result=OPEN.result,
                    how=OPEN.how,
                    status=OPEN.status,
                    meta=dict(getattr(event, "meta", {}) or {}),
                    changed=note_id,
                )
                continue
            row = self._rows.get(game_id)
            if row is None:
                continue
            now = row.outcome
            after = outcome_after(now, event)
            if after is now:
                continue
            row.result, row.how, row.status = after.result, after.how, after.status
            row.changed = note_id
            del self._by_change[row.game_id]  # to the end: the order of their changes
            self._by_change[row.game_id] = row


def listed_games(store: GameStore) -> list[ListedGame]:
    """Every game of ``store`` in the order they reached it, folded from the log once (a
    read-only store with no games catalog beside it is listed from this)."""
    return GameListing(store).rows()
