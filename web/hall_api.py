"""The API's round clock routes (``/api/events/E/clock``, ``.../tables/N/extensions``).

Over ``service.hall``: the head referee marks the clock (start, pause, resume, end) and
sets the round length; a table or head referee gives a table extra time (EV-9.4); anyone
who may read the event reads the clock. Every answer is the clock as it stands
(``ClockView``), its figures computed from the recorded marks at the moment of the answer.
Status codes as for the other event routes: 201 written, 400 refused (the ``EV-9``
clause, nothing stored), 403 the role may not, 404 no such event, 409 another write came
first.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from litestar import Response, get, post
from litestar.params import FromPath, FromQuery, JSONBody

from service.access import hall_staff
from service.api import ClockView
from service.errors import RefusedError
from service.results import WrittenEvents
from web.api import PROBLEMS, guarded
from web.guards import CallerDep, Route, WebDep, WriterDep, may_clock, may_event, may_game

__all__ = ["HALL_HANDLERS"]


class ClockIn(msgspec.Struct, kw_only=True):
    """A mark on the current round's clock (EV-9.2), or a new round length (EV-9.1)."""

    action: Literal["start", "pause", "resume", "end", "length"]
    minutes: int | None = None
    """The round length, with ``action`` ``length`` (1 to 600)."""
    reason: str = ""


class ExtensionIn(msgspec.Struct, kw_only=True):
    """Extra minutes for one table (1 to 60) and why: a deck check, a judge call, ..."""

    minutes: int
    reason: str


def _created(view: ClockView) -> Response[ClockView]:
    return Response(
        content=view, status_code=201, headers={"Location": f"/api/events/{view.event_id}/clock"}
    )


@get(
    "/api/events/{event_id:str}/clock",
    summary="The round clock now: the round's time left, each table's with its extensions",
    description="Worked out from the recorded marks at the moment of the answer (EV-9.3); "
    "'running' says whether the figures move. ?table=N lists that table alone, ?extended=true "
    "only the tables with extra time (a page that shows one table, or the hall's clock, "
    "reads a few rows instead of the whole round). The extensions' reasons are the "
    "staff's (EV-10.7): empty for a player or the public.",
    **guarded(may_event("read")),
)
async def event_clock(
    web: WebDep,
    caller: CallerDep,
    event_id: FromPath[str],
    round: FromQuery[int | None] = None,
    table: FromQuery[int | None] = None,
    extended: FromQuery[bool] = False,
) -> Response[ClockView]:
    tables: int | Literal["all", "extended"] = "extended" if extended else "all"
    if table is not None:
        tables = table
    reasons = hall_staff(caller, event_id)
    view: ClockView = await web.run(
        web.svc.event_clock_view, event_id, round, tables=tables, reasons=reasons
    )
    return Response(content=view, headers={"Cache-Control": "no-store"})


CLOCK = Route(responses=PROBLEMS, status_code=201, guards=[may_clock])
"""The clock's writes: written (201), by who may work the clock (``may_clock``)."""


@post(
    "/api/events/{event_id:str}/clock",
    summary="Start, pause, resume or end the round clock, or set the round length (head)",
    **CLOCK,
)
async def mark_clock(
    writer: WriterDep, event_id: FromPath[str], data: JSONBody[ClockIn]
) -> Response[ClockView]:
    if data.action != "length":
        mark = writer.svc.event_clock
        return _created(await writer.event(mark, event_id, data.action, by=writer.by))
    if data.minutes is None:
        raise RefusedError("EV-9.1: give the round length in minutes")
    length = writer.svc.event_round_length
    view = await writer.event(length, event_id, data.minutes, reason=data.reason, by=writer.by)
    return _created(view)


@post(
    "/api/events/{event_id:str}/tables/{table:int}/extensions",
    summary="Give one table of the current round extra minutes, with the reason",
    **CLOCK,
)
async def extend_table(
    writer: WriterDep, event_id: FromPath[str], table: FromPath[int], data: JSONBody[ExtensionIn]
) -> Response[ClockView]:
    extend = writer.svc.event_extend
    minutes, reason = data.minutes, data.reason
    return _created(
        await writer.event(extend, event_id, table, minutes, reason=reason, by=writer.by)
    )


class TimeLimitIn(msgspec.Struct, kw_only=True):
    """A game's time limit in minutes from its start (1 to 1440), and why it changes."""

    minutes: Annotated[int, msgspec.Meta(ge=1, le=1440)]
    reason: Annotated[str, msgspec.Meta(max_length=200)] = ""


@post(
    "/api/games/{game_id:str}/time-limit",
    summary="Set or change a game's time limit (a game outside an event; table or head)",
    description="REF-10.1: an open game's limit in minutes from its start; the latest counts. "
    "An ended game, or a game of an event (it runs on its round clock), answers 409.",
    responses=PROBLEMS,
    status_code=201,
    guards=[may_game("time_limit")],
)
async def set_time_limit(writer: WriterDep, data: JSONBody[TimeLimitIn]) -> Response[WrittenEvents]:
    w, minutes = writer, data.minutes
    return await w.written(w.svc.time_limit, w.game_id, minutes, reason=data.reason, by=w.by)


HALL_HANDLERS = [event_clock, mark_clock, extend_table, set_time_limit]
