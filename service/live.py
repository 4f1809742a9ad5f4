"""Reading what happened since a point: the read side of live streams.

A game's stream is numbered by event (1, 2, ...), so a client that saw event N
resumes from N; the store's notification log numbers every event of every game
(ids grow, with gaps), so the games list and the scoreboard resume from a
notification id. Each event is shown to a viewer only through
``events.records.redact``, exactly as the game's log is.

``GameListing`` keeps the games list (with the tournament labels, for
filtering) folded from the notification log, reading only what is new on each
call.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Literal

import msgspec

from events.records import event_record, redact, revealed_entries
from events.schema import (
    ActionRetracted,
    GameCreated,
    GameEnded,
    GameEvent,
    ResultVoided,
    topics_for,
)
from events.store import GameStore
from events.view import GameView
from referee.contract import REFEREE, Viewer

__all__ = [
    "Followed",
    "GameListing",
    "ListedGame",
    "Notice",
    "NoticeLog",
    "game_events_after",
    "last_notice",
    "notices_after",
]


class Followed(msgspec.Struct, frozen=True, kw_only=True):
    """What a game's live stream sends next: the game, its events numbered above the
    point it had reached, and the events it sent sealed that have been revealed since
    (a Prismatic bid once its round is complete), each as the viewer may see it now."""

    view: GameView
    records: list[dict[str, Any]]
    revealed: list[dict[str, Any]]
    known: frozenset[int]  # the entries revealed as of this reading (pass it back next time)


def game_events_after(
    load: Callable[[str], GameView],
    game_id: str,
    after: int,
    viewer: Viewer,
    known: frozenset[int] | None = None,
) -> Followed:
    """The game's events numbered above ``after``, each as ``viewer`` may see it, and,
    given the revealed entries ``known`` when the stream last read, the events up to
    ``after`` revealed since then (``None``: the stream starts here, nothing to resend)."""
    view = load(game_id)
    start = max(0, after)
    revealed = revealed_entries(view) if viewer != REFEREE else frozenset()

    def shown(event: GameEvent) -> dict[str, Any]:
        return event_record(redact(event, viewer, view.rules, view.setup, revealed))

    opened = sorted(n for n in revealed - (revealed if known is None else known) if n <= start)
    return Followed(
        view=view,
        records=[shown(e) for e in view.events[start:]],
        revealed=[shown(view.events[n - 1]) for n in opened],
        known=revealed,
    )


class Notice(msgspec.Struct, frozen=True, kw_only=True):
    """One entry of the store's notification log: which game changed, to which event."""

    id: int
    game_id: str
    version: int
    topic: str


def notices_after(store: GameStore, after: int, limit: int = 1000) -> list[Notice]:
    """Notifications after id ``after`` (at most ``limit``), oldest first."""
    batch = store.notifications(after, limit)
    return [
        Notice(id=n.id, game_id=str(n.originator_id), version=n.originator_version, topic=n.topic)
        for n in batch
    ]


def last_notice(store: GameStore) -> int:
    return store.last_position()


class NoticeLog:
    """The store-wide notification log as a live face follows it: the newest id, and
    the notices after one. The face holds this, never the store."""

    def __init__(self, store: GameStore) -> None:
        self._store = store

    def last(self) -> int:
        """The newest notification id (0 for an empty store)."""
        return last_notice(self._store)

    def after(self, after: int, limit: int = 1000) -> list[Notice]:
        """Notifications after id ``after`` (at most ``limit``), oldest first."""
        return notices_after(self._store, after, limit)


class ListedGame(msgspec.Struct, kw_only=True):
    """One game of the games list, with its tournament labels."""

    game_id: str
    game: str
    ruleset: str
    players: dict[str, str]
    created: datetime
    result: str
    how: str | None
    status: Literal["open", "finished"]
    meta: dict[str, str]
    changed: int  # the notification id that last changed this row


_TOPICS = tuple(
    topics_for(GameCreated)
    + topics_for(GameEnded)
    + topics_for(ActionRetracted)
    + topics_for(ResultVoided)
)


class GameListing:
    """The games list, caught up from the notification log on every call."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._rows: dict[str, ListedGame] = {}
        self._by_change: dict[str, ListedGame] = {}  # the same rows, last changed last
        self._after = 0
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
        to_domain = self.store.mapper.to_game_event
        for note in self.store.iter_notifications(_TOPICS, after=self._after):
            self._after = max(self._after, note.id)
            event: GameEvent = to_domain(note)
            if isinstance(event, GameCreated):
                self._rows[event.originator_id] = self._by_change[event.originator_id] = ListedGame(
                    game_id=event.originator_id,
                    game=event.game,
                    ruleset=event.ruleset,
                    players={p.seat: p.name for p in event.players},
                    created=event.timestamp,
                    result="*",
                    how=None,
                    status="open",
                    meta=dict(getattr(event, "meta", {}) or {}),
                    changed=note.id,
                )
                continue
            row = self._rows.get(event.originator_id)
            if row is None:
                continue
            if isinstance(event, GameEnded):
                row.result, row.how, row.status = event.result, event.how, "finished"
            elif isinstance(event, ResultVoided) or (
                isinstance(event, ActionRetracted) and row.how == "rule"
            ):
                row.result, row.how, row.status = "*", None, "open"
            else:
                continue
            row.changed = note.id
            del self._by_change[row.game_id]  # to the end: the order of their changes
            self._by_change[row.game_id] = row
