"""The pages: the games list, the table, the replay viewer, the scoreboard, signing in.

Server-rendered HTML with a little plain JavaScript (``web/static``), no build
step. The pages call the same API as any script; signing in puts the token in
an HttpOnly cookie, which the API accepts for reads and, from these pages only
(``Sec-Fetch-Site``/``Origin``), for writes.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote

from litestar import Request, Response, get, post
from litestar.datastructures import Cookie
from litestar.exceptions import (
    NotAuthorizedException,
    NotFoundException,
    TooManyRequestsException,
)
from litestar.params import FromPath, FromQuery, QueryParameter
from litestar.response import Redirect
from litestar.static_files import create_static_files_router

from referee.contract import PUBLIC, REFEREE
from service.access import (
    AccessDeniedError,
    Principal,
    TokenRefusedError,
    authorize,
    authorize_clock,
    queue_head,
    queue_results_only,
    queue_tables,
    viewer_for,
)
from service.api import ITEM_KINDS, CallRow, GamePlace, replay_html, toolkit
from web import formkeys, newgame
from web.context import COOKIE, Web, web_of
from web.export import ROLE_WORDS, render
from web.forms import RIGHTS, FormOutcome, as_json, carry_out
from web.guards import may_game, may_game_by
from web.problems import PROBLEM_TYPES, SIGN_IN
from web.schemas import LINE, PAGE
from web.views import panel

__all__ = ["HANDLERS"]

AnyRequest = Request[Any, Any, Any]
HTML = "text/html"  # Litestar adds "; charset=utf-8" to a text/ type
FORM_BOUNDS = {"LINE": LINE, "PAGE": PAGE}
"""The API's bounds on free text (``web.schemas``), as the forms' ``maxlength``."""
EXAMPLES = {"prizmik": "e1>e2", "prismata": "click #1"}


def _who(web: Web, request: AnyRequest) -> Principal | Redirect:
    try:
        return web.principal(request)
    except NotAuthorizedException:
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return Redirect(path=f"/login?next={quote(target)}", status_code=303)


def _page(html: str, status: int = 200) -> Response[str]:
    return Response(
        content=html,
        media_type=HTML,
        status_code=status,
        headers={
            "Cache-Control": "no-store",
            "X-Frame-Options": "DENY",
            "Referrer-Policy": "same-origin",
        },
    )


def _may(who: Principal, action: str, **kwargs: Any) -> bool:
    try:
        authorize(who, action, **kwargs)  # type: ignore[arg-type]
    except AccessDeniedError:
        return False
    return True


@get("/", include_in_schema=False, opt=SIGN_IN)
async def games_page(
    request: AnyRequest,
    game: FromQuery[str | None] = None,
    status: FromQuery[str | None] = None,
    player: FromQuery[str | None] = None,
    table: FromQuery[str | None] = None,
) -> Response[str] | Redirect:
    web = web_of(request)
    who = web.principal(request)  # without a token: the sign-in page (SIGN_IN)
    rows = await web.run(web.listing.rows, game=game, status=status, player=player, table=table)
    rows.sort(key=lambda r: r.created, reverse=True)
    after = max((r.changed for r in rows), default=web.hub.last_id)
    return _page(
        render(
            "games.html",
            who=who,
            rows=rows,
            types=web.svc.game_types(),
            after=max(after, 0),
            filters={"game": game, "status": status, "player": player, "table": table},
            can_create=who.role in ("head", "table"),
        )
    )


@get("/scoreboard", include_in_schema=False, opt=SIGN_IN)
async def scoreboard_page(request: AnyRequest) -> Response[str] | Redirect:
    web = web_of(request)
    who = web.principal(request)  # without a token: the sign-in page (SIGN_IN)
    rows = await web.scoreboard()
    return _page(
        render(
            "scoreboard.html",
            who=who,
            rows=rows,
            after=web.hub.last_id,
            can_create=who.role in ("head", "table"),
        )
    )


@get("/queue", include_in_schema=False, opt=SIGN_IN)
async def queue_page(
    request: AnyRequest,
    idle: FromQuery[int] = 10,
    time_limit: FromQuery[int] = 50,
    call_after: FromQuery[int] = 60,
) -> Response[str] | Redirect:
    """The referees' queue (``service.room``), each item linking to its table page."""
    web = web_of(request)
    who = web.principal(request)  # without a token: the sign-in page (SIGN_IN)
    tables = queue_tables(who)
    room = await web.run(
        web.svc.queue,
        tables=tables,
        idle_minutes=idle,
        time_limit=time_limit,
        results_only=queue_results_only(who),
        call_seconds=call_after,
        event=who.event,
        head=queue_head(who),
    )
    return _page(
        render(
            "queue.html",
            who=who,
            room=room,
            kinds=ITEM_KINDS,
            can_create=who.role in ("head", "table"),
            **formkeys.key_field(),  # the calls' forms, once per key
        )
    )


SIGN_IN_REFUSED = "The token is unknown or revoked."
"""What the sign-in page says after a wrong token (``?refused=token``)."""


@get("/login", include_in_schema=False)
async def login_page(
    request: AnyRequest,
    next_: Annotated[str, QueryParameter(name="next")] = "/",
    refused: Annotated[str | None, QueryParameter(name="refused")] = None,
    retry: Annotated[int | None, QueryParameter(name="retry", ge=0)] = None,
) -> Response[str]:
    """The sign-in form; after a refused sign-in's redirect (``?refused=token``, or
    ``?refused=limit&retry=N`` past the failed-authentication limit) it says why. The
    words are the page's own, never taken from the address, and the token is never in it."""
    error = ""
    if refused == "token":
        error = SIGN_IN_REFUSED
    elif refused == "limit":
        wait = f"retry in {retry} s" if retry is not None else "retry in a moment"
        error = f"Too many failed authentications from this address or with this token; {wait}."
    return _page(render("login.html", who=None, next=_safe_next(next_), error=error))


def _safe_next(target: str | None) -> str:
    if not target or not target.startswith("/") or target.startswith("//"):
        return "/"
    return target


@post("/login", include_in_schema=False, status_code=303)
async def login(request: AnyRequest) -> Redirect:
    """Sign in with a token (kept in a cookie), then ``next``. A wrong token is answered
    303 too, to the sign-in page saying why (``?refused=``): a reload of that page never
    sends the token again (counted again, it would only lengthen the wait)."""
    web = web_of(request)
    form = await request.form()
    token = str(form.get("token", "")).strip()
    target = _safe_next(str(form.get("next", "/")))
    try:
        if not token:
            raise TokenRefusedError("the token is unknown or revoked")
        holder = await web.run(web.tokens.identify, token)
    except TokenRefusedError as refused:
        web_log_refusal(request, f"sign-in refused: {refused}")
        why, headers = "token", {}
        if token:  # a wrong token counts as the API's do (limited past the limit)
            host = request.client.host if request.client else "?"
            try:
                web.failed_auth.failed(host, token)
            except TooManyRequestsException as over:
                retry = (over.headers or {}).get("Retry-After", "")
                why = "limit" + (f"&retry={retry}" if retry.isdigit() else "")
                headers = {"Retry-After": retry} if retry else {}
        query = f"next={quote(target, safe='/')}&refused={why}"
        return Redirect(path=f"/login?{query}", status_code=303, headers=headers)
    if target == "/" and holder.role == "player":
        target = "/events"  # a player's own pages are in their events, not the games' list
    cookie = Cookie(
        key=COOKIE,
        value=token,
        httponly=True,
        samesite="lax",
        secure=web.config.secure_cookies,
        path="/",
        max_age=14 * 24 * 3600,
    )
    return Redirect(path=target, status_code=303, cookies=[cookie])


def web_log_refusal(request: AnyRequest, why: str) -> None:
    logging.getLogger("referee.web").warning(
        "refused %s %s from %s: %s",
        request.method,
        request.url.path,
        request.client.host if request.client else "?",
        why,
    )


@post("/logout", include_in_schema=False, status_code=303)
async def logout(request: AnyRequest) -> Redirect:
    return Redirect(
        path="/login",
        status_code=303,
        cookies=[Cookie(key=COOKIE, value="", path="/", max_age=0, httponly=True, samesite="lax")],
    )


@get("/games/new", include_in_schema=False, opt=SIGN_IN)
async def new_game_page(
    request: AnyRequest, said_key: Annotated[str | None, QueryParameter(name="said")] = None
) -> Response[str] | Redirect:
    """The form that starts a game (``web.newgame``); ``?said=KEY`` shows why it was refused."""
    web = web_of(request)
    who = web.principal(request)  # without a token: the sign-in page (SIGN_IN)
    if who.role not in ("head", "table"):
        raise AccessDeniedError("only referees start games")
    said = await formkeys.said(web, who, said_key)
    return _page(
        render(
            "new.html",
            who=who,
            types=web.svc.game_types(),
            can_create=True,
            default_table=who.tables[0] if who.tables else "",
            said=said,
            form=said.form if said is not None and not said.ok else {},
            bounds=FORM_BOUNDS,
            **formkeys.key_field(),
        )
    )


@get("/games/{game_id:str}", include_in_schema=False, opt=SIGN_IN)
async def table_page(
    request: AnyRequest,
    game_id: FromPath[str],
    flip: FromQuery[bool] = False,
    said_key: Annotated[str | None, QueryParameter(name="said")] = None,
) -> Response[str] | Redirect:
    """The table page; ``?said=KEY`` (a form's redirect, ``web.formkeys``) shows what
    that form did, and on a refusal the values it sent, to correct them."""
    web = web_of(request)
    who = web.principal(request)  # without a token: the sign-in page (SIGN_IN)
    said = await formkeys.said(web, who, said_key)
    return await _table_response(
        web, who, game_id, flip=flip, said=said, form=said.form if said and not said.ok else None
    )


def _may_extend(who: Principal, place: GamePlace | None, current: bool) -> bool:
    """Whether the table page offers ``who`` extra time for its table (EV-9.4): a game of
    the event's current round, to the head referee or that table's referee at its event
    (``authorize_clock``, the check the write itself makes again)."""
    if place is None or not current:
        return False
    try:
        authorize_clock(who, table=place.table, event=place.event)
    except AccessDeniedError:
        return False
    return True


def _table_call(web: Web, place: GamePlace) -> tuple[bool, CallRow | None]:
    """Whether a judge may be called to the table ``place`` is played at (a game of an
    earlier round is refused, EV-10.1), and the call not yet resolved there, in its round
    (shown in place of the button: it holds the table, EV-10.3; a call whose pairing was
    taken back no longer does, EV-10.8)."""
    for call in web.svc.event_calls(place.event, tables=[str(place.table)]):
        if call.round == place.round and not call.taken_back:
            return True, call
    return place.round == web.svc.event_state(place.event).current_round, None


async def _table_response(
    web: Web,
    who: Principal,
    game_id: str,
    *,
    flip: bool = False,
    said: FormOutcome | None = None,
    form: dict[str, str] | None = None,
    status: int = 200,
) -> Response[str]:
    """The table page for ``who``, with what a form just did (``said``) shown at the top."""
    view = await web.run(web.svc.load, game_id)
    viewer = viewer_for(who, view)
    can_record = _may(who, "record", view=view)
    p = await web.run(panel, web.svc, view.game_id, viewer, legal=can_record)
    kit = await web.run(toolkit, view) if can_record or who.role == "player" else None
    table = (view.created.meta or {}).get("table", "")
    clock = await web.run(
        web.svc.game_clock,
        view.created.meta or {},
        view.created.timestamp,
        open_=view.ended is None,
        limit=view.time_limit,
    )
    event = (  # a game of an event: its event, round, table and match, linked (EV-6.6)
        await web.run(web.svc.event_game_place_of, dict(view.created.meta), view.game_id)
        if (view.created.meta or {}).get("event")
        else None
    )
    event_call = (view.created.meta or {}).get("event", "").startswith("ev-") and (
        viewer != PUBLIC or who.role in ("head", "scorekeeper")
    )  # service.calls
    if event_call and event is not None:  # a call goes to the current round's table (EV-10.1)
        event_call, open_call = await web.run(_table_call, web, event)
    else:
        open_call = None
    current = (
        event is not None
        and event.round == (await web.run(web.svc.event_state, event.event)).current_round
    )
    may_extend = can_record and clock is not None and clock.state != "done"
    may_extend = may_extend and _may_extend(who, event, current)
    flipped = flip or (viewer not in (REFEREE, PUBLIC) and view.seats and viewer != view.seats[0])
    return _page(
        render(
            "table.html",
            who=who,
            p=p,
            kit=kit,
            said=said,
            form=form or {},
            title=view.rules.title,
            players=view.seat_names(),
            table=table,
            event=event,
            viewer=viewer,
            can_record=can_record,
            may={
                action: _may(who, action, view=view)
                for action in ("backup", "penalty", "adjust", "dispute", "appeal", "rule", "audit")
            },
            seats=list(view.seats),
            several_act=view.game not in EXAMPLES,
            example=EXAMPLES.get(view.game, p["legal"][0] if p["legal"] else "…"),
            flipped=flipped,
            can_create=who.role in ("head", "table"),
            clock=clock,
            bounds=FORM_BOUNDS,
            **formkeys.key_field(),
            event_call=event_call,
            open_call=open_call,
            may_extend=may_extend,
        ),
        status,
    )


@post(
    "/games/{game_id:str}/do/{action:str}",
    include_in_schema=False,
    status_code=303,
    guards=[may_game_by("action", RIGHTS)],  # before the form is read
)
async def table_form(
    request: AnyRequest, game_id: FromPath[str], action: FromPath[str]
) -> Response[Any]:
    """A referee form of the table page (``web.forms``), carried out once per its key
    (``web.formkeys``), then a redirect to the page that shows what happened
    (post/redirect/get: a reload records nothing twice); asked for JSON by ``table.js``,
    ``{"ok", "message"}``."""
    web = web_of(request)
    who = web.principal(request)
    form, key = await formkeys.posted(request)

    async def run() -> FormOutcome:
        try:
            done = await web.run_write(carry_out, web.svc, who, game_id, action, form)
        finally:
            web.hub.poke()
        return FormOutcome(done.ok, done.message, done.status, {} if done.ok else form)

    said = await formkeys.once(web, who, request.url.path, form, key, run)
    if "application/json" in request.headers.get("accept", ""):
        return Response(content=as_json(said), status_code=said.status)
    target = f"/games/{quote(game_id, safe='')}?said={quote(said.key or key, safe='')}#said"
    return Redirect(path=target, status_code=303)


@get("/games/{game_id:str}/panel", include_in_schema=False)
async def table_panel(request: AnyRequest, game_id: FromPath[str]) -> dict[str, Any]:
    web = web_of(request)
    who = web.principal(request)
    seating = await web.run(web.svc.seating, game_id)
    result: dict[str, Any] = await web.run(
        panel,
        web.svc,
        seating.game_id,
        viewer_for(who, seating),
        legal=_may(who, "record", view=seating),
    )
    return result


@get(
    "/games/{game_id:str}/dossier", include_in_schema=False, opt=SIGN_IN, guards=[may_game("audit")]
)
async def dossier_page(
    request: AnyRequest, game_id: FromPath[str], dispute: FromQuery[int | None] = None
) -> Response[str] | Redirect:
    """A game's audit dossier for paper (referees and scorekeepers): each dispute, then
    every adjustment, penalty and deck check, as ``referee audit`` prints them."""
    from projections.audit import render_dossier, render_referee_entries

    web = web_of(request)
    who = web.principal(request)  # without a token: the sign-in page (SIGN_IN)
    seating = await web.run(web.svc.seating, game_id)  # the guard's, kept
    report: dict[str, Any] = await web.run_projection("audit", seating.game_id, dispute)
    return _page(
        render(
            "dossier.html",
            who=who,
            game_id=seating.game_id,
            dispute=dispute,
            dossiers=[render_dossier(item) for item in report["disputes"]],
            entries=render_referee_entries(report) if dispute is None else "",
            can_create=who.role in ("head", "table"),
        )
    )


@get("/games/{game_id:str}/replay", include_in_schema=False, opt=SIGN_IN)
async def replay_page(request: AnyRequest, game_id: FromPath[str]) -> Response[str] | Redirect:
    web = web_of(request)
    who = web.principal(request)  # without a token: the sign-in page (SIGN_IN)
    seating = await web.run(web.svc.seating, game_id)
    html = await web.run(
        replay_html,
        web.svc,
        seating.game_id,
        viewer_for(who, seating),
        standalone=False,
        who=who,
        can_create=who.role in ("head", "table"),
        role_words=ROLE_WORDS,
    )
    return _page(html)


@get("/problems/{name:str}", include_in_schema=False)
async def problem_page(name: FromPath[str]) -> Response[str]:
    if name not in PROBLEM_TYPES:
        raise NotFoundException(f"no problem type {name!r}")
    title, text = PROBLEM_TYPES[name]
    return _page(render("problem.html", who=None, title=title, text=text, name=name))


_FAVICON = (Path(__file__).parent / "static" / "favicon.ico").read_bytes()


@get("/favicon.ico", include_in_schema=False)
async def favicon() -> Response[bytes]:
    """The icon a browser asks for at the root (the pages also link the SVG one)."""
    return Response(
        content=_FAVICON,
        media_type="image/x-icon",
        headers={"Cache-Control": "public, max-age=86400"},
    )


HANDLERS: list[Any] = [
    favicon,
    *newgame.HANDLERS,
    games_page,
    scoreboard_page,
    queue_page,
    login_page,
    login,
    logout,
    new_game_page,
    table_page,
    table_form,
    table_panel,
    dossier_page,
    replay_page,
    problem_page,
    create_static_files_router(
        path="/static", directories=[Path(__file__).parent / "static"], include_in_schema=False
    ),
]
