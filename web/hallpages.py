"""The hall's pages: the full-screen round clock ``/events/E/clock`` and its controls.

For the screen of the hall (and a phone): the round's time left in figures readable across
a room, and each table with extra time. The page is rendered with the time left at the
moment it is asked (``service.hall``); ``static/clock.js`` ticks it on the page and reads
the clock again every few seconds; without JavaScript the page reloads itself every 15
seconds, so the figure is never more than that old.

The page without controls (a player's, the public's: what thousands of phones read at a
round start) names no viewer and lists only the tables with extra time, so it is one
shared answer (``web.eventcache``) per viewer kind and event version, made again each
second while the clock runs (its figures move) and kept for the version otherwise; a mark
or an extension is a new version, so a new answer and tag at once. ``web.fastpath`` sends
it as kept. The head's and a table referee's page (their controls, their form keys) and
a page showing a control's outcome (``?said=``) are made for their reader.

Its controls (the head referee's start, pause, resume and end; a table or head referee's
extra time for a table) are plain HTML forms posted to ``/events/E/clock/do``, which work
without JavaScript and are safe to reload like every page form (``web.formkeys``): carried
out once per key, then a redirect to the page with ``?said=KEY``, which shows what was done
or the refusal with its clause (EV-9.2, EV-9.4).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Annotated, Any, ParamSpec, TypeVar
from urllib.parse import quote

from litestar import Request, Response, get, post
from litestar.params import FromPath, QueryParameter
from litestar.response import Redirect

from service.access import AccessDeniedError, Principal, authorize_event
from service.api import Need, admit, as_caller, need
from service.errors import RefusedError
from web import formkeys
from web.context import Web, web_of
from web.eventcache import Rendered, cache_of, rendered, respond
from web.eventpages import PAGE_HEADERS, event_version, shared_key
from web.export import render
from web.pages import HTML, _page, _who

__all__ = ["HALL_PAGES", "clock_key", "clock_shared"]

AnyRequest = Request[Any, Any, Any]

MARKS = ("start", "pause", "resume", "end")
"""The clock's marks (EV-9.2); the form's other action is ``extend`` (EV-9.4)."""
REASON_LONGEST = 200
"""An extension's reason is one line (the page offers a choice; a longer one is refused)."""
TICK = timedelta(seconds=1)
"""How long a shared clock page is kept while the clock runs (its figures move)."""


def clock_shared(who: Principal, event_id: str) -> bool:
    """Whether ``who`` reads the shared clock page: anyone without its controls (the head's
    marks, a table referee's extensions at their own event)."""
    return not (who.role == "head" or (who.role == "table" and who.event == event_id.strip()))


def clock_key(event_id: str, version: int, who: Principal, path: str) -> tuple[Any, ...]:
    """The shared clock page's key (``web.fastpath`` looks it up by the same key)."""
    return shared_key(event_id, version, who, path, ("clock",))


async def _shared_clock(
    request: AnyRequest, web: Web, who: Principal, event_id: str
) -> Response[bytes]:
    """The clock page for ``who`` (``clock_shared``), made once for every reader of their
    kind: at each version, and each second while the clock runs. It shows the clock at the
    second's start, so every server process (``--workers``) makes the same bytes and tag
    within a second, and a tag one gave is answered 304 by the other."""
    version = await event_version(web, event_id)
    key = clock_key(event_id, version, who, request.url.path)
    now: datetime = web.svc.clock()
    moment = now.replace(microsecond=0)

    async def compute() -> Rendered:
        view = await web.run(  # shared by readers of every role: no reasons (EV-10.7)
            web.svc.event_clock_view, event_id, now=moment, tables="extended", reasons=False
        )
        page = render(
            "event_clock.html", c=view, standalone=True, controls=False, **formkeys.key_field()
        )
        entry = rendered((*key, moment.isoformat()), page, HTML)  # the tag names the moment
        entry.until = moment + TICK if view.running else None
        return entry

    cache = cache_of(web)
    entry = await cache.get(key, compute, now=now)
    return respond(request, entry, cache=cache, headers=PAGE_HEADERS)


@get("/events/{event_id:str}/clock", include_in_schema=False)
async def clock_page(
    request: AnyRequest,
    event_id: FromPath[str],
    said_key: Annotated[str | None, QueryParameter(name="said")] = None,
) -> Response[str] | Response[bytes] | Redirect:
    """The clock page; ``?said=KEY`` (a control's redirect) shows what it did."""
    web = web_of(request)
    who = _who(web, request)
    if isinstance(who, Redirect):
        return who
    authorize_event(who, "read")
    # the controls: the head's, and a table referee's of this event (their own tables)
    controls = not clock_shared(who, event_id)
    if not controls and said_key is None:
        return await _shared_clock(request, web, who, event_id)
    view = await web.run(web.svc.event_clock_view, event_id, reasons=controls)
    said = await formkeys.said(web, who, said_key)
    return _page(
        render(
            "event_clock.html",
            who=who,
            c=view,
            standalone=True,
            controls=controls,
            said=said,
            **formkeys.key_field(),
        )
    )


P = ParamSpec("P")
R = TypeVar("R")


def _admitted(who: Principal, fn: Callable[P, R], wanted: Need) -> Callable[P, R]:
    """``fn``, an event's write made by ``who``: the write pipeline's authorize stage run now,
    before the rest of the form is read (a role that may not is answered 403 first), and
    kept for the write, whose stage does not decide it again."""
    admit(who, wanted)
    return as_caller(who, fn, wanted)


def _minutes(raw: str) -> int:
    if not raw.strip().isdigit():
        raise RefusedError(f"EV-9.4: extra time is a whole number of minutes, not {raw!r}")
    return int(raw.strip())


Act = Callable[[Principal, str, dict[str, str]], Awaitable[formkeys.Outcome]]


async def _staff_form(request: AnyRequest, event_id: str, page: str, act: Act) -> Redirect:
    """A staff form of the event's ``page`` (the clock, the slips): ``act(who, event,
    form)`` carried out once per the form's key (``web.formkeys``), a refusal kept with
    its clause and what was typed, then a redirect to the page showing the outcome."""
    web = web_of(request)
    who = _who(web, request)
    if isinstance(who, Redirect):
        return who
    data = await request.form()
    form = {str(k): str(v) for k, v in data.items()}
    key = form.pop(formkeys.FIELD, "").strip()
    if not formkeys.valid_key(key):
        key = formkeys.new_key()  # a form without one (a script): carried out, still redirected
    event = event_id.strip()

    async def run() -> formkeys.Outcome:
        try:
            return await act(who, event, form)
        except AccessDeniedError as exc:
            return formkeys.Outcome(False, str(exc), 403, form)
        except _TooLong as exc:
            return formkeys.Outcome(False, str(exc), 422, form)
        except (RefusedError, ValueError) as exc:
            return formkeys.Outcome(False, str(exc), 400, form)
        finally:
            web.hub.poke()

    said = await formkeys.once(web, who, request.url.path, form, key, run)
    target = f"/events/{quote(event, safe='')}/{page}?said={quote(said.key or key, safe='')}"
    return Redirect(path=f"{target}#{page}-said", status_code=303)


class _TooLong(Exception):
    """A field of the form past its bound: refused (422) before anything is stored."""


def _bounded(form: dict[str, str], field: str, longest: int) -> str:
    """``form``'s ``field``, stripped; one past ``longest`` characters is refused
    (``_TooLong``, answered by ``_staff_form``: nothing stored)."""
    value = form.get(field, "").strip()
    if len(value) > longest:
        raise _TooLong(
            f"the {field} is {len(value):,} characters; at most {longest:,} are taken; "
            "nothing was stored"
        )
    return value


def _table_of(form: dict[str, str], clause: str) -> int:
    raw = form.get("table", "").strip()
    if not raw.isdigit():
        raise RefusedError(f"{clause}: name the table, not {raw!r}")
    return int(raw)


@post("/events/{event_id:str}/clock/do", include_in_schema=False, status_code=303)
async def clock_form(request: AnyRequest, event_id: FromPath[str]) -> Redirect:
    """A clock control of the page, carried out once per its key (``web.formkeys``) as
    ``POST /api/events/E/clock`` and ``.../tables/N/extensions`` do it (the same service
    calls, the same access check), then a redirect to the page showing the outcome."""
    web = web_of(request)

    async def act(who: Principal, event: str, form: dict[str, str]) -> formkeys.Outcome:
        action = form.get("action", "").strip()
        if action in MARKS:
            mark = _admitted(who, web.svc.event_clock, need("clock"))
            view = await web.run_event_write(mark, event, action, by=who.label)
            return formkeys.Outcome(True, f"{view.stage}'s clock: {view.state}", 201)
        if action != "extend":
            raise RefusedError(f"the clock's controls are {', '.join(MARKS)} and extend")
        table = _table_of(form, "EV-9.4")
        extend = _admitted(who, web.svc.event_extend, need("clock", event, (table,)))
        reason = _bounded(form, "reason", REASON_LONGEST)
        minutes = _minutes(form.get("minutes", ""))
        await web.run_event_write(extend, event, table, minutes, reason=reason, by=who.label)
        more = f"{minutes} more minute{'' if minutes == 1 else 's'}"
        return formkeys.Outcome(True, f"table {table}: {more} ({reason})", 201)

    return await _staff_form(request, event_id, "clock", act)


SLIP_LONGEST = 1000
"""A slip's bound on the page, as an entry's line (docs/forms.md, Bounds)."""


@post("/events/{event_id:str}/slips/do", include_in_schema=False, status_code=303)
async def slip_form(request: AnyRequest, event_id: FromPath[str]) -> Redirect:
    """A table's slip entered on the slips page by the staff (the head referee, the
    scorekeeper, a table referee at their own table), carried out once per its key as
    ``POST /api/events/E/results`` does it (the same service call and access check; the
    slip supersedes the players' pending or disputed reports, EV-11.6), then a redirect to
    the slips page showing what was recorded or the refusal with its clause."""
    web = web_of(request)

    async def act(who: Principal, event: str, form: dict[str, str]) -> formkeys.Outcome:
        table = _table_of(form, "EV-3.1")
        enter = _admitted(who, web.svc.event_result, need("result", event, (table,)))
        result = _bounded(form, "result", SLIP_LONGEST)
        await web.run_event_write(enter, event, [f"{table}={result}"], by=who.label)
        return formkeys.Outcome(True, f"table {table}: {result} recorded", 201)

    return await _staff_form(request, event_id, "slips", act)


HALL_PAGES = [clock_page, clock_form, slip_form]
