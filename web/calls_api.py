"""The hall's API routes: judge calls (``.../calls``) and players' own results
(``.../reports``), over ``service.calls`` (which also says who may: the request's
principal is handed to it).

Status codes as for the other event routes: 201 written, 400 refused (the ``EV-`` clause,
nothing stored), 403 the role may not, 404 no such event or game, 409 another write came
first, 422 a field longer than its bound. Every write pokes the live hub, so the queue's
stream (``/api/queue/events``) and the event's pages move at once.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath, FromQuery, JSONBody
from litestar.types import ControllerRouterHandler

from service.access import Principal
from service.api import CALL_SECONDS, NOTE_LIMIT, REASON_LIMIT, CallRow, ReportRow
from web.api import PROBLEMS
from web.context import Web
from web.guards import CallerDep, WebDep, event_terms
from web.problems import Problem

__all__ = ["CALLS_HANDLERS"]

AnyRequest = Request[Any, Any, Any]

WRITES = {
    **PROBLEMS,
    422: ResponseSpec(
        data_container=Problem,
        description="A reason, note or result longer than its bound; nothing stored",
        media_type="application/problem+json",
    ),
}

Reason = Annotated[str, msgspec.Meta(max_length=REASON_LIMIT)]
Note = Annotated[str, msgspec.Meta(max_length=NOTE_LIMIT)]


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


def _created(body: Any) -> Response[Any]:
    return Response(content=body, status_code=201)


async def _step(
    web: Web, caller: Principal, event_id: str, call: int, step: str, text: str = ""
) -> Response[CallRow]:
    return _created(await web.run_write(web.svc.call_step_as, caller, event_id, call, step, text))


class CallsController(Controller):
    """The hall's calls and reports: a judge called to a table, its steps, and players' own
    results (the service says who may: the caller is handed to it)."""

    path = "/api"
    tags = ("hall",)

    @post(
        "/events/{event_id:str}/calls",
        summary="Call a judge to a table of the current round (a player: to their own table)",
        responses=WRITES,
        status_code=201,
    )
    async def call_judge(
        self,
        request: AnyRequest,
        web: WebDep,
        caller: CallerDep,
        event_id: FromPath[str],
        data: JSONBody[CallIn],
    ) -> Response[CallRow]:
        row = await web.run_write(
            web.svc.call_as,
            caller,
            event_id,
            data.table,
            reason=data.reason,
            **event_terms(request),
        )
        return _created(row)

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
        event_id: FromPath[str],
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
        responses=WRITES,
        status_code=201,
    )
    async def claim_call(
        self, web: WebDep, caller: CallerDep, event_id: FromPath[str], call: FromPath[int]
    ) -> Response[CallRow]:
        return await _step(web, caller, event_id, call, "claim")

    @post(
        "/events/{event_id:str}/calls/{call:int}/escalate",
        summary="Escalate a judge call to the head referee",
        responses=WRITES,
        status_code=201,
    )
    async def escalate_call(
        self,
        web: WebDep,
        caller: CallerDep,
        event_id: FromPath[str],
        call: FromPath[int],
        data: JSONBody[EscalateIn],
    ) -> Response[CallRow]:
        return await _step(web, caller, event_id, call, "escalate", data.reason)

    @post(
        "/events/{event_id:str}/calls/{call:int}/resolve",
        summary="Resolve a judge call with a note of what was done",
        responses=WRITES,
        status_code=201,
    )
    async def resolve_call(
        self,
        web: WebDep,
        caller: CallerDep,
        event_id: FromPath[str],
        call: FromPath[int],
        data: JSONBody[ResolveIn],
    ) -> Response[CallRow]:
        return await _step(web, caller, event_id, call, "resolve", data.note)

    @post(
        "/games/{game_id:str}/calls",
        summary="Call a judge from a game's page: to the event table the game is played at",
        responses=WRITES,
        status_code=201,
    )
    async def call_from_game(
        self,
        request: AnyRequest,
        web: WebDep,
        caller: CallerDep,
        game_id: FromPath[str],
        data: JSONBody[GameCallIn],
    ) -> Response[CallRow]:
        return _created(
            await web.run_write(
                web.svc.game_call_as, caller, game_id, reason=data.reason, **event_terms(request)
            )
        )

    @post(
        "/events/{event_id:str}/reports",
        summary="A player reports their own match result (W-L-D from their side)",
        responses=WRITES,
        status_code=201,
    )
    async def file_report(
        self,
        request: AnyRequest,
        web: WebDep,
        caller: CallerDep,
        event_id: FromPath[str],
        data: JSONBody[ReportIn],
    ) -> Response[ReportRow]:
        row = await web.run_write(
            web.svc.report_as,
            caller,
            event_id,
            data.result,
            table=data.table,
            **event_terms(request),
        )
        return _created(row)

    @post(
        "/events/{event_id:str}/reports/{report:int}/confirm",
        summary="The opponent confirms a report: it becomes the table's result",
        responses=WRITES,
        status_code=201,
    )
    async def confirm_report(
        self,
        request: AnyRequest,
        web: WebDep,
        caller: CallerDep,
        event_id: FromPath[str],
        report: FromPath[int],
    ) -> Response[ReportRow]:
        return _created(
            await web.run_write(
                web.svc.answer_as, caller, event_id, report, confirm=True, **event_terms(request)
            )
        )

    @post(
        "/events/{event_id:str}/reports/{report:int}/dispute",
        summary="The opponent disputes a report: the table waits for the staff's slip",
        responses=WRITES,
        status_code=201,
    )
    async def dispute_report(
        self,
        request: AnyRequest,
        web: WebDep,
        caller: CallerDep,
        event_id: FromPath[str],
        report: FromPath[int],
        data: JSONBody[DisputeIn],
    ) -> Response[ReportRow]:
        row = await web.run_write(
            web.svc.answer_as,
            caller,
            event_id,
            report,
            confirm=False,
            reason=data.reason,
            **event_terms(request),
        )
        return _created(row)

    @get(
        "/events/{event_id:str}/reports",
        summary="Players' reports waiting (pending or disputed; all=true: every one), for staff",
        responses=PROBLEMS,
    )
    async def list_reports(
        self,
        web: WebDep,
        caller: CallerDep,
        event_id: FromPath[str],
        all: FromQuery[bool] = False,
    ) -> list[ReportRow]:
        rows: list[ReportRow] = await web.run(web.svc.reports_as, caller, event_id, every=all)
        return rows


CALLS_HANDLERS: list[ControllerRouterHandler] = [CallsController]
