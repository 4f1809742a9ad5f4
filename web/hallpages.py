"""The hall's pages: the full-screen round clock ``/events/E/clock``.

For the screen of the hall (and a phone): the round's time left in figures readable across
a room, and each table with extra time. The page is rendered with the time left at the
moment it is asked (``service.hall``); ``static/clock.js`` ticks it on the page and reads
the clock again every few seconds; without JavaScript the page reloads itself every 15
seconds, so the figure is never more than that old.
"""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, get
from litestar.params import FromPath
from litestar.response import Redirect

from service.access import authorize_event
from web.context import web_of
from web.export import render
from web.pages import _page, _who

__all__ = ["HALL_PAGES"]

AnyRequest = Request[Any, Any, Any]


@get("/events/{event_id:str}/clock", include_in_schema=False)
async def clock_page(request: AnyRequest, event_id: FromPath[str]) -> Response[str] | Redirect:
    web = web_of(request)
    who = _who(web, request)
    if isinstance(who, Redirect):
        return who
    authorize_event(who, "read")
    view = await web.run(web.svc.event_clock_view, event_id)
    # the buttons need JavaScript (shown by it); a table referee's are their own event's
    controls = who.role == "head" or (who.role == "table" and who.event == event_id.strip())
    return _page(render("event_clock.html", who=who, c=view, standalone=True, controls=controls))


HALL_PAGES = [clock_page]
