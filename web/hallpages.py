"""The hall's pages: the full-screen round clock ``/events/E/clock`` and its controls.

For the screen of the hall (and a phone): the round's time left in figures readable across
a room, and each table with extra time. The page is rendered with the time left at the
moment it is asked (``service.hall``); ``static/clock.js`` ticks it on the page and reads
the clock again every few seconds; without JavaScript the page reloads itself every 15
seconds, so the figure is never more than that old.

Its controls (the head referee's start, pause, resume and end; a table or head referee's
extra time for a table) are plain HTML forms posted to ``/events/E/clock/do``, which work
without JavaScript and are safe to reload like every page form (``web.formkeys``): carried
out once per key, then a redirect to the page with ``?said=KEY``, which shows what was done
or the refusal with its clause (EV-9.2, EV-9.4).
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote

from litestar import Request, Response, get, post
from litestar.params import FromPath, QueryParameter
from litestar.response import Redirect

from service.access import AccessDeniedError, authorize_clock, authorize_event
from service.errors import RefusedError
from web import formkeys
from web.context import web_of
from web.export import render
from web.pages import _page, _who

__all__ = ["HALL_PAGES"]

AnyRequest = Request[Any, Any, Any]

MARKS = ("start", "pause", "resume", "end")
"""The clock's marks (EV-9.2); the form's other action is ``extend`` (EV-9.4)."""
REASON_LONGEST = 200
"""An extension's reason is one line (the page offers a choice; a longer one is refused)."""


@get("/events/{event_id:str}/clock", include_in_schema=False)
async def clock_page(
    request: AnyRequest,
    event_id: FromPath[str],
    said_key: Annotated[str | None, QueryParameter(name="said")] = None,
) -> Response[str] | Redirect:
    """The clock page; ``?said=KEY`` (a control's redirect) shows what it did."""
    web = web_of(request)
    who = _who(web, request)
    if isinstance(who, Redirect):
        return who
    authorize_event(who, "read")
    view = await web.run(web.svc.event_clock_view, event_id)
    said = await formkeys.said(web, who, said_key)
    # the controls: the head's, and a table referee's of this event (their own tables)
    controls = who.role == "head" or (who.role == "table" and who.event == event_id.strip())
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


def _minutes(raw: str) -> int:
    if not raw.strip().isdigit():
        raise RefusedError(f"EV-9.4: extra time is a whole number of minutes, not {raw!r}")
    return int(raw.strip())


@post("/events/{event_id:str}/clock/do", include_in_schema=False, status_code=303)
async def clock_form(request: AnyRequest, event_id: FromPath[str]) -> Redirect:
    """A clock control of the page, carried out once per its key (``web.formkeys``) as
    ``POST /api/events/E/clock`` and ``.../tables/N/extensions`` do it (the same service
    calls, the same access check), then a redirect to the page showing the outcome."""
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
    action = form.get("action", "").strip()

    async def run() -> formkeys.Outcome:
        try:
            if action in MARKS:
                authorize_clock(who, event=event)
                view = await web.run_write(web.svc.event_clock, event, action, by=who.label)
                return formkeys.Outcome(True, f"round {view.round}'s clock: {view.state}", 201)
            if action != "extend":
                raise RefusedError(f"the clock's controls are {', '.join(MARKS)} and extend")
            raw_table = form.get("table", "").strip()
            if not raw_table.isdigit():
                raise RefusedError(f"EV-9.4: name the table, not {raw_table!r}")
            table = int(raw_table)
            authorize_clock(who, table=table, event=event)
            reason = form.get("reason", "").strip()
            if len(reason) > REASON_LONGEST:
                return formkeys.Outcome(
                    False,
                    f"the reason is {len(reason):,} characters; at most {REASON_LONGEST} are "
                    "taken; nothing was stored",
                    422,
                    form,
                )
            minutes = _minutes(form.get("minutes", ""))
            await web.run_write(
                web.svc.event_extend, event, table, minutes, reason=reason, by=who.label
            )
            return formkeys.Outcome(True, f"table {table}: {minutes} more minutes ({reason})", 201)
        except AccessDeniedError as exc:
            return formkeys.Outcome(False, str(exc), 403, form)
        except RefusedError as exc:
            return formkeys.Outcome(False, str(exc), 400, form)
        finally:
            web.hub.poke()

    said = await formkeys.once(web, who, request.url.path, form, key, run)
    target = f"/events/{quote(event, safe='')}/clock?said={quote(said.key or key, safe='')}"
    return Redirect(path=target + "#clock-said", status_code=303)


HALL_PAGES = [clock_page, clock_form]
