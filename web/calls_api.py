"""The hall's API routes: judge calls (``.../calls``) and players' own results
(``.../reports``), over ``service.calls`` (which also says who may: the request's
principal is handed to it).

Status codes as for the other event routes: 201 written, 400 refused (the ``EV-`` clause,
nothing stored), 403 the role may not, 404 no such event or game, 409 another write came
first, 422 a field longer than its bound. Every write pokes the live hub, so the queue's
stream (``/api/queue/events``) and the event's pages move at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import msgspec
from litestar import Controller, Response, get, post
from litestar.params import FromPath, FromQuery, JSONBody
from litestar.types import ControllerRouterHandler

from service.api import CALL_SECONDS, NOTE_LIMIT, REASON_LIMIT, CallRow, ReportRow
from web.api import PROBLEMS
from web.guards import CallerDep, Route, WebDep, Writer, WriterDep
from web.problems import problem_spec

__all__ = ["CALLS_HANDLERS"]

WRITES = {
    **PROBLEMS,
    422: problem_spec("A reason, note or result longer than its bound; nothing stored"),
}

Reason = Annotated[str, msgspec.Meta(max_length=REASON_LIMIT)]
Note = Annotated[str, msgspec.Meta(max_length=NOTE_LIMIT)]
T = TypeVar("T")


class CallIn(msgspec.Struct, kw_only=True):
    """``table``: the table of the current round (a player's own table when left out);
    ``reason``: one line, optional."""

    table: int | None = None
    reason: Reason = ""


class GameCallIn(msgspec.Struct, kw_only=True):
    reason: Reason = ""


class EscalateIn(msgspec.Struct, kw_only=True):
    reason: Reason = ""


class ResolveIn(msgspec.Struct, kw_only=True):
    note: Note


class ReportIn(msgspec.Struct, kw_only=True):
    """``result``: ``W-L-D`` from the reporting player's side (their wins first);
    ``table``: their table, checked when given."""

    result: Annotated[str, msgspec.Meta(max_length=20)]
    table: int | None = None


class DisputeIn(msgspec.Struct, kw_only=True):
    reason: Reason = ""


HALL = Route(responses=WRITES, status_code=201)
"""Every hall write: written (201); the service says who may (the caller is handed to it)."""
EventId = FromPath[str]


async def _hall(writer: Writer, write: Callable[..., T], *args: Any, **kwargs: Any) -> Response[T]:
    """A hall write made by the caller, who is handed to it (the service says who may),
    answered 201 with the row it wrote."""
    row = await writer.event(write, writer.caller, *args, **kwargs)
    return Response(content=row, status_code=201)


class CallsController(Controller):
    """The hall's calls and reports: a judge called to a table, its steps, and players' own
    results (the service says who may: the caller is handed to it)."""

    path = "/api"
    tags = ("hall",)

    @post(
        "/events/{event_id:str}/calls",
        summary="Call a judge to a table of the current round (a player: to their own table)",
        **HALL,
    )
    async def call_judge(self, writer: WriterDep, data: JSONBody[CallIn]) -> Response[CallRow]:
        w = writer
        return await _hall(w, w.svc.call_as, w.event_id, data.table, reason=data.reason)

    @get(
        "/events/{event_id:str}/calls",
        summary="The event's judge calls not resolved (all=true: every call); a table referee "
        "sees their own tables'",
        responses=PROBLEMS,
    )
    async def list_calls(
        self,
        web: WebDep,
        caller: CallerDep,
        event_id: EventId,
        all: FromQuery[bool] = False,
        call_after: FromQuery[int] = CALL_SECONDS,
    ) -> list[CallRow]:
        rows: list[CallRow] = await web.run(
            web.svc.calls_as, caller, event_id, resolved=all, call_seconds=call_after
        )
        return rows

    @post(
        "/events/{event_id:str}/calls/{call:int}/claim",
        summary="Claim a judge call (an escalated one: the head referee)",
        **HALL,
    )
    async def claim_call(self, writer: WriterDep, call: FromPath[int]) -> Response[CallRow]:
        return await _hall(writer, writer.svc.call_step_as, writer.event_id, call, "claim")

    @post(
        "/events/{event_id:str}/calls/{call:int}/escalate",
        summary="Escalate a judge call to the head referee",
        **HALL,
    )
    async def escalate_call(
        self, writer: WriterDep, call: FromPath[int], data: JSONBody[EscalateIn]
    ) -> Response[CallRow]:
        step = writer.svc.call_step_as
        return await _hall(writer, step, writer.event_id, call, "escalate", data.reason)

    @post(
        "/events/{event_id:str}/calls/{call:int}/resolve",
        summary="Resolve a judge call with a note of what was done",
        **HALL,
    )
    async def resolve_call(
        self, writer: WriterDep, call: FromPath[int], data: JSONBody[ResolveIn]
    ) -> Response[CallRow]:
        step = writer.svc.call_step_as
        return await _hall(writer, step, writer.event_id, call, "resolve", data.note)

    @post(
        "/games/{game_id:str}/calls",
        summary="Call a judge from a game's page: to the event table the game is played at",
        **HALL,
    )
    async def call_from_game(
        self, writer: WriterDep, game_id: FromPath[str], data: JSONBody[GameCallIn]
    ) -> Response[CallRow]:
        return await _hall(writer, writer.svc.game_call_as, game_id, reason=data.reason)

    @post(
        "/events/{event_id:str}/reports",
        summary="A player reports their own match result (W-L-D from their side)",
        **HALL,
    )
    async def file_report(self, writer: WriterDep, data: JSONBody[ReportIn]) -> Response[ReportRow]:
        w = writer
        return await _hall(w, w.svc.report_as, w.event_id, data.result, table=data.table)

    @post(
        "/events/{event_id:str}/reports/{report:int}/confirm",
        summary="The opponent confirms a report: it becomes the table's result",
        **HALL,
    )
    async def confirm_report(self, writer: WriterDep, report: FromPath[int]) -> Response[ReportRow]:
        w = writer
        return await _hall(w, w.svc.answer_as, w.event_id, report, confirm=True)

    @post(
        "/events/{event_id:str}/reports/{report:int}/dispute",
        summary="The opponent disputes a report: the table waits for the staff's slip",
        **HALL,
    )
    async def dispute_report(
        self, writer: WriterDep, report: FromPath[int], data: JSONBody[DisputeIn]
    ) -> Response[ReportRow]:
        w, reason = writer, data.reason
        return await _hall(w, w.svc.answer_as, w.event_id, report, confirm=False, reason=reason)

    @get(
        "/events/{event_id:str}/reports",
        summary="Players' reports waiting (pending or disputed; all=true: every one), for staff",
        responses=PROBLEMS,
    )
    async def list_reports(
        self,
        web: WebDep,
        caller: CallerDep,
        event_id: EventId,
        all: FromQuery[bool] = False,
    ) -> list[ReportRow]:
        rows: list[ReportRow] = await web.run(web.svc.reports_as, caller, event_id, every=all)
        return rows


CALLS_HANDLERS: list[ControllerRouterHandler] = [CallsController]
