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

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Literal

import msgspec

from referee.tournament import decisions as d
from referee.tournament.clock import RoundClock, clock_text, marks_allowed
from referee.tournament.errors import unpaired
from referee.tournament.playoff import round_words
from referee.tournament.state import Tournament
from service.tournaments import (
    EventRefusedError,
    Tournaments,
    authorize_write,
    event_write,
)

__all__ = ["ClockView", "Clocks", "ExtensionRow", "GameClock", "TableClock", "game_limit"]


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
    stage: str = ""
    """The round in words: ``round 3``, or ``semifinal (round 7)`` in a playoff (EV-6.6)."""
    event_ended: bool = False
    """The event has ended (EV-1.4): its clock takes no more marks or extensions."""
    marks: list[str] = []
    """The marks the clock takes now (EV-9.2: ``start`` while waiting, ``pause`` and
    ``end`` while running, ``resume`` and ``end`` while paused; none once ended, for an
    earlier round or an ended event): the head's page offers these alone."""


class GameClock(msgspec.Struct, kw_only=True):
    """A table page's clock: its event round's (with the table's extensions), or its own
    game's time limit from its start (EV-9.5)."""

    label: str
    state: str
    running: bool
    remaining_seconds: float
    remaining: str
    over_time: bool
    extension_minutes: int = 0
    event_id: str | None = None
    table: int | None = None
    """The event and table whose round clock this is (a page's script reads it again)."""


Tables = Literal["all", "extended"] | int
"""Which tables a clock lists: every table of the round, the tables with extra time (what
the clock page shows a player or the public: at 5,000 tables the rest is most of the
cost), or one table by its number."""

TIME_LIMIT_MINUTES = 50
"""A game's time limit when its ``time_limit`` label gives none (the queue's Q-2)."""


def clock_view(
    event_id: str,
    name: str,
    state: Tournament,
    now: datetime,
    round_number: int | None = None,
    *,
    tables: Tables = "all",
    reasons: bool = True,
) -> ClockView:
    """The clock of ``state``'s current round (or ``round_number``) at ``now``, listing
    ``tables``; the extensions' reasons when ``reasons`` (a reader of the staff's, EV-10.7;
    anyone else reads each table's extra minutes only): pure."""
    number = state.current_round if round_number is None else round_number
    clock = state.clock(number)
    rnd = state.rounds.get(number)
    rows: list[TableClock] = []
    for pairing in rnd.pairings if rnd is not None else ():
        if pairing.bye or pairing.table is None:
            continue
        if tables != "all" and (
            pairing.table != tables
            if isinstance(tables, int)
            else pairing.table not in clock.extensions
        ):
            continue
        left = clock.remaining(now, pairing.table)
        finished = state.result(number, pairing.table) is not None
        rows.append(
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
    # an ended event's round is over whatever its clock was left at (EV-1.4): a clock never
    # started reads "ended", not "waiting", and nothing ticks
    shown_state = "ended" if state.ended else clock.state
    return ClockView(
        event_id=event_id,
        name=name,
        round=number,
        state=shown_state,
        minutes=clock.minutes,
        now=now,
        started=clock.started,
        ended=clock.ended,
        elapsed_seconds=clock.elapsed(now),
        remaining_seconds=left,
        remaining=clock_text(left),
        running=shown_state == "running",
        tables=rows,
        extensions=[
            ExtensionRow(table=t, minutes=m, reason=r if reasons else "") for t, m, r in clock.given
        ],
        stage=round_words(state, number) if number else "",
        event_ended=state.ended,
        marks=list(marks_allowed(shown_state)) if number and number == state.current_round else [],
    )


def game_limit(created: datetime, minutes: int, now: datetime) -> tuple[float, str]:
    """A game's own time left (seconds, text) by its time limit from its creation (EV-9.5)."""
    left = (created + timedelta(minutes=minutes) - now).total_seconds()
    return left, clock_text(left)


class Clocks(Tournaments):
    """The round clock's commands and reads (a part of the event service)."""

    @event_write("clock")
    def event_clock(self, event_id: str, action: str, *, by: str = "") -> ClockView:
        """Start, pause, resume or end the current round's clock now (EV-9.2); the clock."""
        if action not in ("start", "pause", "resume", "end"):
            raise EventRefusedError(
                "EV-9.2", f"no clock action {action!r}: start, pause, resume or end"
            )
        command = d.MarkClock(action=action, at=self.clock(), by=by)  # type: ignore[arg-type]
        self._write(event_id, command)
        return self.event_clock_view(event_id)

    @event_write(None)
    def event_extend(
        self, event_id: str, table: int, minutes: int, *, reason: str, by: str = ""
    ) -> ClockView:
        """Give a table of the current round ``minutes`` more, with the reason (EV-9.4):
        the head referee's, or that table's referee's at their own event."""
        authorize_write("clock", event_id, lambda: (table,))
        self._write(
            event_id,
            d.ExtendTime(table=table, minutes=minutes, reason=reason, at=self.clock(), by=by),
        )
        return self.event_clock_view(event_id)

    @event_write(None)
    def game_extend(self, game_id: str, minutes: int, *, reason: str, by: str = "") -> ClockView:
        """Give the table a game of the current round is played at ``minutes`` more, with
        the reason (EV-9.4): ``event_extend`` for that table, so the same check of who may
        (the head referee, or that table's referee at its event) and the same fact. A game
        outside any event has its own time limit (REF-10.1), and a game of an earlier
        round's table is refused: that table number names other players now."""
        event_id, table = self._table_of_game_now(
            game_id, "EV-9.4", "it has its own time limit (REF-10.1), not the round clock"
        )
        return self.event_extend(event_id, table, minutes, reason=reason, by=by)

    @event_write("clock")
    def event_round_length(
        self, event_id: str, minutes: int, *, reason: str = "", by: str = ""
    ) -> ClockView:
        """Set the event's round length, the round in progress included (EV-9.1)."""
        self._write(event_id, d.SetRoundLength(minutes=minutes, reason=reason, by=by))
        return self.event_clock_view(event_id)

    def event_clock_view(
        self,
        event_id: str,
        round_number: int | None = None,
        *,
        now: datetime | None = None,
        tables: Tables = "all",
        reasons: bool = True,
    ) -> ClockView:
        """The round clock now (computed from the recorded marks, EV-9.3), listing
        ``tables`` (every table by default), with the extensions' reasons when ``reasons``
        (for the staff: ``service.access.hall_staff``; EV-10.7)."""
        loaded = self._event(event_id)
        if round_number is not None and round_number not in loaded.state.rounds:
            raise EventRefusedError("EV-9.2", unpaired(round_number))
        return clock_view(
            loaded.event_id,
            loaded.name,
            loaded.state,
            now or self.clock(),
            round_number,
            tables=tables,
            reasons=reasons,
        )

    def game_clock(
        self,
        meta: Mapping[str, str],
        created: datetime,
        *,
        open_: bool = True,
        limit: int | None = None,
        now: datetime | None = None,
    ) -> GameClock | None:
        """The clock a table page shows for a game with these labels: its event round's
        clock with the table's extensions (a game of an event), else its own time limit
        from ``created`` (``limit``, the game's latest ``TimeLimitSet``, else its
        ``time_limit`` label; a game labelled with a table or a limit, REF-10.1); ``None``
        for any other game."""
        now = now or self.clock()
        event_id, table = meta.get("event", "").strip(), meta.get("table", "").strip()
        if event_id and table.isdigit():
            try:
                state: Tournament | None = self._event(event_id).state
            except LookupError:  # no such event (any more): the game's own limit
                state = None
            if state is not None and state.settings is not None:
                raw = meta.get("round", "").strip()
                number = int(raw) if raw.isdigit() else state.current_round
                return _round_game_clock(event_id, state, state.clock(number), int(table), now)
        raw_limit = str(limit) if limit else meta.get("time_limit", "").strip()
        if not raw_limit.isdigit() and not table:
            return None
        minutes = int(raw_limit) if raw_limit.isdigit() and int(raw_limit) else TIME_LIMIT_MINUTES
        left, text = game_limit(created, minutes, now)
        return GameClock(
            label=f"time limit {minutes} min",
            state="running" if open_ else "ended",
            running=open_,
            remaining_seconds=left,
            remaining=text,
            over_time=open_ and left < 0,
        )


def _round_game_clock(
    event_id: str, state: Tournament, clock: RoundClock, table: int, now: datetime
) -> GameClock:
    left = clock.remaining(now, table)
    finished = state.result(clock.round, table) is not None
    return GameClock(
        label=f"{round_words(state, clock.round)} · table {table}",
        state="done" if finished else "ended" if state.ended else clock.state,
        running=clock.state == "running" and not finished and not state.ended,
        remaining_seconds=left,
        remaining=clock_text(left),
        over_time=clock.over_time(now, table) and not finished,
        extension_minutes=clock.extension(table),
        event_id=event_id,
        table=table,
    )
