"""How every read model is caught up from the log: one mechanism.

A read model keeps its place in the store's log as the last notification id it folded
(ids may have gaps: never a count) and asks for the pages after it, oldest first; each
page is a ``LogPage`` (``events.store``): the events in store order with their plain
bytes, recorded actions only counted per game (the read models need no more of them).
A read model that wants only a few kinds of events names their ``topics``; its pages
then carry only those (read by topic, nothing counted).

``Follower.follow`` runs the loop for a read model kept in memory (the games list, the
referees' queue); the games catalog (``projections.projector``) reads the same pages
with ``read_page`` inside the locked transaction that also moves its stored position.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from events.store import GameStore, LogPage

__all__ = ["Follower"]


class Follower:
    """A place in ``store``'s log and the pages after it."""

    def __init__(self, store: GameStore, *, page: int, topics: Iterable[str] | None = None) -> None:
        self.store = store
        self.page = page
        self.topics = tuple(topics) if topics is not None else None

    def read_page(self, after: int) -> LogPage:
        """The page of the log after notification ``after`` (at most ``page`` events)."""
        if self.topics is None:
            return self.store.log_page(after, self.page)
        from events.store import LogPage

        notes = self.store.notifications(after, self.page, self.topics)
        if not notes:
            return LogPage(after, [], {}, 0)
        plain = self.store.mapper.plain_state
        events = [
            (int(n.id), str(n.originator_id), int(n.originator_version), str(n.topic), plain(n))
            for n in notes
        ]
        return LogPage(int(notes[-1].id), events, {}, len(notes))

    def follow(self, after: int, apply: Callable[[LogPage], None]) -> int:
        """Fold every page after ``after`` with ``apply``; the new position. A page shorter
        than ``page`` is the log's end: no further read is made to learn it."""
        while True:
            found = self.read_page(after)
            if found.last_id <= after:
                return after
            apply(found)
            after = found.last_id
            if found.total < self.page:
                return after
