"""Reading what happened since a point: the read side of live streams.

A game's stream is numbered by event (1, 2, ...), so a client that saw event N
resumes from N; the store's notification log numbers every event of every game
(ids grow, with gaps), so the games list and the scoreboard resume from a
notification id. Each event is shown to a viewer only through
``events.records.redact``, exactly as the game's log is.

The games list itself is a read model (``projections.listing``); its row type is
named here too, for the faces.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from events.records import event_record, redact, revealed_entries
from events.schema import GameEvent
from events.store import GameStore
from events.view import GameView
from projections.listing import ListedGame
from referee.contract import REFEREE, Viewer

__all__ = [
    "Followed",
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

    def watch(self, heard: Callable[[], None]) -> Callable[[], None] | None:
        """Call ``heard`` (from another thread) soon after any process writes to the store;
        the answer stops it. ``None`` where the store announces nothing (SQLite): then
        only reading the log finds another process's writes."""
        return self._store.watch(heard)
