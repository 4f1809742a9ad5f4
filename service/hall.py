"""Running the hall: the round clock of an event, its tables' extensions, a game's time limit.

The clock's marks (start, pause, resume, end), the round length and each table's time
extensions are tournament facts in the event's own stream (``referee.tournament.facts``:
``ClockMarked``, ``RoundLengthSet``, ``TimeExtended``), so the log, the audit and the
export show them. What is left is never kept by a timer: every read computes it from the
recorded marks and the service's clock (``self.clock()``) as ``now`` (EV-9.3).

Every face asks these methods: ``referee event clock|extend|length``, ``/api/events/E/
clock``, ``/api/events/E/tables/N/extensions``, the clock page ``/events/E/clock`` and the
table and player pages (``table_clock``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

import msgspec

from referee.tournament import decisions as d
from referee.tournament.clock import RoundClock, clock_text
from referee.tournament.state import Tournament
from service.tournaments import EventRefusedError, Tournaments

__all__ = ["ClockView", "ExtensionRow", "Hall", "TableClock", "game_limit"]


class TableClock(msgspec.Struct, kw_only=True):
    """One table's own clock: the round's, with the table's extensions (EV-9.4)."""

    table: int
    players: list[str]
    extension_minutes: int
    remaining_seconds: float
    remaining: str
    """``12:05`` left or ``-3:10`` over (``clock_text``)."""
    over_time: bool
    finished: bool
    """The table has its result (its clock no longer matters)."""


class ExtensionRow(msgspec.Struct, kw_only=True):
    table: int
    minutes: int
    reason: str


class ClockView(msgspec.Struct, kw_only=True):
    """An event's round clock at ``now``: the round's, then each table's."""

    event_id: str
    name: str
    round: int
    state: str
    """``waiting``, ``running``, ``paused`` or ``ended`` (EV-9.2)."""
    minutes: int
    """The round length (EV-9.1)."""
    now: datetime
    started: datetime | None
    ended: datetime | None
    elapsed_seconds: float
    remaining_seconds: float
    remaining: str
    running: bool
    """Whether the figures move (a page ticks them down only then)."""
    tables: list[TableClock]
    extensions: list[ExtensionRow]


def clock_view(
    event_id: str, name: str, state: Tournament, now: datetime, round_number: int | None = None
) -> ClockView:
    """The clock of ``state``'s current round (or ``round_number``) at ``now``: pure."""
    number = state.current_round if round_number is None else round_number
    clock = state.clock(number)
    rnd = state.rounds.get(number)
    tables: list[TableClock] = []
    for pairing in rnd.pairings if rnd is not None else ():
        if pairing.bye or pairing.table is None:
            continue
        left = clock.remaining(now, pairing.table)
        finished = state.result(number, pairing.table) is not None
        tables.append(
            TableClock(
                table=pairing.table,
                players=[state.players[p].name for p in pairing.players],
                extension_minutes=clock.extension(pairing.table),
                remaining_seconds=left,
                remaining=clock_text(left),
                over_time=clock.over_time(now, pairing.table) and not finished,
                finished=finished,
            )
        )
    left = clock.remaining(now)
    return ClockView(
        event_id=event_id,
        name=name,
        round=number,
        state=clock.state,
        minutes=clock.minutes,
        now=now,
        started=clock.started,
        ended=clock.ended,
        elapsed_seconds=clock.elapsed(now),
        remaining_seconds=left,
        remaining=clock_text(left),
        running=clock.state == "running",
        tables=tables,
        extensions=[ExtensionRow(table=t, minutes=m, reason=r) for t, m, r in clock.given],
    )


def game_limit(created: datetime, minutes: int, now: datetime) -> tuple[float, str]:
    """A game's own time left (seconds, text) by its time limit from its creation (EV-9.5)."""
    left = (created + timedelta(minutes=minutes) - now).total_seconds()
    return left, clock_text(left)


class Hall(Tournaments):
    """The round clock's commands and reads (mixed into ``RefereeService``)."""

    def event_clock(self, event_id: str, action: str, *, by: str = "") -> ClockView:
        """Start, pause, resume or end the current round's clock now (EV-9.2); the clock."""
        loaded = self._event(event_id)
        if action not in ("start", "pause", "resume", "end"):
            raise EventRefusedError(
                "EV-9.2", f"no clock action {action!r}: start, pause, resume or end"
            )
        command = d.MarkClock(action=action, at=self.clock(), by=by)  # type: ignore[arg-type]
        self._append(loaded, self._decide(loaded.state, command))
        return self.event_clock_view(event_id)

    def event_extend(
        self, event_id: str, table: int, minutes: int, *, reason: str, by: str = ""
    ) -> ClockView:
        """Give a table of the current round ``minutes`` more, with the reason (EV-9.4)."""
        loaded = self._event(event_id)
        command = d.ExtendTime(table=table, minutes=minutes, reason=reason, at=self.clock(), by=by)
        self._append(loaded, self._decide(loaded.state, command))
        return self.event_clock_view(event_id)

    def event_round_length(
        self, event_id: str, minutes: int, *, reason: str = "", by: str = ""
    ) -> ClockView:
        """Set the event's round length, the round in progress included (EV-9.1)."""
        loaded = self._event(event_id)
        command = d.SetRoundLength(minutes=minutes, reason=reason, by=by)
        self._append(loaded, self._decide(loaded.state, command))
        return self.event_clock_view(event_id)

    def event_clock_view(
        self, event_id: str, round_number: int | None = None, *, now: datetime | None = None
    ) -> ClockView:
        """The round clock now (computed from the recorded marks, EV-9.3)."""
        loaded = self._event(event_id)
        if round_number is not None and round_number not in loaded.state.rounds:
            raise EventRefusedError("EV-9.2", f"round {round_number} has not been paired")
        return clock_view(
            loaded.event_id, loaded.name, loaded.state, now or self.clock(), round_number
        )

    def event_round_clock(self, event_id: str) -> tuple[Tournament, RoundClock]:
        """The folded event and its current round's clock (for the queue and the pages)."""
        state = self._event(event_id).state
        return state, state.clock()
