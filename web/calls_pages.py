"""The hall's page forms: a player calls a judge and reports or answers a result from their
page (``/events/ID/me/...``), anyone at a game's table page calls a judge to it
(``/games/ID/call``), and referees claim, escalate and resolve calls from ``/queue``.

Each form posts, the service decides (``service.calls``, with the request's principal),
and the answer is a redirect to the page (post/redirect/get: a reload asks the page again,
it never posts twice); a refusal is a short page naming the clause (status 400 or 403),
nothing stored. The pages themselves read the hall through the event's board and the
queue, so the forms work the same with JavaScript off.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from litestar import Request, Response, post
from litestar.params import FromPath
from litestar.response import Redirect

from service.access import AccessDeniedError
from service.errors import RefusedError
from web.context import Web, web_of
from web.export import render
from web.pages import _page, _who

__all__ = ["CALLS_PAGES"]

AnyRequest = Request[Any, Any, Any]


async def _form(request: AnyRequest) -> dict[str, str]:
    data = await request.form()
    return {str(k): str(v) for k, v in data.items()}


def _table(form: dict[str, str]) -> int | None:
    raw = form.get("table", "").strip()
    return int(raw) if raw.isdigit() else None


async def _act(
    request: AnyRequest, back: str, fn: Any, *args: Any, **kwargs: Any
) -> Response[str] | Redirect:
    """Run the hall command ``fn(who, *args)`` on the writer, then send the browser
    ``back`` (303); a refusal is a page of its own saying why."""
    web: Web = web_of(request)
    who = _who(web, request)
    if isinstance(who, Redirect):
        return who
    try:
        await web.run_write(fn, who, *args, **kwargs)
    except AccessDeniedError as exc:
        return _page(render("calls_said.html", who=who, text=str(exc), back=back), 403)
    except (RefusedError, ValueError) as exc:
        return _page(render("calls_said.html", who=who, text=str(exc), back=back), 400)
    finally:
        web.hub.poke()
    return Redirect(path=back, status_code=303)


def _mine(event_id: str) -> str:
    return f"/events/{quote(event_id)}/me"


@post("/events/{event_id:str}/me/call", include_in_schema=False, status_code=303)
async def my_call(request: AnyRequest, event_id: FromPath[str]) -> Response[str] | Redirect:
    form = await _form(request)
    svc = web_of(request).svc
    return await _act(
        request,
        _mine(event_id),
        svc.call_as,
        event_id,
        _table(form),
        reason=form.get("reason", "")[:1000],
    )


@post("/events/{event_id:str}/me/report", include_in_schema=False, status_code=303)
async def my_report(request: AnyRequest, event_id: FromPath[str]) -> Response[str] | Redirect:
    form = await _form(request)
    svc = web_of(request).svc
    return await _act(
        request,
        _mine(event_id),
        svc.report_as,
        event_id,
        form.get("result", "")[:100],
        table=_table(form),
    )


@post(
    "/events/{event_id:str}/me/reports/{report:int}/{answer:str}",
    include_in_schema=False,
    status_code=303,
)
async def my_answer(
    request: AnyRequest, event_id: FromPath[str], report: FromPath[int], answer: FromPath[str]
) -> Response[str] | Redirect:
    form = await _form(request)
    svc = web_of(request).svc
    if answer not in ("confirm", "dispute"):
        return _page(render("calls_said.html", who=None, text="confirm or dispute", back="/"), 404)
    return await _act(
        request,
        _mine(event_id),
        svc.answer_as,
        event_id,
        report,
        confirm=answer == "confirm",
        reason=form.get("reason", "")[:1000],
    )


@post("/games/{game_id:str}/call", include_in_schema=False, status_code=303)
async def game_call(request: AnyRequest, game_id: FromPath[str]) -> Response[str] | Redirect:
    form = await _form(request)
    svc = web_of(request).svc
    return await _act(
        request,
        f"/games/{quote(game_id)}",
        svc.game_call_as,
        game_id,
        reason=form.get("reason", "")[:1000],
    )


@post("/queue/calls/{event_id:str}/{call:int}/{step:str}", include_in_schema=False, status_code=303)
async def queue_step(
    request: AnyRequest, event_id: FromPath[str], call: FromPath[int], step: FromPath[str]
) -> Response[str] | Redirect:
    form = await _form(request)
    back = form.get("back", "/queue")
    if not back.startswith("/queue") or "//" in back:
        back = "/queue"
    svc = web_of(request).svc
    text = form.get("note" if step == "resolve" else "reason", "")[:1000]
    return await _act(request, back, svc.call_step_as, event_id, call, step, text)


CALLS_PAGES = [my_call, my_report, my_answer, game_call, queue_step]
