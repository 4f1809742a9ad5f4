"""The event (tournament) pages: the two pairings postings (by table, by name), the
standings with each figure explained on demand, a player's own page, result slips to print,
the verifiable posting files, and a live stream that tells the pages the event moved.

Every page reads the event through the application layer (``service.postings``) and only
lays it out; the stylesheet's print rules fit a posting of 60 players on one A4 or Letter
page. A page that is open follows ``/events/ID/live`` (server-sent events, resumed with
``Last-Event-ID``) and reads itself again when the event's stream moves (``event.js``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, Any
from urllib.parse import quote

import msgspec
from litestar import Request, Response, get, post
from litestar.params import FromPath, FromQuery, JSONBody, QueryParameter
from litestar.response import Redirect, ServerSentEvent, ServerSentEventMessage

from service.access import authorize_event
from service.postings import (
    Posted,
    Posting,
    PostingReport,
)
from web.context import Web, web_of
from web.export import render
from web.pages import _page, _who

__all__ = ["HANDLERS"]

AnyRequest = Request[Any, Any, Any]
RoundQuery = Annotated[int | None, QueryParameter(name="round", ge=1)]


def _posted(
    web: Web, event_id: str, kind: str, round_number: int | None, shown: list[dict[str, Any]]
) -> Posted | None:
    """The footer of a posting page: the checkpoint its file is computed at, if any, and
    whether the rows ``shown`` are exactly that file's (else the page is ahead of the seal)."""
    from service.errors import RefusedError

    try:
        posting, later = web.svc.event_posting(event_id, kind, round_number)
    except RefusedError:
        return None
    query = f"?round={posting.round}" if posting.round is not None else ""
    return Posted(
        checkpoint=posting.checkpoint,
        version=posting.version,
        later=later,
        href=f"/events/{quote(event_id)}/postings/{kind}{query}",
        current=posting.body == shown,
    )


def _context(who: Any, **more: Any) -> dict[str, Any]:
    return {"who": who, "can_create": who.role in ("head", "table"), **more}


@get("/events", include_in_schema=False)
async def events_page(request: AnyRequest) -> Response[str] | Redirect:
    web = web_of(request)
    who = _who(web, request)
    if isinstance(who, Redirect):
        return who
    rows = await web.run(web.svc.event_list)
    return _page(render("events.html", events=rows, **_context(who)))


@get("/events/{event_id:str}", include_in_schema=False)
async def event_home(event_id: FromPath[str]) -> Redirect:
    return Redirect(path=f"/events/{quote(event_id)}/pairings", status_code=303)


@get("/events/{event_id:str}/pairings", include_in_schema=False)
async def pairings_page(
    request: AnyRequest,
    event_id: FromPath[str],
    round_: RoundQuery = None,
    by: FromQuery[str] = "table",
) -> Response[str] | Redirect:
    web = web_of(request)
    who = _who(web, request)
    if isinstance(who, Redirect):
        return who
    board, _ = await web.run(web.svc.event_board, event_id, round_, with_standings=False)
    posted = (
        await web.run(_posted, web, event_id, "pairings", board.round, board.pairings)
        if board.round
        else None
    )
    return _page(
        render(
            "event_pairings.html",
            b=board,
            page="name" if by == "name" else "table",
            posted=posted,
            what="round's pairings",
            **_context(who),
        )
    )


@get("/events/{event_id:str}/standings", include_in_schema=False)
async def standings_page(
    request: AnyRequest,
    event_id: FromPath[str],
    round_: RoundQuery = None,
    explain: FromQuery[str | None] = None,
) -> Response[str] | Redirect:
    web = web_of(request)
    who = _who(web, request)
    if isinstance(who, Redirect):
        return who
    board, _ = await web.run(web.svc.event_board, event_id, None, standings_after=round_)
    explained = None
    if explain:
        explained = {
            "player": explain,
            "text": await web.run(web.svc.event_explain, event_id, explain, round_),
        }
    posted = await web.run(_posted, web, event_id, "standings", round_, board.standings)
    return _page(
        render(
            "event_standings.html",
            b=board,
            page="standings",
            posted=posted,
            explained=explained,
            what="standing",
            **_context(who),
        )
    )


@get("/events/{event_id:str}/me", include_in_schema=False)
async def my_page(request: AnyRequest, event_id: FromPath[str]) -> Redirect:
    """A player's token leads to their own page; anyone else (or a player not in this event)
    finds their name on the posting by name."""
    web = web_of(request)
    who = _who(web, request)
    if isinstance(who, Redirect):
        return who
    state = await web.run(web.svc.event_state, event_id)
    if who.role == "player" and state.find(who.name) is not None:
        return Redirect(
            path=f"/events/{quote(event_id)}/players/{quote(who.name)}", status_code=303
        )
    return Redirect(path=f"/events/{quote(event_id)}/pairings?by=name", status_code=303)


@get("/events/{event_id:str}/players/{name:str}", include_in_schema=False)
async def player_page(
    request: AnyRequest, event_id: FromPath[str], name: FromPath[str]
) -> Response[str] | Redirect:
    web = web_of(request)
    who = _who(web, request)
    if isinstance(who, Redirect):
        return who
    board, me = await web.run(web.svc.event_player, event_id, name)
    explained = await web.run(web.svc.event_explain, event_id, me.player, None)
    return _page(
        render(
            "event_player.html",
            b=board,
            page="player",
            me=me,
            explained=explained,
            **_context(who),
        )
    )


@get("/events/{event_id:str}/slips", include_in_schema=False)
async def slips_page(
    request: AnyRequest, event_id: FromPath[str], round_: RoundQuery = None
) -> Response[str] | Redirect:
    web = web_of(request)
    who = _who(web, request)
    if isinstance(who, Redirect):
        return who
    board, _ = await web.run(web.svc.event_board, event_id, round_, with_standings=False)
    return _page(render("event_slips.html", b=board, page="slips", **_context(who)))


@get("/events/{event_id:str}/postings/{kind:str}", include_in_schema=False)
async def posting_file(
    request: AnyRequest,
    event_id: FromPath[str],
    kind: FromPath[str],
    round_: RoundQuery = None,
) -> Response[bytes] | Redirect:
    """The verifiable posting as a file (what ``referee event verify --posting`` reads)."""
    web = web_of(request)
    who = _who(web, request)
    if isinstance(who, Redirect):
        return who
    posting, _ = await web.run(web.svc.event_posting, event_id, kind, round_)
    round_part = f"-round{posting.round}" if posting.round is not None else ""
    filename = f"{event_id}-{kind}{round_part}-posting.json"
    return Response(
        content=msgspec.json.format(msgspec.json.encode(posting), indent=1) + b"\n",
        media_type="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "Cache-Control": "no-store",
        },
    )


@get("/events/{event_id:str}/live", include_in_schema=False)
async def event_live(
    request: AnyRequest, event_id: FromPath[str], after: FromQuery[int | None] = None
) -> ServerSentEvent:
    """``moved`` (id: the event's newest fact) whenever the event's stream grows."""
    web = web_of(request)
    web.principal(request)
    await web.run(web.svc.event_info, event_id)  # an unknown event is a 404, not a long wait
    header = request.headers.get("last-event-id")
    start = int(header) if header and header.strip().isdigit() else max(0, after or 0)

    async def stream() -> AsyncIterator[ServerSentEventMessage]:
        last = start
        while not web.hub.closing:
            now = web.hub.versions.get(event_id, 0)
            if now > last:
                last = now
                yield ServerSentEventMessage(data=str(now), event="moved", id=now)
            if not await web.hub.wait_game(event_id, last, timeout=15.0):
                yield ServerSentEventMessage(comment="keep-alive")

    return ServerSentEvent(
        stream(), headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    )


# -- the same over the API (in the OpenAPI document) -----------------------------------------


@get(
    "/api/events/{event_id:str}/postings/{kind:str}",
    summary="A verifiable posting (pairings or standings) at the newest checkpoint",
    description="The rows of /pairings or /standings with the signed checkpoint they were "
    "computed at ('referee seal'); refused until a checkpoint covers what is asked.",
)
async def api_posting(
    request: AnyRequest, event_id: FromPath[str], kind: FromPath[str], round_: RoundQuery = None
) -> Posting:
    web = web_of(request)
    authorize_event(web.principal(request), "read")
    posting, _ = await web.run(web.svc.event_posting, event_id, kind, round_)
    return posting


class VerifyIn(msgspec.Struct, kw_only=True):
    """A posting to check, and the event's public key (hex) to check its signature."""

    posting: Posting
    public_key: str | None = None


@post(
    "/api/events/{event_id:str}/postings/verify",
    summary="Check a posting: signature, ledger, the event's facts, the rows; corrections since",
    status_code=200,
)
async def api_verify_posting(
    request: AnyRequest, event_id: FromPath[str], data: JSONBody[VerifyIn]
) -> PostingReport:
    web = web_of(request)
    authorize_event(web.principal(request), "read")
    report: PostingReport = await web.run(
        web.svc.verify_event_posting, event_id, data.posting, data.public_key
    )
    return report


HANDLERS: list[Any] = [
    events_page,
    event_home,
    pairings_page,
    standings_page,
    my_page,
    player_page,
    slips_page,
    posting_file,
    event_live,
    api_posting,
    api_verify_posting,
]
