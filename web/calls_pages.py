"""The hall's page forms: a player calls a judge, reports or answers a result and hands in
their own decklist (EV-2.8) from their page (``/events/ID/me/...``), anyone at a game's
table page calls a judge to it (``/games/ID/call``), and referees claim, escalate and
resolve calls from ``/queue``.

Each form posts, the service decides (``service.calls``, with the request's principal),
and the answer is a redirect (post/redirect/get: a reload asks the page again): to the page
when carried out, and to the form's own address with ``?said=KEY`` when refused, whose page
names the clause and draws the form again as typed (nothing stored). Like every page form,
each carries an idempotency key made when its page was rendered (``web.formkeys``): the same
post sent again (a reload of the post, a double click, the back button's copy) is carried
out once and redirected as the first was. A refused post leaves its key free (nothing was
stored; the refusal is kept under a key of its own), so the form corrected and sent again
from the same page is carried out. The pages themselves read the hall through the event's
board and the queue, so the forms work the same with JavaScript off.
The table page and a player's page also show what a form carried out did (``?said=KEY``).
"""

from __future__ import annotations

from typing import Any, NamedTuple
from urllib.parse import quote

from litestar import Request, Response, get, post
from litestar.params import FromPath
from litestar.response import Redirect

from service.access import AccessDeniedError, Principal
from service.api import NOTE_LIMIT, REASON_LIMIT, DeckReceived, as_caller
from service.bounds import LIST
from service.errors import RefusedError
from web import formkeys
from web.context import Web, web_of
from web.export import render
from web.pages import _page
from web.problems import SIGN_IN

__all__ = ["CALLS_PAGES"]

AnyRequest = Request[Any, Any, Any]


async def _form(request: AnyRequest) -> dict[str, str]:
    data = await request.form()
    return {str(k): str(v) for k, v in data.items()}


RESULT_LIMIT = 20
"""A result's bound, as ``POST /api/events/ID/reports`` takes it (``ReportIn.result``)."""

DONE = {
    "call": "a judge is called",
    "report": "your result is reported",
    "confirm": "the result is confirmed",
    "dispute": "the result is disputed",
    "claim": "the call is claimed",
    "escalate": "the call is escalated",
    "resolve": "the call is resolved",
    "decklist": "your decklist is received",
}
"""What a form did, shown by the page its redirect lands on (``?said=KEY``)."""


def _done(step: str, row: Any) -> str:
    """What the form ``step`` did, in words (``DONE``), with what the service answered
    where it tells more (a decklist: its size and until when it may be replaced)."""
    if isinstance(row, DeckReceived):
        return (
            f"your decklist is received ({row.cards} cards); it can be replaced until round "
            f"{row.lock_round} is paired (EV-2.8)"
        )
    return DONE.get(step, f"{step}: done")


BOUNDS = {"reason": REASON_LIMIT, "note": NOTE_LIMIT, "result": RESULT_LIMIT, "decklist": LIST}
"""The API's bounds for the hall forms' fields (``web.calls_api``'s bodies): a longer value
is refused with 422 before anything runs, as the API refuses it (docs/forms.md, Bounds)."""


def _too_long(form: dict[str, str]) -> str:
    """Why a field of ``form`` is past its bound (``BOUNDS``), or ``""``."""
    for field, bound in BOUNDS.items():
        length = len(form.get(field, ""))
        if length > bound:
            return f"the {field} is {length:,} characters; at most {bound:,} are taken"
    return ""


def _table(form: dict[str, str]) -> int | None:
    raw = form.get("table", "").strip()
    return int(raw) if raw.isdigit() else None


LABELS = {
    "reason": "Reason",
    "result": "My result (my wins-losses-draws)",
    "note": "What was done",
    "decklist": "My decklist, one card a line",
}
"""The hall forms' fields a person types (the rest, such as ``table`` and ``back``, are hidden)."""
AREAS = frozenset({"decklist"})
"""The typed fields of many lines: drawn again as a text area, so the lines are kept."""


class Again(NamedTuple):
    """A refused hall form drawn again on its refusal page, with what was typed and a fresh
    key, to be corrected and sent from there (the Back link's page draws it empty)."""

    action: str
    key: str
    fields: list[tuple[str, str, str]]  # name, value, label ("" for a hidden field)
    bounds: dict[str, int]


def _said(
    request: AnyRequest, who: Principal, said: formkeys.Outcome, back: str, form: dict[str, str]
) -> str:
    """The refusal page: why, the way back, and the form again when it has a typed field."""
    fields = [(name, value, LABELS.get(name, "")) for name, value in form.items()]
    typed = any(label for _, _, label in fields)
    again = Again(request.url.path, formkeys.new_key(), fields, BOUNDS) if typed else None
    return render(
        "calls_said.html",
        areas=AREAS,
        who=who,
        text=said.message,
        status=said.status,
        back=back,
        again=again,
        idem_field=formkeys.FIELD,
    )


class _Refused(Exception):
    """A hall command refused (nothing stored): raised out of ``formkeys.once`` so that the
    key is released, not kept with the refusal (see ``_act``)."""

    def __init__(self, text: str, status: int) -> None:
        super().__init__(text)
        self.text = text
        self.status = status


async def _act(
    request: AnyRequest, form: dict[str, str], back: str, fn: Any, *args: Any, **kwargs: Any
) -> Redirect:
    """Run the hall command ``fn(who, *args)`` on the writer once per the form's key
    (``web.formkeys``), then send the browser ``back`` (303; to a table page or a player's
    page with ``?said=KEY``, which it shows; the queue shows the call itself).

    A refusal is answered 303 too, to the form's own address with ``?said=KEY``
    (``refusal``): its page says why, with the form again as typed, and a reload of it is
    a read, never the post sent again. The refusal is kept under a key of its own and the
    form's key is left free: a player's page is kept per event version
    (``web.eventpages``) and hands out the same key until something is recorded, so the
    form corrected and sent again from that page must be carried out."""
    web: Web = web_of(request)
    who = web.principal(request)  # without a token: the sign-in page (SIGN_IN)
    key = form.pop(formkeys.FIELD, "").strip()
    if not formkeys.valid_key(key):
        key = formkeys.new_key()  # a form without one (a script): carried out once all the same
    too_long = _too_long(form)
    if too_long:  # refused as the API refuses it, before anything runs; the key stays free
        return await _refused(request, web, who, formkeys.Outcome(False, too_long, 422, form))

    async def run() -> formkeys.Outcome:
        try:
            row = await web.run_event_write(as_caller(who, fn), who, *args, **kwargs)
        except AccessDeniedError as exc:
            raise _Refused(str(exc), 403) from exc
        except (RefusedError, ValueError) as exc:
            raise _Refused(str(exc), 400) from exc
        finally:
            web.hub.poke()
        step = request.url.path.rstrip("/").rsplit("/", 1)[-1]
        return formkeys.Outcome(True, _done(step, row), 200)

    try:
        said = await formkeys.once(web, who, request.url.path, form, key, run)
    except _Refused as refused:  # nothing stored, the key released by ``once``
        outcome = formkeys.Outcome(False, refused.text, refused.status, form)
        return await _refused(request, web, who, outcome)
    if not said.ok:  # the key sent before with other values, or still being carried out
        return await _refused(request, web, who, said)
    if back.startswith(("/games/", "/events/")):  # the table page and a player's page show
        back += f"?said={quote(said.key, safe='')}#said"  # what a form did (``?said=KEY``)
    return Redirect(path=back, status_code=303)


async def _refused(
    request: AnyRequest, web: Web, who: Principal, outcome: formkeys.Outcome
) -> Redirect:
    """Keep a refused hall form's outcome under a key of its own (``formkeys.note``: the
    form's key stays free) and send the browser to the form's address, which shows it."""
    if not outcome.key:
        outcome = await formkeys.note(web, who, outcome)
    shown = quote(outcome.key, safe="")
    return Redirect(path=f"{request.url.path}?said={shown}#said", status_code=303)


async def refusal(request: AnyRequest, back: str) -> Response[str] | Redirect:
    """``GET`` of a hall form's address after its refusal (``?said=KEY``): the refusal
    page, why with its clause and the form again as typed under a fresh key, for as long as
    ``formkeys.FLASH_SECONDS``; without a fresh refusal, the page the form is on."""
    web: Web = web_of(request)
    who = web.principal(request)  # without a token: the sign-in page (SIGN_IN)
    said = await formkeys.said(web, who, request.query_params.get("said"))
    if said is None or said.ok:
        return Redirect(path=back, status_code=303)
    if request.url.path.startswith("/queue/"):
        back = _queue_back(said.form)
    return _page(_said(request, who, said, back, said.form), 200)


def _queue_back(form: dict[str, str]) -> str:
    """Where a queue form leads back to: its ``back`` field, a page of the queue only."""
    back = form.get("back", "/queue")
    return back if back.startswith("/queue") and "//" not in back else "/queue"


def _text(form: dict[str, str], field: str) -> str:
    """A field of the form as sent: one past its bound is refused by ``_act`` (``BOUNDS``)
    before the action runs, never cut and stored."""
    return form.get(field, "")


def _form_route(path: str) -> post:
    """The route of a page's form: posted by a browser, answered 303 to a page (``_act``),
    signed in first (``SIGN_IN``), kept out of the OpenAPI document."""
    return post(path, include_in_schema=False, status_code=303, opt=SIGN_IN)


def _refusal_route(path: str) -> get:
    """The ``GET`` of a form's route: its refusal's page (``refusal``), as ``_form_route``."""
    return get(path, include_in_schema=False, opt=SIGN_IN)


async def _as_player(
    request: AnyRequest, event_id: str, form: dict[str, str], fn: Any, *args: Any, **kwargs: Any
) -> Redirect:
    """``_act`` for a form of a player's own page: the command on ``event_id``, then back
    to that page."""
    back = _player_back(event_id)
    return await _act(request, form, back, fn, event_id, *args, **kwargs)


def _player_back(event_id: str) -> str:
    return f"/events/{quote(event_id)}/me"


@_form_route("/events/{event_id:str}/me/call")
async def my_call(request: AnyRequest, event_id: FromPath[str]) -> Redirect:
    form = await _form(request)
    call = web_of(request).svc.call_as
    return await _as_player(
        request, event_id, form, call, _table(form), reason=_text(form, "reason")
    )


@_form_route("/events/{event_id:str}/me/report")
async def my_report(request: AnyRequest, event_id: FromPath[str]) -> Redirect:
    form = await _form(request)
    report = web_of(request).svc.report_as
    return await _as_player(
        request, event_id, form, report, _text(form, "result"), table=_table(form)
    )


@_form_route("/events/{event_id:str}/me/decklist")
async def my_decklist(request: AnyRequest, event_id: FromPath[str]) -> Redirect:
    """A player hands in or replaces their own decklist (EV-2.8: until the deadline round
    is paired), checked as the head's (``decklist_as``)."""
    form = await _form(request)
    hand_in = web_of(request).svc.decklist_as
    return await _as_player(request, event_id, form, hand_in, _text(form, "decklist"))


@_refusal_route("/events/{event_id:str}/me/decklist")
async def my_decklist_refused(
    request: AnyRequest, event_id: FromPath[str]
) -> Response[str] | Redirect:
    return await refusal(request, _player_back(event_id))


@_refusal_route("/events/{event_id:str}/me/call")
async def my_call_refused(request: AnyRequest, event_id: FromPath[str]) -> Response[str] | Redirect:
    return await refusal(request, _player_back(event_id))


@_refusal_route("/events/{event_id:str}/me/report")
async def my_report_refused(
    request: AnyRequest, event_id: FromPath[str]
) -> Response[str] | Redirect:
    return await refusal(request, _player_back(event_id))


@_form_route("/events/{event_id:str}/me/reports/{report:int}/{answer:str}")
async def my_answer(
    request: AnyRequest, event_id: FromPath[str], report: FromPath[int], answer: FromPath[str]
) -> Response[str] | Redirect:
    """Confirm or dispute the opponent's report; another word in the address is no form
    (404, a page: nothing was posted from a page there, nothing to reload)."""
    form = await _form(request)
    svc = web_of(request).svc
    if answer not in ("confirm", "dispute"):
        return _page(render("calls_said.html", who=None, text="confirm or dispute", back="/"), 404)
    return await _as_player(
        request,
        event_id,
        form,
        svc.answer_as,
        report,
        confirm=answer == "confirm",
        reason=_text(form, "reason"),
    )


@_refusal_route("/events/{event_id:str}/me/reports/{report:int}/{answer:str}")
async def my_answer_refused(
    request: AnyRequest, event_id: FromPath[str], report: FromPath[int], answer: FromPath[str]
) -> Response[str] | Redirect:
    return await refusal(request, _player_back(event_id))


@_form_route("/games/{game_id:str}/call")
async def game_call(request: AnyRequest, game_id: FromPath[str]) -> Redirect:
    form = await _form(request)
    svc = web_of(request).svc
    return await _act(
        request,
        form,
        f"/games/{quote(game_id)}",
        svc.game_call_as,
        game_id,
        reason=_text(form, "reason"),
    )


@_refusal_route("/games/{game_id:str}/call")
async def game_call_refused(
    request: AnyRequest, game_id: FromPath[str]
) -> Response[str] | Redirect:
    return await refusal(request, f"/games/{quote(game_id)}")


@_form_route("/queue/calls/{event_id:str}/{call:int}/{step:str}")
async def queue_step(
    request: AnyRequest, event_id: FromPath[str], call: FromPath[int], step: FromPath[str]
) -> Redirect:
    form = await _form(request)
    back = _queue_back(form)
    svc = web_of(request).svc
    text = _text(form, "note" if step == "resolve" else "reason")
    return await _act(request, form, back, svc.call_step_as, event_id, call, step, text)


@_refusal_route("/queue/calls/{event_id:str}/{call:int}/{step:str}")
async def queue_step_refused(
    request: AnyRequest, event_id: FromPath[str], call: FromPath[int], step: FromPath[str]
) -> Response[str] | Redirect:
    return await refusal(request, "/queue")


CALLS_PAGES = [
    my_call,
    my_report,
    my_decklist,
    my_decklist_refused,
    my_answer,
    game_call,
    queue_step,
    my_call_refused,
    my_report_refused,
    my_answer_refused,
    game_call_refused,
    queue_step_refused,
]
