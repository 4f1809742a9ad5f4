"""The room service: the referees' queue across every table (``service.room``).

One of the small services ``RefereeService`` holds. The queue's fold (``RoomQueue``) is
made on the first ask and kept, so a long-lived service (the server) reads only what is new
at each ask; a one-shot command that never asks never opens it.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from service.ports import Basis

if TYPE_CHECKING:
    from service.room import RoomQueue, RoomView

__all__ = ["RoomService"]


class RoomService:
    """The room's queue: open disputes, rulings awaited, appeals, penalties, idle tables,
    games over time, judge calls and result disagreements."""

    def __init__(self, basis: Basis) -> None:
        self.store = basis.store
        self._queue: RoomQueue | None = None

    def queue(
        self,
        *,
        tables: list[str] | None = None,
        idle_minutes: int = 10,
        time_limit: int = 50,
        now: datetime | None = None,
        results_only: bool = False,
        call_seconds: int = 60,
        event: str | None = None,
        head: bool = True,
    ) -> RoomView:
        """The referees' queue across every table (or only ``tables``, of ``event``): open
        disputes, rulings awaited, appeals, penalties, idle tables, games over time, judge
        calls and result disagreements (``service.room``, ``service.calls``; an open call
        older than ``call_seconds`` is marked overdue), triaged into what needs action now
        and what is for information; only the result items with ``results_only`` (the
        scorekeeper's). ``head``: the reader is the head referee (escalated calls are theirs
        alone to act on; a table referee reads them for information)."""
        if self._queue is None:
            from service.room import RoomQueue

            self._queue = RoomQueue(self.store)
        return self._queue.items(
            tables=tables,
            idle_minutes=idle_minutes,
            time_limit=time_limit,
            now=now,
            results_only=results_only,
            call_seconds=call_seconds,
            of_event=event,
            head=head,
        )

    def close(self) -> None:
        """Close the queue's fold if it was made."""
        if self._queue is not None:
            self._queue.close()
