"""The event (tournament) pages: the two pairings postings (by table, by name), the
standings with each figure explained on demand, a player's own page, result slips to print,
the verifiable posting files, and a live stream that tells the pages the event moved.

Every page reads the event through the application layer (``service.postings``) and only
lays it out; the stylesheet's print rules fit a posting of 60 players on one A4 or Letter
page. A page that is open follows ``/events/ID/live`` (server-sent events, resumed with
``Last-Event-ID``) and reads itself again when the event's stream moves (``event.js``).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import re
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Annotated, Any, Final
from urllib.parse import quote

import msgspec
from litestar import Request, Response, get, post
from litestar.params import FromPath, FromQuery, JSONBody, QueryParameter
from litestar.response import Redirect, Stream
from markupsafe import Markup, escape

from service.access import Principal
from service.api import (
    EventBoard,
    PlayerIndex,
    PlayerLine,
    Posted,
    Posting,
    PostingReport,
    swiss_rows_of,
)
from web import formkeys
from web.context import Web, web_of
from web.eventcache import (
    SLOT,
    Piece,
    Pieces,
    Rendered,
    cache_of,
    rendered,
    respond,
    view_kind,
)
from web.eventpaging import (
    FIND_MAX,
    PageAsked,
    Pager,
    clamped,
    find_rows,
    page_number,
    paged,
)
from web.export import render
from web.fanout import feeds_of
from web.guards import may_event
from web.pages import HTML, _page
from web.problems import SIGN_IN

__all__ = ["HANDLERS"]

AnyRequest = Request[Any, Any, Any]
log = logging.getLogger("referee.web.eventpages")
RoundQuery = Annotated[int | None, QueryParameter(name="round", ge=1)]
StandingsRound = Annotated[int | None, QueryParameter(name="round")]
"""The standings page's ``?round=``: any whole number, so that a round that is not one (0, -1)
is refused by the service's one check, naming EV-4.1, as the API and ``event standings
--round`` refuse it, not by the query's parser."""


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
    final_order = kind == "standings" and not later and swiss_rows_of(shown, posting.body)
    return Posted(
        checkpoint=posting.checkpoint,
        version=posting.version,
        later=later,
        href=f"/events/{quote(event_id)}/postings/{kind}{query}",
        current=posting.body == shown or final_order,
        final_order=final_order,
        public_key=web.svc.public_key_of(posting.checkpoint),
        seed=posting.seed if isinstance(posting.seed, int) else None,
        rated=isinstance(posting.seed, int) and _rated(web, event_id),
    )


def _rated(web: Web, event_id: str) -> bool:
    """Whether a player of round 1 has a rating, which seeds it before the draw (EV-5.6)."""
    players = web.svc.event_state(event_id).players.values()
    return any(p.rating is not None for p in players if p.entry_round == 1)


def _context(who: Any, **more: Any) -> dict[str, Any]:
    return {"who": who, "can_create": who.role in ("head", "table"), **more}


VERIFY_BODY_LIMIT = 16 * 1024 * 1024
"""A posting to check, sent whole: the standings of 10,000 players are some 3 MB."""


PAGE_HEADERS = {"X-Frame-Options": "DENY", "Referrer-Policy": "same-origin"}


def viewer_top(who: Principal) -> str:
    return render("top.html", **_context(who))


async def shared_board(
    web: Web,
    event_id: str,
    version: int,
    round_number: int | None = None,
    *,
    standings_after: int | None = None,
    with_standings: bool = True,
    with_pairings: bool = True,
) -> tuple[EventBoard, Any]:
    """The event as its pages show it at ``version``, computed once for every page and reader
    (``service.postings.Postings.event_board``, with the folded state it was read from)."""
    key = (event_id, version, "board", round_number, standings_after, with_standings, with_pairings)

    async def compute() -> tuple[EventBoard, Any]:
        found: tuple[EventBoard, Any] = await web.run(
            web.svc.event_board,
            event_id,
            round_number,
            standings_after=standings_after,
            with_standings=with_standings,
            with_pairings=with_pairings,
        )
        return found

    return await cache_of(web).get(key, compute)


async def event_version(web: Web, event_id: str) -> int:
    """The event's newest fact: from the hub when it is fresh (no query), else the store."""
    known = web.hub.known_version(event_id)
    if known is not None:
        return known
    asked = web.hub.read_mark()
    version: int = await web.run(web.svc.event_version, event_id)
    web.hub.note(event_id, version, asked=asked)
    return version


_SEALS: dict[int, tuple[float, str]] = {}
_SEALING: dict[int, asyncio.Future[str]] = {}  # a read of the newest checkpoint under way
_SEAL_TASKS: set[asyncio.Task[None]] = set()
SEAL_SECONDS = 1.0


def fresh_checkpoint(web: Web) -> str | None:
    """The newest checkpoint as last read, while it is less than a second old (else ``None``).
    Past half that age a read starts (at most one at a time), so that readers keep finding
    it fresh instead of each waiting on a read of the store when the second is up."""
    kept = _SEALS.get(id(web))
    if kept is None:
        return None
    age = time.monotonic() - kept[0]
    if age >= SEAL_SECONDS / 2:
        _start_read(web)
    return kept[1] if age < SEAL_SECONDS else None


def _start_read(web: Web) -> asyncio.Future[str]:
    """The read of the newest checkpoint under way, started now if none is (one at a time:
    the readers arriving meanwhile share it)."""
    found = _SEALING.get(id(web))
    if found is None:
        found = _SEALING[id(web)] = asyncio.get_running_loop().create_future()
        task = asyncio.get_running_loop().create_task(_read(web, found))
        _SEAL_TASKS.add(task)
        task.add_done_callback(_read_done)
    return found


def _read_done(task: asyncio.Task[None]) -> None:
    _SEAL_TASKS.discard(task)
    if not task.cancelled():
        task.exception()  # logged by ``_read``; the next reader tries again


async def _read(web: Web, future: asyncio.Future[str]) -> None:
    started = time.monotonic()  # the answer is as fresh as the moment the read began
    try:
        text: str = await web.run(web.svc.newest_checkpoint)
    except BaseException as exc:
        if isinstance(exc, asyncio.CancelledError):
            future.cancel()
        else:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            log.warning("reading the newest checkpoint failed", exc_info=exc)
        raise
    finally:
        _SEALING.pop(id(web), None)
    _SEALS[id(web)] = (started, text)
    future.set_result(text)


def shared_key(
    event_id: str,
    version: int,
    who: Principal,
    path: str,
    variant: tuple[Any, ...],
    kind: str | None = None,
) -> tuple[Any, ...]:
    """The key of a shared answer (``web.fastpath`` looks answers up by the same key), for
    ``who``'s kind of viewer or the ``kind`` given (``player_kind``)."""
    return (event_id, version, kind or view_kind(who), path, variant)


OWN = "own"
"""The kind of reader of a player's page who is that player: only they are shown their
table's judge call and result reports (``PlayerIndex.own``, EV-10.7), and the hall's forms
that act on them."""


def player_kind(who: Principal, index: PlayerIndex, name: str) -> str:
    """Whom a player's page (or its JSON) named ``name`` is kept for: ``OWN`` when ``who``
    is that player, else ``who``'s kind of viewer (``view_kind``)."""
    return OWN if index.own(who, name) else view_kind(who)


async def _read_checkpoint(web: Web) -> str:
    """Read the store's newest checkpoint, one read for every caller meanwhile (on
    PostgreSQL each reader used to send its own when the second was up: hundreds of
    queries queued on the service threads while the pairings went up)."""
    return await asyncio.shield(_start_read(web))


async def _newest_checkpoint(web: Web) -> str:
    """The store's newest checkpoint, read at most about once a second (a seal shows on the
    posting pages' footers within a second)."""
    found = fresh_checkpoint(web)
    return found if found is not None else await _read_checkpoint(web)


async def shared_answer(  # noqa: PLR0913 - what the answer is kept under, by name
    request: AnyRequest,
    web: Web,
    who: Principal,
    event_id: str,
    make: Callable[[int], Awaitable[str | bytes | Pieces]],
    *,
    media: str = HTML,
    sealed: bool = False,
    variant: tuple[Any, ...] = (),
    kind: str | None = None,
    flash: str = "",
) -> Response[bytes]:
    """The answer at the event's newest version for ``who``'s kind of viewer, computed by
    ``make(version)`` once for every reader of that kind (``web.eventcache``); an HTML page
    gets ``who``'s own header in its slot. ``sealed``: the page shows the newest checkpoint
    (its posting footer), so a seal is a new answer too. ``variant``: the query parameters the
    answer depends on, as the handler read them (never the raw query string, so that made-up
    parameters cannot fill the cache with copies). ``kind``: the reader's kind, when not their
    kind of viewer (``player_kind``). ``flash``: what this reader's form did (``?said=``),
    shown under their header, in the slot, for this answer only."""
    version = await event_version(web, event_id)
    key = shared_key(event_id, version, who, request.url.path, variant, kind)
    if sealed:
        key += (await _newest_checkpoint(web),)

    async def compute() -> Rendered:
        return rendered(key, await make(version), media)

    cache = cache_of(web)
    entry = await cache.get(key, compute)
    if media != HTML:
        return respond(request, entry, cache=cache)
    slot = cache.slot(who, viewer_top)
    if flash:
        data = slot[0] + flash.encode()
        slot = (data, hashlib.blake2b(data, digest_size=6).hexdigest())
    return respond(request, entry, cache=cache, slot=slot, headers=PAGE_HEADERS)


@get("/events", include_in_schema=False, opt=SIGN_IN)
async def events_page(request: AnyRequest) -> Response[str] | Redirect:
    web = web_of(request)
    who = web.principal(request)  # without a token: the sign-in page (SIGN_IN)
    rows = await web.run(web.svc.event_list)
    return _page(render("events.html", events=rows, **_context(who)))


@get("/events/{event_id:str}", include_in_schema=False)
async def event_home(event_id: FromPath[str]) -> Redirect:
    return Redirect(path=f"/events/{quote(event_id)}/pairings", status_code=303)


@get("/events/{event_id:str}/pairings", include_in_schema=False, opt=SIGN_IN)
async def pairings_page(
    request: AnyRequest,
    event_id: FromPath[str],
    round_: RoundQuery = None,
    by: FromQuery[str] = "table",
    find: FromQuery[str | None] = None,
    page: FromQuery[str | None] = None,
) -> Response[bytes] | Redirect:
    """A round's pairings by table or by name, a page of rows at a time (``?page=N``,
    ``?page=all``), or the rows of the players whose name holds ``?find=``."""
    web = web_of(request)
    who = web.principal(request)  # without a token: the sign-in page (SIGN_IN)
    shown = "name" if by == "name" else "table"
    query = [("by", "name")] if shown == "name" else []
    if round_ is not None:
        query.append(("round", str(round_)))
    asked = page_number(page)
    if find and find.strip():
        return await _found_page(web, who, event_id, round_, find.strip(), shown, query, asked)
    version = await event_version(web, event_id)
    seen, _ = await shared_board(web, event_id, version, round_, with_standings=False)
    at = clamped(asked, len(seen.by_name if shown == "name" else seen.pairings))

    async def make(version: int) -> str:
        board, _ = await shared_board(web, event_id, version, round_, with_standings=False)
        rows, pager = paged(board.by_name if shown == "name" else board.pairings, at, query)
        posted = (
            await web.run(_posted, web, event_id, "pairings", board.round, board.pairings)
            if board.round
            else None
        )
        return _pairings_html(board, shown, rows, pager, posted, top_slot=SLOT)

    return await shared_answer(
        request, web, who, event_id, make, sealed=True, variant=(round_, shown, at)
    )


def _pairings_html(
    board: EventBoard,
    shown: str,
    rows: Sequence[Any],
    pager: Pager,
    posted: Posted | None,
    **more: Any,
) -> str:
    """The pairings page (by table or by name, as ``shown``): the shared one, or narrowed
    by a search (``find``) for one reader."""
    return render(
        "event_pairings.html",
        b=board,
        page=shown,
        rows=rows,
        pager=pager,
        posted=posted,
        what="round's pairings",
        **more,
    )


def _standings_html(
    board: EventBoard,
    rows: Sequence[Any],
    pager: Pager,
    posted: Posted | None,
    explained: dict[str, str] | None,
    **more: Any,
) -> str:
    """The standings page: the shared one, or narrowed by a search (``find``) for one reader."""
    return render(
        "event_standings.html",
        b=board,
        page="standings",
        rows=rows,
        pager=pager,
        posted=posted,
        explained=explained,
        what="standing",
        **more,
    )


async def _explained(
    web: Web, event_id: str, player: str | None, round_number: int | None
) -> dict[str, str] | None:
    """How ``player`` came to stand where they do (``referee event explain``), for the
    standings page: ``None`` when nobody is asked about."""
    if not player:
        return None
    text = await web.run(web.svc.event_explain, event_id, player, round_number)
    return {"player": player, "text": text}


async def _found_page(
    web: Web,
    who: Principal,
    event_id: str,
    round_number: int | None,
    find: str,
    shown: str,
    query: list[tuple[str, str]],
    asked: PageAsked | None,
) -> Response[bytes]:
    """The pairings (by name, or by table) narrowed to the rows of the players whose name
    holds ``find`` (the search box, without JavaScript): made for this reader, never kept
    (the text is theirs), from the version's shared board."""
    find = find[:FIND_MAX]
    version = await event_version(web, event_id)
    board, _ = await shared_board(web, event_id, version, round_number, with_standings=False)
    if shown == "name":
        found = find_rows(board.by_name, find, lambda r: [r["player"]])
    else:
        found = find_rows(board.pairings, find, lambda r: r["players"])
    rows, pager = paged(found, asked, [*query, ("find", find)])
    page = _pairings_html(board, shown, rows, pager, None, find=find, **_context(who))
    return Response(content=page.encode(), media_type=HTML, headers=PAGE_HEADERS)


@get("/events/{event_id:str}/find", include_in_schema=False, opt=SIGN_IN)
async def find_player(
    request: AnyRequest,
    event_id: FromPath[str],
    name: FromQuery[str] = "",
    round_: RoundQuery = None,
) -> Redirect:
    """The search box of the pairings by name: a name that is a player's leads to their own
    page; anything else to the pairings by name narrowed to the names holding it."""
    web = web_of(request)
    web.principal(request)  # without a token: the sign-in page (SIGN_IN)
    state = await web.run(web.svc.event_state, event_id)
    wanted = name.strip()
    found = state.find(wanted) if wanted else None
    at = f"round={round_}" if round_ is not None else ""
    base = f"/events/{quote(event_id)}"
    if found is not None:
        player = quote(state.players[found].name)
        return Redirect(path=f"{base}/players/{player}{'?' + at if at else ''}", status_code=303)
    query = "by=name" + (f"&find={quote(wanted)}" if wanted else "") + (f"&{at}" if at else "")
    return Redirect(path=f"{base}/pairings?{query}", status_code=303)


@get("/events/{event_id:str}/bracket", include_in_schema=False, opt=SIGN_IN)
async def bracket_page(request: AnyRequest, event_id: FromPath[str]) -> Response[bytes] | Redirect:
    """The playoff bracket: each stage's matches with seeds, results and winners (EV-6.6)."""
    web = web_of(request)
    who = web.principal(request)  # without a token: the sign-in page (SIGN_IN)

    async def make(version: int) -> str:
        from service.api import bracket_view

        board, _ = await shared_board(web, event_id, version, with_standings=False)
        view = await web.run(bracket_view, web.svc, event_id)
        return render("event_bracket.html", b=board, v=view, page="bracket", top_slot=SLOT)

    return await shared_answer(request, web, who, event_id, make)


@get("/events/{event_id:str}/standings", include_in_schema=False, opt=SIGN_IN)
async def standings_page(
    request: AnyRequest,
    event_id: FromPath[str],
    round_: StandingsRound = None,
    explain: FromQuery[str | None] = None,
    find: FromQuery[str | None] = None,
    page: FromQuery[str | None] = None,
) -> Response[bytes] | Redirect:
    """The standings (now, or after ``?round=``), a page of rows at a time, or the rows of the
    players whose name holds ``?find=``; ``?explain=NAME`` shows how a player's figures are
    computed above them."""
    web = web_of(request)
    who = web.principal(request)  # without a token: the sign-in page (SIGN_IN)
    query = [("round", str(round_))] if round_ is not None else []
    asked = page_number(page)
    version = await event_version(web, event_id)
    seen, _ = await shared_board(
        web, event_id, version, None, standings_after=round_, with_pairings=False
    )
    if find and find.strip():
        return await _found_standings(web, who, event_id, seen, round_, find, explain, query, asked)
    at = clamped(asked, len(seen.standings))

    async def make(version: int) -> str:
        board, _ = await shared_board(
            web, event_id, version, None, standings_after=round_, with_pairings=False
        )
        rows, pager = paged(board.standings, at, query)
        explained = await _explained(web, event_id, explain, round_)
        posted = await web.run(_posted, web, event_id, "standings", round_, board.standings)
        return _standings_html(board, rows, pager, posted, explained, top_slot=SLOT)

    return await shared_answer(
        request, web, who, event_id, make, sealed=True, variant=(round_, explain or None, at)
    )


async def _found_standings(  # noqa: PLR0913, PLR0917 - the page's request, taken apart once by its handler
    web: Web,
    who: Principal,
    event_id: str,
    board: EventBoard,
    round_number: int | None,
    find: str,
    explain: str | None,
    query: list[tuple[str, str]],
    asked: PageAsked | None,
) -> Response[bytes]:
    """The standings narrowed to the players whose name holds ``find``, each with their
    rank among everyone (made for this reader, never kept, as ``_found_page``)."""
    find = find.strip()[:FIND_MAX]
    found = find_rows(board.standings, find, lambda r: [r["player"]])
    rows, pager = paged(found, asked, [*query, ("find", find)])
    explained = await _explained(web, event_id, explain, round_number)
    page = _standings_html(board, rows, pager, None, explained, find=find, **_context(who))
    return Response(content=page.encode(), media_type=HTML, headers=PAGE_HEADERS)


@get("/events/{event_id:str}/me", include_in_schema=False, opt=SIGN_IN)
async def my_page(
    request: AnyRequest,
    event_id: FromPath[str],
    round_: RoundQuery = None,
    said_key: Annotated[str | None, QueryParameter(name="said")] = None,
) -> Redirect:
    """A player's token leads to their own page; the head referee and the scorekeeper, who
    have no table, to the event's desk; a table referee to their table on the pairings;
    anyone else (or a player not in this event) finds their name on the posting by name.
    ``?round=N`` is carried along, and to the player's page ``?said=KEY`` (what their
    form did: ``web.calls_pages``)."""
    web = web_of(request)
    who = web.principal(request)  # without a token: the sign-in page (SIGN_IN)
    state = await web.run(web.svc.event_state, event_id)
    mine = state.holder(who.player_id, who.name) if who.role == "player" else None
    at = f"round={round_}" if round_ is not None else ""
    if mine is not None:
        name = state.players[mine].name
        query = "&".join(
            q for q in (at, f"said={quote(said_key, safe='')}" if said_key else "") if q
        )
        path = f"/events/{quote(event_id)}/players/{quote(name)}" + (f"?{query}" if query else "")
        return Redirect(path=path + ("#said" if said_key else ""), status_code=303)
    if who.role in ("head", "scorekeeper"):  # staff without a table: the event's desk
        return Redirect(path=f"/events/{quote(event_id)}/desk", status_code=303)
    if who.role == "table" and who.tables:  # a table referee: the pairings at their table
        path = f"/events/{quote(event_id)}/pairings" + (f"?{at}" if at else "")
        return Redirect(path=f"{path}#table-{quote(who.tables[0])}", status_code=303)
    path = f"/events/{quote(event_id)}/pairings?by=name" + (f"&{at}" if at else "")
    return Redirect(path=path, status_code=303)


async def shared_index(web: Web, event_id: str, version: int) -> PlayerIndex:
    """The players of the event at ``version`` indexed once for every player's own page
    (with the event's explanations kept from earlier versions: ``PlayerIndex``'s memo).

    The board is the pairings pages' (no standings): a player's standings row is their line
    of the live table, found when their page is made (``event_player_standing``), so the
    first reader after a result at 10,000 players does not wait for the whole table (issue
    32 goal 4). The rule: a page kept under a version never shows the event older than that
    version (the live table is at it or, when a fact landed meanwhile, newer)."""
    cache = cache_of(web)

    async def compute() -> PlayerIndex:
        board, state = await shared_board(
            web, event_id, version, with_standings=False, with_pairings=False
        )
        standing = functools.partial(web.svc.event_player_standing, event_id, at_least=version)
        decklist = functools.partial(web.svc.event_decklist_note, event_id)
        if state.bracket_players():  # a final place (EV-6.7) is read from the whole table
            board, state = await shared_board(web, event_id, version, with_pairings=False)
        index: PlayerIndex = await web.run(
            PlayerIndex, board, state, cache.memo(event_id), standing, decklist
        )
        return index

    return await cache.get((event_id, version, "players"), compute)


TITLE_SLOT: Final = f"<!--title-{secrets.token_hex(12)}-->"
REGION_SLOT: Final = f"<!--region-{secrets.token_hex(12)}-->"
RANK_SLOT: Final = f"<!--rank-{secrets.token_hex(12)}-->"
KEY_SLOT: Final = f"<!--idem-{secrets.token_hex(12)}-->"
NO_RANK: Final = "–"
"""How a player's page prints no rank (``PlayerLine.rank`` ``None``: no round played yet,
EV-I.3), as the template does."""


async def player_frame(web: Web, event_id: str, version: int) -> tuple[Piece, ...]:
    """The player page at ``version`` around its three holes (the title's name, the
    viewer's header, the live region), as four pieces: rendered once for every player."""
    cache = cache_of(web)

    async def compute() -> tuple[Piece, ...]:
        index = await shared_index(web, event_id, version)
        page = render(
            "event_player.html",
            b=index.board,
            page="player",
            title_slot=TITLE_SLOT,
            top_slot=SLOT,
            region_slot=REGION_SLOT,
        )
        before_title, _, rest = page.partition(TITLE_SLOT)
        before_top, _, rest = rest.partition(SLOT)
        before_region, _, after = rest.partition(REGION_SLOT)
        parts = (before_title, before_top, before_region, after)
        return tuple(Piece(p.encode(), last=i == 3) for i, p in enumerate(parts))

    return await cache.get((event_id, version, "player-frame"), compute)


def player_pieces(
    web: Web,
    index: PlayerIndex,
    frame: tuple[Piece, ...],
    me: PlayerLine,
    explained: str,
    forms: bool = False,
    version: int = 0,
) -> Pieces:
    """A player's page at ``index``'s version: the version's frame, shared by every player,
    and the player's own parts (the name in the title, the live region with the rank apart),
    each kept under what it shows. After one result a player whose line and explanation did
    not change costs no rendering and no compression, only the joining of bytes; one whose
    rank moved, one small shared piece. The hall's forms' keys (``web.formkeys``, a player
    viewing) are apart too: one small piece per ``version`` of the event, so that a form is
    new once something is recorded, even where the region shows the same again (a call
    resolved), and a post sent twice from one copy of the page records once."""
    cache = cache_of(web)
    title = cache.piece(("text", me.player), lambda: str(escape(me.player)))
    rank = NO_RANK if me.rank is None else me.rank  # the service's (EV-I.3), printed
    unranked = msgspec.structs.replace(
        me, rank=None, standing={**me.standing, "rank": None} if me.standing else None
    )
    board = index.board  # the region shows the round's name and whether the event ended
    shown = (
        board.event,  # the hall's forms post to this event: two events' like lines differ
        board.round,
        board.ended,
        board.playoff,
        msgspec.json.encode(unranked),
        explained,
        forms,
    )
    made: list[list[str]] = []

    def cut() -> list[str]:  # rendered at most once here, whichever piece asks first
        if not made:
            text = render(
                "event_player_region.html",
                b=index.board,
                me=me,
                explained=explained,
                rank_slot=RANK_SLOT,
                forms=forms,  # the hall's forms: for players (service.calls)
                idem=lambda: Markup(KEY_SLOT),
                idem_field=formkeys.FIELD,
            )
            made.append(re.split(f"({re.escape(RANK_SLOT)}|{re.escape(KEY_SLOT)})", text))
        return made[0]  # the text between the slots, and the slots, in turn

    shape = cache.piece(
        ("shape", *shown), lambda: "".join("r" if s == RANK_SLOT else "k" for s in cut()[1::2])
    ).data.decode()
    head, top, before_region, after = frame
    tail = [before_region, cache.piece(("region", *shown), lambda: cut()[0])]
    for n, slot in enumerate(shape, start=1):
        if slot == "r":
            tail.append(cache.piece(("text", str(rank)), lambda: str(escape(rank))))
        else:
            tail.append(cache.piece(("idem", board.event, version), formkeys.new_key))
        tail.append(cache.piece(("rest", n, *shown), functools.partial(_part, cut, 2 * n)))
    return Pieces([head, title, top], [*tail, after])


def _part(cut: Callable[[], list[str]], n: int) -> str:
    return cut()[n]


PREPARED_AT_ONCE = 64
"""Player pages prepared between two turns of the event loop (``prepare_player_pages``)."""


async def prepare_player_pages(web: Web, event_id: str, previous: int, version: int) -> int:
    """The player pages read at ``previous`` (or since), made for ``version`` before their
    readers ask: when a result is announced every open player page reads itself again at
    once, and each then finds its answer made (``web.fastpath`` sends it) instead of going
    through Litestar to make it. The answers are those the handler would make, under the
    same keys (the viewer kind of the reader who read it last); a page nobody read at the
    last version is not made. Returns how many were made."""
    cache = cache_of(web)
    wanted = [tail for tail, seen in cache.followed(event_id).items() if seen >= previous]
    if not wanted:
        return 0
    index = await shared_index(web, event_id, version)
    frame = await player_frame(web, event_id, version)
    made = 0
    for start in range(0, len(wanted), PREPARED_AT_ONCE):
        if cache.newest(event_id) > version:
            break  # the event moved on: these would be stale
        chunk = wanted[start : start + PREPARED_AT_ONCE]
        pages = await web.run(index.pages, [(name, kind == OWN) for kind, _, name in chunk])
        for (kind, path, _), page in zip(chunk, pages, strict=True):
            if page is None:
                continue
            key = (event_id, version, kind, path, ())

            async def compute(
                page: tuple[PlayerLine, str] = page, key: Any = key, forms: bool = kind == OWN
            ) -> Rendered:
                pieces = player_pieces(web, index, frame, *page, forms=forms, version=version)
                return rendered(key, pieces, HTML)

            await cache.get(key, compute)
            made += 1
        await asyncio.sleep(0)  # the readers arriving meanwhile are answered
    return made


async def player_page_pieces(web: Web, event_id: str, name: str, kind: str, version: int) -> Pieces:
    """The page of the player ``name`` at ``version`` for a reader of ``kind``
    (``player_kind``: only the player themself, ``OWN``, is shown the hall's forms): the
    handler's and the fast path's one way to make it."""
    index = await shared_index(web, event_id, version)
    frame = await player_frame(web, event_id, version)
    me, explained = await web.run(index.page, name, own=kind == OWN)
    return player_pieces(web, index, frame, me, explained, forms=kind == OWN, version=version)


async def _with_decklist(web: Web, event_id: str, me: PlayerLine) -> PlayerLine:
    note = await web.run(web.svc.event_decklist_note, event_id, me.player)
    return msgspec.structs.replace(me, decklist=note) if note is not None else me


@get("/events/{event_id:str}/players/{name:str}", include_in_schema=False, opt=SIGN_IN)
async def player_page(
    request: AnyRequest,
    event_id: FromPath[str],
    name: FromPath[str],
    round_: RoundQuery = None,
    said_key: Annotated[str | None, QueryParameter(name="said")] = None,
) -> Response[bytes] | Redirect:
    """A player's page (``?round=N``: as of that round); ``?said=KEY`` (a hall form's
    redirect, ``web.calls_pages``) shows what that form did, beside the viewer's header."""
    web = web_of(request)
    who = web.principal(request)  # without a token: the sign-in page (SIGN_IN)
    kind = player_kind(
        who, await shared_index(web, event_id, await event_version(web, event_id)), name
    )
    if round_ is not None:
        return await _player_at_round(request, web, who, event_id, name, round_, kind)

    async def make(version: int) -> Pieces:
        return await player_page_pieces(web, event_id, name, kind, version)

    said = await formkeys.said(web, who, said_key)
    flash = render("said.html", said=said) if said is not None else ""
    answered = await shared_answer(request, web, who, event_id, make, kind=kind, flash=flash)
    cache_of(web).follow(event_id, (kind, request.url.path, name))
    return answered


async def _player_at_round(
    request: AnyRequest,
    web: Web,
    who: Principal,
    event_id: str,
    name: str,
    round_number: int,
    kind: str,
) -> Response[bytes]:
    """A player's page as of round ``round_number`` (``?round=N``): that round's table,
    opponent and result; the record and every round as now."""
    from service.api import player_line

    async def make(version: int) -> str:
        board, state = await shared_board(web, event_id, version, round_number)
        me = await web.run(player_line, board, state, name, own=kind == OWN)
        if kind == OWN:
            me = await _with_decklist(web, event_id, me)
        explained = await web.run(web.svc.event_explain, event_id, me.player)
        return render(
            "event_player.html",
            b=board,
            me=me,
            explained=explained,
            page="player",
            top_slot=SLOT,
            forms=kind == OWN,  # the hall's forms: for the page's own player (service.calls)
            **formkeys.key_field(),
        )

    variant = (round_number,)
    return await shared_answer(request, web, who, event_id, make, variant=variant, kind=kind)


@get("/events/{event_id:str}/slips", include_in_schema=False, opt=SIGN_IN)
async def slips_page(
    request: AnyRequest,
    event_id: FromPath[str],
    round_: RoundQuery = None,
    said_key: Annotated[str | None, QueryParameter(name="said")] = None,
) -> Response[str] | Redirect:
    """The slips to print; for the staff who enter results (the head referee, the scorekeeper,
    a table referee at their own tables of this event) each table of the current round still
    without a result has a form to enter its slip (``/events/E/slips/do``, once per key), and
    ``?said=KEY`` shows what the last one did."""
    web = web_of(request)
    who = web.principal(request)  # without a token: the sign-in page (SIGN_IN)
    board, _ = await web.run(web.svc.event_board, event_id, round_, with_standings=False)
    said = await formkeys.said(web, who, said_key)
    current = not board.ended and bool(board.rounds) and board.round == max(board.rounds)
    enter = _slip_tables(who, board.event) if current or not board.rounds else frozenset()
    # what the staff who enter slips must see beside them: the players' own reports waiting
    # at each table (a dispute sends the scorekeeper here from the queue, EV-11.5) and who
    # still has no event decklist (EV-2.8; pairing warns of it on the command line only)
    staff = enter != frozenset() and not board.ended
    reports = await web.run(web.svc.reports_as, who, event_id) if staff else []
    missing = (
        await web.run(web.svc.event_missing_decks, event_id)
        if staff and who.role in ("head", "scorekeeper")
        else []
    )
    return _page(
        render(
            "event_slips.html",
            b=board,
            page="slips",
            enter=enter if current else frozenset(),
            said=said,
            reports={
                table: [r for r in reports if r.table == table and r.round == board.round]
                for table in {r.table for r in reports}
            },
            missing_decks=missing,
            desk_link=who.role in ("head", "scorekeeper"),  # the desk's readers (web.deskpage)
            **formkeys.key_field(),
            **_context(who),
        )
    )


def _slip_tables(who: Principal, event_id: str) -> frozenset[str] | None:
    """The tables whose slips ``who`` may enter on the slips page: ``None`` for every table
    (the head referee, the scorekeeper), a table referee's own tables of this event, else
    none (the rights of ``POST /api/events/E/results``; the write checks them again)."""
    if who.role in ("head", "scorekeeper"):
        return None
    if who.role == "table" and who.event == event_id.strip():
        return frozenset(str(t) for t in who.tables)
    return frozenset()


@get("/events/{event_id:str}/postings/{kind:str}", include_in_schema=False, opt=SIGN_IN)
async def posting_file(
    request: AnyRequest,
    event_id: FromPath[str],
    kind: FromPath[str],
    round_: RoundQuery = None,
) -> Response[bytes] | Redirect:
    """The verifiable posting as a file (what ``referee event verify --posting`` reads)."""
    web = web_of(request)
    web.principal(request)  # without a token: the sign-in page (SIGN_IN)
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


async def _verify_html(
    web: Web,
    who: Principal,
    event_id: str,
    *,
    key: str | None,
    report: PostingReport | None = None,
    refused: str = "",
) -> str:
    """The verify page: its form (the key given, else the event's published one) and, after
    a check, the answer as ``verify_posting`` gave it, laid out and nothing more."""
    event = event_id.strip()
    board, _ = await web.run(
        web.svc.event_board, event, None, with_standings=False, with_pairings=False
    )
    published = await web.run(web.svc.event_public_key, event)
    current = ""
    if report is not None and report.newer is not None:
        query = f"?round={report.round}" if report.round is not None else ""
        current = f"/events/{quote(event)}/postings/{report.kind}{query}"
    return render(
        "event_verify.html",
        b=board,
        page="verify",
        published=published,
        key=key if key is not None else (published.key if published else ""),
        report=report,
        refused=refused,
        current=current,
        **_context(who),
    )


@get("/events/{event_id:str}/verify", include_in_schema=False, opt=SIGN_IN)
async def verify_page(
    request: AnyRequest,
    event_id: FromPath[str],
    said_key: Annotated[str | None, QueryParameter(name="said")] = None,
) -> Response[str] | Redirect:
    """Check a posting: paste or upload it, the key filled in with the event's published
    one; the answer comes from the same check as ``referee event verify``. ``?said=KEY``
    (the form's redirect) shows the answer of the check just made, with the key typed."""
    web = web_of(request)
    who = web.principal(request)  # without a token: the sign-in page (SIGN_IN)
    said = await formkeys.said(web, who, said_key)
    if said is None:
        return _page(await _verify_html(web, who, event_id, key=None))
    typed = said.form.get("public_key", "")
    if not said.ok:
        return _page(await _verify_html(web, who, event_id, key=typed, refused=said.message))
    report = msgspec.convert(said.data["report"], PostingReport)
    return _page(await _verify_html(web, who, event_id, key=typed, report=report))


@post(
    "/events/{event_id:str}/verify",
    include_in_schema=False,
    status_code=303,
    opt=SIGN_IN,
    request_max_body_size=VERIFY_BODY_LIMIT,
)
async def verify_form(request: AnyRequest, event_id: FromPath[str]) -> Redirect:
    """The verify page's form: the posting (the file uploaded, else the text pasted) and the
    key, checked by ``Postings.verify_event_posting``; then a redirect to the page with
    ``?said=KEY`` (``formkeys.note``: the answer, or why the posting or key cannot be read,
    with the key typed), so a reload of the answer reads it again rather than sending the
    posting again. The check stores nothing: there is nothing to carry out once per key."""
    from service.api import public_key_text, read_posting
    from service.errors import RefusedError

    web = web_of(request)
    who = web.principal(request)
    data = await request.form()
    upload = data.get("file")
    raw: bytes = b""
    if upload is not None and not isinstance(upload, str):
        raw = await upload.read()
    if not raw.strip():
        raw = str(data.get("posting") or "").encode()
    typed = str(data.get("public_key") or "").strip()
    kept = {"public_key": typed}
    try:
        if not raw.strip():
            raise RefusedError("no posting given: paste its text or choose its file")
        posting = read_posting(raw)
        key = public_key_text(typed) if typed else None
        report: PostingReport = await web.run(
            web.svc.verify_event_posting, event_id.strip(), posting, key
        )
        outcome = formkeys.Outcome(
            True, report.answer, 200, kept, {"report": msgspec.to_builtins(report)}
        )
    except RefusedError as exc:
        outcome = formkeys.Outcome(False, str(exc), 400, kept)
    said = await formkeys.note(web, who, outcome)
    target = f"/events/{quote(event_id.strip(), safe='')}/verify?said={quote(said.key, safe='')}"
    return Redirect(path=f"{target}#verify", status_code=303)


LIVE_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
"""The live stream's own headers (its type is ``text/event-stream``)."""


def live_start(last_event_id: str | None, after: int | None) -> int:
    """The version a subscriber has seen: ``Last-Event-ID`` (a reconnecting ``EventSource``),
    else ``?after=N``, else nothing."""
    if last_event_id and last_event_id.strip().isdigit():
        return int(last_event_id)
    return max(0, after or 0)


def live_messages(web: Web, event_id: str, version: int, start: int) -> AsyncIterator[bytes]:
    """The messages of ``event_id``'s live stream (found at ``version``) for a subscriber
    that saw ``start``: the one feed of the event (``web.fanout``), which makes the pages
    about to be read again when it announces a change. The handlers' and the fast path's
    one way to follow an event."""
    feeds = feeds_of(web)
    if feeds.moved is None:
        feeds.moved = functools.partial(_prepare_soon, web)
    return feeds.stream(event_id, version, start)


async def _live(request: AnyRequest, event_id: str, after: int | None) -> Stream:
    web = web_of(request)
    web.principal(request)
    version = await event_version(web, event_id)  # unknown: a 404, not a wait
    start = live_start(request.headers.get("last-event-id"), after)
    return Stream(
        live_messages(web, event_id, version, start),
        media_type="text/event-stream",
        headers=LIVE_HEADERS,
    )


_preparing: set[asyncio.Task[int]] = set()


def _prepare_soon(web: Web, event_id: str, previous: int, version: int) -> None:
    """``prepare_player_pages`` as a task of its own (the feed that announced the change
    does not wait for it)."""
    task = asyncio.create_task(prepare_player_pages(web, event_id, previous, version))
    _preparing.add(task)
    task.add_done_callback(_prepared)


def _prepared(task: asyncio.Task[int]) -> None:
    _preparing.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log.warning("preparing player pages failed", exc_info=task.exception())


@get("/events/{event_id:str}/live", include_in_schema=False)
async def event_live(
    request: AnyRequest, event_id: FromPath[str], after: FromQuery[int | None] = None
) -> Stream:
    """``moved`` (id: the event's newest fact; data: ``{"version": N, "round": R}``) whenever
    the event's stream grows: one message per change for every open page (``web.fanout``)."""
    return await _live(request, event_id, after)


# -- the same over the API (in the OpenAPI document) -----------------------------------------


@get(
    "/api/events/{event_id:str}/postings/{kind:str}",
    summary="A verifiable posting (pairings or standings) at the newest checkpoint",
    description="The rows of /pairings or /standings with the signed checkpoint they were "
    "computed at ('referee seal'); refused until a checkpoint covers what is asked.",
    guards=[may_event("read")],
)
async def api_posting(
    request: AnyRequest, event_id: FromPath[str], kind: FromPath[str], round_: RoundQuery = None
) -> Posting:
    web = web_of(request)
    posting, _ = await web.run(web.svc.event_posting, event_id, kind, round_)
    return posting


@get(
    "/api/events/{event_id:str}/live",
    summary="Server-sent events: 'moved' whenever the event changes",
    description='id: the event\'s newest fact; data: {"version": N, "round": R}. One '
    "message per change, the same for every subscriber; resume with Last-Event-ID or ?after=N. "
    "Then read /pairings, /standings or /players/NAME again (If-None-Match: their ETag).",
)
async def api_live(
    request: AnyRequest, event_id: FromPath[str], after: FromQuery[int | None] = None
) -> Stream:
    return await _live(request, event_id, after)


PUBLIC_KEY_FORMAT = (
    "The event's Ed25519 public key: 64 hex digits (any case; spaces around it are dropped). "
    "Get it from GET /api/events/{event_id}/public-key, from the posting pages' footer "
    "(/events/{event_id}/pairings or /standings, with its fingerprint: the first 16 digits "
    "in fours, the key= of every checkpoint it signed), or from the head referee, who had "
    "it from 'referee seal --new-key'. Without it the signature is not checked (the verdict "
    "is then 'unchecked')."
)


class VerifyIn(msgspec.Struct, kw_only=True):
    """A posting to check, and the event's public key (hex) to check its signature."""

    posting: Posting
    public_key: (
        Annotated[
            str,
            msgspec.Meta(
                pattern=r"^\s*[0-9A-Fa-f]{64}\s*$",
                description=PUBLIC_KEY_FORMAT,
                examples=["3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29"],
            ),
        ]
        | None
    ) = None


class EventKeyOut(msgspec.Struct, kw_only=True):
    """The public key that signed the newest checkpoint covering the event, as 'referee seal'
    recorded it: what /postings/verify's public_key takes."""

    key: Annotated[str, msgspec.Meta(description="64 hex digits (Ed25519)")]
    fingerprint: Annotated[
        str,
        msgspec.Meta(
            description="the key's first 16 hex digits in fours: the key= of each checkpoint "
            "it signed; compare it with the one printed on the posting on the wall"
        ),
    ]


@get(
    "/api/events/{event_id:str}/public-key",
    summary="The event's public key (hex) and its fingerprint, for /postings/verify",
    description="The key that signed the newest checkpoint covering the event, as the seal "
    "recorded it (404 before the store is sealed with a key it recorded). A key served by "
    "the server is only as good as the server: compare its fingerprint with the one on the "
    "posting on the wall or the one the head referee announced.",
    guards=[may_event("read")],
)
async def api_public_key(request: AnyRequest, event_id: FromPath[str]) -> EventKeyOut:
    web = web_of(request)
    found = await web.run(web.svc.event_public_key, event_id.strip())
    if found is None:
        from litestar.exceptions import NotFoundException

        raise NotFoundException(
            f"no public key is recorded for {event_id}: the head referee seals with "
            "'referee seal --key KEY' and publishes the key"
        )
    return EventKeyOut(key=found.key, fingerprint=found.fingerprint)


@post(
    "/api/events/{event_id:str}/postings/verify",
    summary="Check a posting: signature, ledger, the event's facts, the rows; corrections since",
    description="Body: the posting as served (GET /api/events/{event_id}/postings/KIND or the "
    "pages' JSON download) and public_key. " + PUBLIC_KEY_FORMAT + " The answer's verdict: "
    "'current' (genuine, its rows are still today's), 'superseded' (genuine, but a correction "
    "or later results changed its rows: see corrections), 'altered' (a check failed: see "
    "checks and answer), 'other-key' (its checkpoint was signed by another key than the one "
    "given), 'unchecked' (matches the facts, no key given). A posting of another event or "
    "that cannot be read is refused (400).",
    status_code=200,
    request_max_body_size=VERIFY_BODY_LIMIT,
    guards=[may_event("read")],  # before the body is read
)
async def api_verify_posting(
    request: AnyRequest, event_id: FromPath[str], data: JSONBody[VerifyIn]
) -> PostingReport:
    web = web_of(request)
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
    find_player,
    bracket_page,
    player_page,
    slips_page,
    posting_file,
    verify_page,
    verify_form,
    event_live,
    api_live,
    api_posting,
    api_public_key,
    api_verify_posting,
]
