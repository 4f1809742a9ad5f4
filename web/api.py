"""The API's routes (``/api``): games, entries, corrections, results, disputes,
penalties, decklists, reads for each role's viewer, records, and live streams.

Status codes: 200 read; 201 written (the body says what, ``ETag`` is the game's
new version); 400 malformed or refused input, nothing stored; 401 no or bad
token; 403 the role may not; 404 no such game; 409 the procedure does not allow
it now, or another write came first; 412 ``If-Match`` is stale; 422 an entry
that breaks a rule (stored as evidence, its clauses in the problem document),
or an ``Idempotency-Key`` reused for another request.
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
from collections.abc import AsyncIterator, Awaitable
from typing import Annotated, Any, TypedDict

import msgspec
from litestar import Request, Response, get, post
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath, FromQuery, JSONBody, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from referee.contract import PUBLIC, REFEREE, Player
from referee.kit.decks import Deck, SealedDeck, parse_decklist
from referee.rulebook import Clause, Rulebook
from service.access import (
    Action,
    Principal,
    Seating,
    authorize,
    queue_results_only,
    queue_tables,
    viewer_for,
)
from service.decide import CreateGame, End
from service.errors import RefusedError
from service.interchange import FileOutcome
from service.live import ListedGame, game_events_after
from service.queries import VerifyReport
from service.results import (
    CorrectionResult,
    EntryResult,
    GameInfo,
    GameReport,
    LegalActions,
    PositionView,
    ReplayFrame,
    WrittenEvents,
)
from service.room import RoomView
from service.wording import rejection_text
from web.context import IMPORT_BODY_LIMIT, Web, web_of
from web.problems import Problem
from web.schemas import (
    AdjustIn,
    AppealIn,
    BackupIn,
    DeckOpenIn,
    DeckRegisterIn,
    DisputeIn,
    EndIn,
    EntryIn,
    NewGame,
    PenaltyIn,
    RetractIn,
    RulingIn,
    WhoAmI,
    WithdrawIn,
)

__all__ = ["HANDLERS", "entry_answer", "expected_version"]

AnyRequest = Request[Any, Any, Any]

PROBLEMS = {
    400: ResponseSpec(
        data_container=Problem,
        description="Malformed or refused; nothing stored",
        media_type="application/problem+json",
    ),
    401: ResponseSpec(
        data_container=Problem,
        description="No token, or a wrong one",
        media_type="application/problem+json",
    ),
    403: ResponseSpec(
        data_container=Problem,
        description="The role may not do this here",
        media_type="application/problem+json",
    ),
    404: ResponseSpec(
        data_container=Problem, description="No such game", media_type="application/problem+json"
    ),
    409: ResponseSpec(
        data_container=Problem,
        description="Not allowed in this state, or another write came first; nothing stored",
        media_type="application/problem+json",
    ),
    412: ResponseSpec(
        data_container=Problem,
        description="If-Match names an older version; nothing stored",
        media_type="application/problem+json",
    ),
}
ENTRY_PROBLEMS = {
    **PROBLEMS,
    422: ResponseSpec(
        data_container=Problem,
        description="The entry breaks a rule: stored as evidence, its clauses listed",
        media_type="application/problem+json",
    ),
}


def etag(version: int) -> str:
    return f'"{version}"'


def if_match(request: AnyRequest) -> int | None:
    """The version an ``If-Match`` header names (``"12"``), or ``None`` without one."""
    return expected_version(request.headers.get("if-match"))


def expected_version(raw: str | None) -> int | None:
    """The version an ``If-Match`` header's value ``raw`` names, or ``None`` without one."""
    if raw is None or raw.strip() == "*":
        return None
    text = raw.strip().removeprefix("W/").strip('"')
    if not text.isdigit():
        raise RefusedError(
            f'If-Match takes the game\'s version as its ETag gave it ("12"), not {raw!r}'
        )
    return int(text)


class EventTerms(TypedDict):
    """An event write's terms as its request states them, for the service's write
    (``service.tournaments.event_write``): the version its writer saw and its key."""

    expected_version: int | None
    idempotency_key: str | None


def event_terms(request: AnyRequest) -> EventTerms:
    """The ``If-Match`` version and ``Idempotency-Key`` of an event write, passed through
    to the service, which checks them (a stale version 412, a key already stored 409)."""
    key = request.headers.get("idempotency-key")
    if key is not None:
        key = key.strip()
        if not key or len(key) > 200:
            raise RefusedError("an Idempotency-Key is 1 to 200 characters")
    return {"expected_version": if_match(request), "idempotency_key": key}


def _viewer(principal: Principal, seating: Seating, wanted: str | None) -> str:
    """The viewer to read as: the role's own, or a narrower one asked for with ``as``
    (the referee may read as the public or a seat; anyone may read as the public)."""
    own = viewer_for(principal, seating)
    if wanted is None or wanted.strip() == "":
        return own
    wanted = wanted.strip()
    if wanted.lower() == PUBLIC or wanted == own:
        return wanted.lower() if wanted.lower() == PUBLIC else wanted
    if own == REFEREE:
        return wanted
    raise RefusedError(
        f"you read this game as {own}; you may read it as {own} or as the public, not as {wanted!r}"
    )


def _json(body: bytes, status: int, headers: dict[str, str]) -> Response[Any]:
    return Response(
        content=body, status_code=status, media_type="application/json", headers=headers
    )


def _written_headers(game_id: str, version: int) -> dict[str, str]:
    return {"ETag": etag(version), "Location": f"/api/games/{game_id}"}


# -- who am I, game types, rulebooks ------------------------------------------------


@get(
    "/api/health",
    summary="A bare endpoint: no store, no token (the load benchmark's baseline)",
    security=[],
    sync_to_thread=False,
)
def health() -> dict[str, bool]:
    return {"ok": True}


@get("/api/whoami", summary="The caller's role, name and tables")
async def whoami(request: AnyRequest) -> WhoAmI:
    who = web_of(request).principal(request)
    return WhoAmI(role=who.role, name=who.name, tables=list(who.tables), token_id=who.token_id)


@get(
    "/api/game-types",
    summary="Every game type, with its seats, rulesets, variants and setup options",
)
async def game_types(request: AnyRequest) -> list[GameInfo]:
    web = web_of(request)
    web.principal(request)
    return web.svc.game_types()


@get(
    "/api/game-types/{name:str}",
    summary="One game type: the setup schema for creating a game",
    responses=PROBLEMS,
)
async def game_type(request: AnyRequest, name: FromPath[str]) -> GameInfo:
    web = web_of(request)
    web.principal(request)
    return web.svc.game_type(name)


@get(
    "/api/game-types/{name:str}/rules",
    summary="A game's rulebook ('procedure' for the REF- clauses)",
)
async def rulebook(request: AnyRequest, name: FromPath[str]) -> Rulebook:
    web = web_of(request)
    web.principal(request)
    return web.svc.rulebook(name)


@get(
    "/api/game-types/{name:str}/rules/{clause:str}",
    summary="One clause, or every clause of a section",
    responses=PROBLEMS,
)
async def clause(request: AnyRequest, name: FromPath[str], clause: FromPath[str]) -> list[Clause]:
    web = web_of(request)
    web.principal(request)
    return web.svc.clauses(name, clause)


# -- games ------------------------------------------------------------------------------


@get(
    "/api/games",
    summary="The games list, filtered by game type, status, player and tournament labels",
)
async def list_games(
    request: AnyRequest,
    game: FromQuery[str | None] = None,
    status: FromQuery[str | None] = None,
    player: FromQuery[str | None] = None,
    table: FromQuery[str | None] = None,
    event: FromQuery[str | None] = None,
    round_: Annotated[str | None, QueryParameter(name="round")] = None,
) -> list[ListedGame]:
    web = web_of(request)
    web.principal(request)
    return await web.run(
        web.listing.rows,
        game=game,
        status=status,
        player=player,
        table=table,
        event=event,
        round_=round_,
    )


def _decks(given: dict[str, Any]) -> dict[str, Deck]:
    return {seat: _deck(seat, deck.decklist, deck.sealed) for seat, deck in given.items()}


def _deck(seat: str, decklist: str | None, sealed: str | None) -> Deck:
    if (decklist is None) == (sealed is None):
        raise RefusedError(f"give {seat}'s decklist or its sealed COMMITMENT:SIZE, one of them")
    if sealed is not None:
        return SealedDeck.parse(sealed)
    assert decklist is not None
    return parse_decklist(decklist, f"{seat}'s decklist")


@post("/api/games", summary="Start a game", responses=PROBLEMS, status_code=201)
async def create_game(request: AnyRequest, data: JSONBody[NewGame]) -> Response[PositionView]:
    web = web_of(request)
    who = web.principal(request)

    async def work() -> tuple[int, Any, dict[str, str]]:
        authorize(who, "create", table=data.meta.get("table"), event=data.meta.get("event"))
        unknown = sorted(set(data.player_ids) - set(data.players))
        if unknown:
            raise RefusedError(f"player_ids names seats with no player: {', '.join(unknown)}")
        command = CreateGame(
            game=data.game,
            players=tuple(
                Player(s, n, data.player_ids.get(s, "")) for s, n in data.players.items()
            ),
            ruleset=data.ruleset,
            variants=data.variants,
            options=data.options,
            decks=_decks(data.decks),
            by=who.label,
            meta=data.meta,
        )
        view = await web.create(command)  # in the writer's next group commit
        position = await web.run(web.svc.position, view, viewer=viewer_for(who, view))
        return 201, position, _written_headers(view.game_id, view.version)

    return await web.write(request, who, work)


async def _read_game(
    web: Web, request: AnyRequest, game_id: FromPath[str]
) -> tuple[Principal, Seating]:
    """Who asks, and the plain facts about the game that say what they may read."""
    who = web.principal(request)
    seating = await web.run(web.svc.seating, game_id)
    return who, seating


@get(
    "/api/games/{game_id:str}",
    summary="The position now (or after ?at=N standing actions), for your viewer",
    responses=PROBLEMS,
)
async def position(
    request: AnyRequest,
    game_id: FromPath[str],
    at: FromQuery[int | None] = None,
    as_: Annotated[str | None, QueryParameter(name="as")] = None,
) -> Response[PositionView]:
    web = web_of(request)
    who, seating = await _read_game(web, request, game_id)
    seen = request.headers.get("if-none-match", "").strip().strip('"')
    version, found = await web.run(
        web.svc.position_unless,
        seating.game_id,
        int(seen) if seen.isdigit() else None,
        at=at,
        viewer=_viewer(who, seating, as_),
    )
    tag = etag(version)
    if found is None:
        return _json(b"", 304, {"ETag": tag})
    return _json(msgspec.json.encode(found), 200, {"ETag": tag})


@get(
    "/api/games/{game_id:str}/legal",
    summary="Every legal entry now (referees; a player: their own seat)",
    responses=PROBLEMS,
)
async def legal(
    request: AnyRequest, game_id: FromPath[str], seat: FromQuery[str | None] = None
) -> LegalActions:
    web = web_of(request)
    who, seating = await _read_game(web, request, game_id)
    if who.role == "player" and seat is None:
        mine = viewer_for(who, seating)
        seat = mine if mine not in (PUBLIC, REFEREE) else None
    authorize(who, "legal", seating, seat=seat)
    return await web.run(web.svc.legal, seating.game_id, seat=seat)


@get(
    "/api/games/{game_id:str}/log",
    summary="Every event, as your viewer may see it",
    responses=PROBLEMS,
)
async def game_log(
    request: AnyRequest,
    game_id: FromPath[str],
    as_: Annotated[str | None, QueryParameter(name="as")] = None,
) -> list[dict[str, Any]]:
    web = web_of(request)
    who, seating = await _read_game(web, request, game_id)
    return await web.run(web.svc.log, seating.game_id, viewer=_viewer(who, seating, as_))


@get(
    "/api/games/{game_id:str}/replay",
    summary="The positions step by step (?session=true: every table event)",
    responses=PROBLEMS,
)
async def replay(
    request: AnyRequest,
    game_id: FromPath[str],
    start: Annotated[int, QueryParameter(name="from")] = 0,
    stop: Annotated[int | None, QueryParameter(name="to")] = None,
    session: FromQuery[bool] = False,
    as_: Annotated[str | None, QueryParameter(name="as")] = None,
) -> list[ReplayFrame]:
    web = web_of(request)
    who, seating = await _read_game(web, request, game_id)
    return await web.run(
        web.svc.replay,
        seating.game_id,
        start=start,
        stop=stop,
        session=session,
        viewer=_viewer(who, seating, as_),
    )


# -- entries and corrections --------------------------------------------------------------


@post(
    "/api/games/{game_id:str}/entries",
    summary="Record an entry (If-Match: the version you saw)",
    responses=ENTRY_PROBLEMS,
    status_code=201,
)
async def record_entry(
    request: AnyRequest, game_id: FromPath[str], data: JSONBody[EntryIn]
) -> Response[EntryResult]:
    web = web_of(request)
    who = web.principal(request)
    expected = if_match(request)

    async def work() -> tuple[int, Any, dict[str, str]]:
        return await entry_answer(web, who, game_id, data, expected, str(request.url.path))

    return await web.write(request, who, work)


async def entry_answer(
    web: Web, who: Principal, game_id: str, data: EntryIn, expected: int | None, path: str
) -> tuple[int, Any, dict[str, str]]:
    """Record ``data`` in the game and say how it went: 201 and the result, or 422 and
    the rejection as a problem document (the entry is stored as evidence); the handler's
    and the fast path's (``web.fastpath``) one answer."""
    result = await web.record(
        game_id, data.text, actor=data.seat, principal=who, expected_version=expected
    )
    headers = _written_headers(result.game_id, result.version)
    if result.accepted:
        return 201, result, headers
    return (
        422,
        Problem(
            type="/problems/rejected",
            title="The entry breaks a rule",
            status=422,
            detail=rejection_text(result),
            instance=path,
            game_id=result.game_id,
            violations=[{"clause": v.clause, "reason": v.reason} for v in result.violations],
            event=result.event,
            version=result.version,
            stored=True,
            # the whole EntryResult, so 'referee --server' prints what a local act does
            extra={"result": result},
        ),
        headers,
    )


@post(
    "/api/games/{game_id:str}/check",
    summary="Judge an entry without storing anything",
    responses=PROBLEMS,
    status_code=200,
)
async def check_entry(
    request: AnyRequest, game_id: FromPath[str], data: JSONBody[EntryIn]
) -> EntryResult:
    web = web_of(request)
    who = web.principal(request)

    def work() -> EntryResult:
        return web.svc.record(
            game_id, data.text, actor=data.seat, by=who.label, dry_run=True, principal=who
        )

    return await web.run(work)


@post(
    "/api/games/{game_id:str}/retractions",
    summary="Retract the latest standing action (with a reason)",
    responses=PROBLEMS,
    status_code=201,
)
async def retract(
    request: AnyRequest, game_id: FromPath[str], data: JSONBody[RetractIn]
) -> Response[CorrectionResult]:
    web = web_of(request)
    who = web.principal(request)
    expected = if_match(request)

    def work() -> tuple[int, Any, dict[str, str]]:
        seating = web.svc.seating(game_id)
        authorize(who, "retract", seating)
        result = web.svc.retract(
            seating.game_id, data.reason, by=who.label, expected_version=expected
        )
        return 201, result, _written_headers(seating.game_id, result.version)

    return await web.write(request, who, work)


@post(
    "/api/games/{game_id:str}/backups",
    summary="Back up to the position after action N (head referee)",
    responses=PROBLEMS,
    status_code=201,
)
async def backup(
    request: AnyRequest, game_id: FromPath[str], data: JSONBody[BackupIn]
) -> Response[CorrectionResult]:
    web = web_of(request)
    who = web.principal(request)
    expected = if_match(request)

    def work() -> tuple[int, Any, dict[str, str]]:
        seating = web.svc.seating(game_id)
        authorize(who, "backup", seating)
        result = web.svc.backup(
            seating.game_id, data.to, data.reason, by=who.label, expected_version=expected
        )
        return 201, result, _written_headers(seating.game_id, result.version)

    return await web.write(request, who, work)


def _simple_write(
    action: str, request: AnyRequest, game_id: str, call: Any
) -> Awaitable[Response[Any]]:
    """A write whose answer is the events written: ``call(web, who, seating, expected)`` runs
    the service command, which checks If-Match's version (``expected``) itself."""
    web = web_of(request)
    who = web.principal(request)
    expected = if_match(request)

    def work() -> tuple[int, Any, dict[str, str]]:
        seating = web.svc.seating(game_id)
        authorize(who, action, seating)  # type: ignore[arg-type]
        result = call(web, who, seating, expected)
        return 201, result, _written_headers(seating.game_id, result.version)

    return web.write(request, who, work)


@post(
    "/api/games/{game_id:str}/end",
    summary="End by resignation, agreement or adjudication",
    responses=PROBLEMS,
    status_code=201,
)
async def end_game(
    request: AnyRequest, game_id: FromPath[str], data: JSONBody[EndIn]
) -> Response[WrittenEvents]:
    web = web_of(request)
    who = web.principal(request)
    expected = if_match(request)

    async def work() -> tuple[int, Any, dict[str, str]]:
        command = End(
            how=data.how,
            who=data.who,
            ranking=data.ranking,
            reason=data.reason,
            by=who.label,
            expected_version=expected,
        )
        # in the writer's next group commit, with the entries and the other ends
        action: Action = "adjudicate" if data.how == "adjudication" else "end"
        result = await web.command(game_id, command, action=action, principal=who)
        return 201, result, _written_headers(result.game_id, result.version)

    return await web.write(request, who, work)


@post(
    "/api/games/{game_id:str}/disputes",
    summary="A player disputes a recorded decision",
    responses=PROBLEMS,
    status_code=201,
)
async def open_dispute(
    request: AnyRequest, game_id: FromPath[str], data: JSONBody[DisputeIn]
) -> Response[WrittenEvents]:
    def call(web: Web, who: Principal, seating: Seating, expected: int | None) -> WrittenEvents:
        by = _party(who, seating, data.by)
        return web.svc.dispute(
            seating.game_id, data.event, by=by, claim=data.claim, expected_version=expected
        )

    return await _simple_write("dispute", request, game_id, call)


def _party(who: Principal, seating: Seating, named: str | None) -> str:
    """The player a dispute or appeal is by: a player's own token names their seat
    (found by their player id, never by a name another player may share)."""
    if who.role == "player":
        return viewer_for(who, seating)
    if not named:
        raise RefusedError("name the player (by) who disputes or appeals")
    return named


@post(
    "/api/games/{game_id:str}/disputes/{dispute:int}/appeals",
    summary="Appeal the latest ruling",
    responses=PROBLEMS,
    status_code=201,
)
async def appeal(
    request: AnyRequest, game_id: FromPath[str], dispute: FromPath[int], data: JSONBody[AppealIn]
) -> Response[WrittenEvents]:
    def call(web: Web, who: Principal, seating: Seating, expected: int | None) -> WrittenEvents:
        return web.svc.appeal(
            seating.game_id,
            dispute,
            by=_party(who, seating, data.by),
            grounds=data.grounds,
            expected_version=expected,
        )

    return await _simple_write("appeal", request, game_id, call)


@post(
    "/api/games/{game_id:str}/disputes/{dispute:int}/rulings",
    summary="Rule on a dispute (a table referee: the first ruling; appeals and final rulings: "
    "head referee)",
    responses=PROBLEMS,
    status_code=201,
)
async def rule(
    request: AnyRequest, game_id: FromPath[str], dispute: FromPath[int], data: JSONBody[RulingIn]
) -> Response[WrittenEvents]:
    web = web_of(request)
    who = web.principal(request)

    def work() -> tuple[int, Any, dict[str, str]]:
        seating = web.svc.seating(game_id)
        authorize(
            who,
            "rule_appeal" if data.final or web.svc.dispute_steps(game_id, dispute) else "rule",
            seating,
        )
        result = web.svc.rule(
            seating.game_id,
            dispute,
            decision=data.decision,
            clause=data.clause,
            reason=data.reason,
            by=who.label,
            final=data.final,
        )
        return 201, result, _written_headers(seating.game_id, result.version)

    return await web.write(request, who, work)


@post(
    "/api/games/{game_id:str}/penalties/{number:int}/withdraw",
    summary="Withdraw the penalty of event N (head referee, REF-7.3)",
    description="The penalty stays in the record, marked withdrawn; a result it declared "
    "that still stands is voided, and a result it set aside is declared again.",
    responses=PROBLEMS,
    status_code=201,
)
async def withdraw_penalty(
    request: AnyRequest, game_id: FromPath[str], number: FromPath[int], data: JSONBody[WithdrawIn]
) -> Response[WrittenEvents]:
    return await _simple_write(
        "penalty",
        request,
        game_id,
        lambda web, who, seating, expected: web.svc.withdraw_penalty(
            seating.game_id, number, reason=data.reason, by=who.label, expected_version=expected
        ),
    )


@post(
    "/api/games/{game_id:str}/penalties",
    summary="A judge's penalty (head referee)",
    responses=PROBLEMS,
    status_code=201,
)
async def penalty(
    request: AnyRequest, game_id: FromPath[str], data: JSONBody[PenaltyIn]
) -> Response[WrittenEvents]:
    return await _simple_write(
        "penalty",
        request,
        game_id,
        lambda web, who, seating, expected: web.svc.penalty(
            seating.game_id,
            data.seat,
            data.level,
            data.infraction,
            reason=data.reason,
            by=who.label,
            expected_version=expected,
        ),
    )


@post(
    "/api/games/{game_id:str}/adjustments",
    summary="Carry out a ruling on card text as changes",
    responses=PROBLEMS,
    status_code=201,
)
async def adjust(
    request: AnyRequest, game_id: FromPath[str], data: JSONBody[AdjustIn]
) -> Response[WrittenEvents]:
    return await _simple_write(
        "adjust",
        request,
        game_id,
        lambda web, who, seating, expected: web.svc.adjust(
            seating.game_id,
            data.changes,
            card=data.card,
            reason=data.reason,
            by=who.label,
            resolves=data.resolves,
            expected_version=expected,
        ),
    )


@post(
    "/api/games/{game_id:str}/decks",
    summary="Register a seat's decklist before play",
    responses=PROBLEMS,
    status_code=201,
)
async def register_deck(
    request: AnyRequest, game_id: FromPath[str], data: JSONBody[DeckRegisterIn]
) -> Response[WrittenEvents]:
    return await _simple_write(
        "deck",
        request,
        game_id,
        lambda web, who, seating, expected: web.svc.register_deck(
            seating.game_id,
            data.seat,
            _deck(data.seat, data.decklist, data.sealed),
            by=who.label,
            expected_version=expected,
        ),
    )


@post(
    "/api/games/{game_id:str}/decks/{seat:str}/open",
    summary="Open a sealed decklist (REF-5.3)",
    responses=ENTRY_PROBLEMS,
    status_code=201,
)
async def open_deck(
    request: AnyRequest, game_id: FromPath[str], seat: FromPath[str], data: JSONBody[DeckOpenIn]
) -> Response[EntryResult]:
    web = web_of(request)
    who = web.principal(request)

    def work() -> tuple[int, Any, dict[str, str]]:
        seating = web.svc.seating(game_id)
        authorize(who, "deck", seating)
        result = web.svc.open_deck(
            seating.game_id,
            seat,
            parse_decklist(data.decklist, "decklist"),
            data.salt.strip(),
            by=who.label,
        )
        return (
            (201 if result.accepted else 422),
            result,
            _written_headers(seating.game_id, result.version),
        )

    return await web.write(request, who, work)


# -- records, checks, standings ---------------------------------------------------------------


@get(
    "/api/games/{game_id:str}/audit",
    summary="The audit dossier (referees and scorekeepers)",
    responses=PROBLEMS,
)
async def audit(
    request: AnyRequest, game_id: FromPath[str], dispute: FromQuery[int | None] = None
) -> dict[str, Any]:
    web = web_of(request)
    who, seating = await _read_game(web, request, game_id)
    authorize(who, "audit", seating)
    result: dict[str, Any] = await web.run_projection("audit", seating.game_id, dispute)
    return result


@get(
    "/api/games/{game_id:str}/verify",
    summary="Check one game's hash chain and decisions",
    responses=PROBLEMS,
)
async def verify_game(request: AnyRequest, game_id: FromPath[str]) -> GameReport:
    web = web_of(request)
    who, seating = await _read_game(web, request, game_id)
    authorize(who, "verify", seating)
    report: VerifyReport = await web.run(web.svc.verify, seating.game_id)
    return report.reports[0]


@get(
    "/api/verify",
    summary="Check every game of the store (referees and scorekeepers)",
    responses=PROBLEMS,
)
async def verify_all(request: AnyRequest) -> VerifyReport:
    web = web_of(request)
    who = web.principal(request)
    authorize(who, "verify")
    return await web.run(web.svc.verify, None)


@get(
    "/api/games/{game_id:str}/export",
    summary="The game's record: jsonl (exact, referees only), text or html",
    responses=PROBLEMS,
)
async def export(
    request: AnyRequest,
    game_id: FromPath[str],
    format_: Annotated[str, QueryParameter(name="format")] = "text",
    as_: Annotated[str | None, QueryParameter(name="as")] = None,
) -> Response[str]:
    web = web_of(request)
    who, seating = await _read_game(web, request, game_id)
    viewer = _viewer(who, seating, as_)
    if format_ == "jsonl":
        authorize(who, "export_record", seating)
        if viewer != REFEREE:
            raise RefusedError(
                "a JSONL record is the exact stored record (hidden cards included): the "
                "referee's view only; use format=text for another viewer"
            )
    if format_ == "html":
        from service.replay import replay_html

        html = await web.run(replay_html, web.svc, seating.game_id, viewer)
        return Response(content=html, media_type="text/html; charset=utf-8")
    if format_ not in ("jsonl", "text"):
        raise RefusedError("format is jsonl, text or html")

    def lines() -> str:
        return "".join(web.svc.export([seating.game_id], format_, viewer))  # type: ignore[arg-type]

    body = await web.run(lines)
    media = "application/x-ndjson" if format_ == "jsonl" else "text/plain; charset=utf-8"
    return Response(
        content=body,
        media_type=media,
        headers={"Content-Disposition": f'attachment; filename="{seating.game_id}.{format_}"'},
    )


@post(
    "/api/imports",
    summary="Import a record (jsonl or text, the request body) (head referee)",
    responses=PROBLEMS,
    status_code=200,
    request_max_body_size=IMPORT_BODY_LIMIT,
)
async def import_record(request: AnyRequest) -> list[FileOutcome]:
    web = web_of(request)
    who = web.principal(request)
    authorize(who, "import")
    body = await request.body()

    def work() -> list[FileOutcome]:
        handle, path = tempfile.mkstemp(prefix="referee-import-", suffix=".record")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(body)
            report = web.svc.import_files([path], by=who.label, workers=1)
        finally:
            os.unlink(path)
        for outcome in report.files:
            outcome.source = "request body"
            outcome.detail = outcome.detail.replace(path, "request body")
        return report.files

    try:
        return await web.run_off_loop(work)  # a large record must not stall other tables
    finally:
        web.hub.poke()


@get("/api/scoreboard", summary="Standings and ratings per game type and player")
async def scoreboard(
    request: AnyRequest, game_type: FromQuery[str | None] = None
) -> list[dict[str, Any]]:
    web = web_of(request)
    web.principal(request)
    if game_type is None:
        return await web.scoreboard()
    rows: list[dict[str, Any]] = await web.run_projection("scoreboard", game_type)
    return rows


# -- the referees' queue -----------------------------------------------------------------------


@get(
    "/api/queue",
    summary="What needs a referee now (disputes, appeals, rulings awaited, tables over time, "
    "by urgency then age) and, for information, penalties, idle tables and tables still "
    "playing (head: every table; a table referee: their own; the scorekeeper: the results)",
    responses=PROBLEMS,
)
async def queue(
    request: AnyRequest,
    idle: FromQuery[int] = 10,
    time_limit: FromQuery[int] = 50,
    call_after: FromQuery[int] = 60,
) -> RoomView:
    web = web_of(request)
    who = web.principal(request)
    return await web.run(
        web.svc.queue,
        tables=queue_tables(who),
        idle_minutes=idle,
        time_limit=time_limit,
        results_only=queue_results_only(who),
        call_seconds=call_after,
        event=who.event,
    )


QUEUE_RECHECK = 15.0
"""Seconds between two readings of the queue for a live page when nothing was recorded."""

Signature = list[tuple[str, str, int | None, bool | None, int | None, str, str, bool]]


def _signature(room: RoomView) -> Signature:
    """What a live page shows of each item, less its ages and times left (which tick on
    the page): a call's holder and status too."""
    return [
        (i.kind, i.game_id, i.event, i.needs_action, i.call, i.holder, i.status, i.overdue)
        for i in (*room.needs, *room.info)
    ]


@get(
    "/api/queue/events",
    summary="The queue as server-sent events: 'queue' (the whole queue) whenever it changes",
    responses=PROBLEMS,
)
async def queue_events(
    request: AnyRequest,
    after: FromQuery[int | None] = None,
    idle: FromQuery[int] = 10,
    time_limit: FromQuery[int] = 50,
    call_after: FromQuery[int] = 60,
) -> ServerSentEvent:
    """The page's own settings (``idle``, ``time_limit``, ``call_after``) decide what
    counts as changed; the
    queue is also read again every ``QUEUE_RECHECK`` seconds with no new event, since a
    table goes idle or over time without one."""
    web = web_of(request)
    who = web.principal(request)
    tables = queue_tables(who)
    results_only = queue_results_only(who)
    start = _after(request, after)
    await web.run(  # bad settings: one problem document now, not a broken stream
        web.svc.queue,
        tables=tables,
        idle_minutes=idle,
        time_limit=time_limit,
        call_seconds=call_after,
        event=who.event,
    )

    async def stream() -> AsyncIterator[ServerSentEventMessage]:
        shown: Signature | None = None
        looked = start
        while not web.hub.closing:
            looked = web.hub.last_id
            room = await web.run(
                web.svc.queue,
                tables=tables,
                idle_minutes=idle,
                time_limit=time_limit,
                results_only=results_only,
                call_seconds=call_after,
                event=who.event,
            )
            now = _signature(room)
            if shown is None or now != shown:
                if shown is not None or room.changed > start:
                    yield ServerSentEventMessage(
                        data=msgspec.json.encode(room).decode(), event="queue", id=room.changed
                    )
                shown = now
            if not await web.hub.wait_log(looked, timeout=QUEUE_RECHECK):
                yield ServerSentEventMessage(comment="keep-alive")

    return ServerSentEvent(
        stream(), headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    )


# -- live streams ---------------------------------------------------------------------------------


def _after(request: AnyRequest, after: int | None) -> int:
    """Where a stream resumes: ``Last-Event-ID`` (sent by a reconnecting browser) or ``after``."""
    header = request.headers.get("last-event-id")
    if header is not None and header.strip().isdigit():
        return int(header.strip())
    return max(0, after or 0)


@get(
    "/api/games/{game_id:str}/events",
    summary="The game's events as server-sent events (id: event number; resume with Last-Event-ID; "
    "'revealed': an entry sent sealed before, now shown whole)",
    responses=PROBLEMS,
)
async def game_events(
    request: AnyRequest,
    game_id: FromPath[str],
    after: FromQuery[int | None] = None,
    as_: Annotated[str | None, QueryParameter(name="as")] = None,
) -> ServerSentEvent:
    web = web_of(request)
    who, seating = await _read_game(web, request, game_id)
    viewer = _viewer(who, seating, as_)
    start = _after(request, after)
    game = seating.game_id

    async def stream() -> AsyncIterator[ServerSentEventMessage]:
        last = start
        known: frozenset[int] | None = None
        while not web.hub.closing:
            now = await web.run(game_events_after, web.svc.load, game, last, viewer, known)
            for record in now.revealed:  # sent sealed before: the whole entry, no new id
                yield ServerSentEventMessage(
                    data=json.dumps(record, separators=(",", ":")), event="revealed"
                )
            for record in now.records:
                yield ServerSentEventMessage(
                    data=json.dumps(record, separators=(",", ":")),
                    event=record["kind"],
                    id=record["originator_version"],
                )
            known = now.known
            last = max(last, now.view.version)
            if not await web.hub.wait_game(game, last, timeout=15.0):
                yield ServerSentEventMessage(comment="keep-alive")

    return ServerSentEvent(
        stream(), headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    )


@get(
    "/api/live",
    summary="The games list and the scoreboard as server-sent events (id: notification id; "
    "resume with Last-Event-ID)",
)
async def live(request: AnyRequest, after: FromQuery[int | None] = None) -> ServerSentEvent:
    web = web_of(request)
    web.principal(request)
    start = _after(request, after)

    async def stream() -> AsyncIterator[ServerSentEventMessage]:
        last = start
        board_due: float | None = (
            None  # when a result changed: the standings follow, once a second at most
        )
        board_sent = -1.0
        statuses: dict[str, str] = {}
        loop = asyncio.get_running_loop()
        while not web.hub.closing:
            looked = web.hub.last_id
            # one catch-up per reading of the log, shared by the followers
            changed = await web.run(web.listing.changed_after, last, seen=looked)
            for row in changed:
                yield ServerSentEventMessage(
                    data=msgspec.json.encode(row).decode(), event="game", id=row.changed
                )
            if changed:
                last = changed[-1].changed
                results_moved = False  # a game finished, or a finished one was reopened
                for row in changed:
                    results_moved |= (
                        row.status == "finished" or statuses.get(row.game_id) == "finished"
                    )
                    statuses[row.game_id] = row.status
                if results_moved and board_due is None:
                    board_due = loop.time()
            if board_due is not None and loop.time() - board_sent >= 1.0:
                board = await web.scoreboard(since=board_due)
                yield ServerSentEventMessage(
                    data=json.dumps(board, separators=(",", ":")), event="scoreboard", id=last
                )
                board_due, board_sent = None, loop.time()
            wait = 15.0 if board_due is None else max(0.05, 1.0 - (loop.time() - board_sent))
            if not await web.hub.wait_log(looked, timeout=wait) and board_due is None:
                yield ServerSentEventMessage(comment="keep-alive")

    return ServerSentEvent(
        stream(), headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    )


HANDLERS = [
    health,
    whoami,
    game_types,
    game_type,
    rulebook,
    clause,
    list_games,
    create_game,
    position,
    legal,
    game_log,
    replay,
    record_entry,
    check_entry,
    retract,
    backup,
    end_game,
    open_dispute,
    appeal,
    rule,
    penalty,
    withdraw_penalty,
    adjust,
    register_deck,
    open_deck,
    audit,
    verify_game,
    verify_all,
    export,
    import_record,
    scoreboard,
    queue,
    queue_events,
    game_events,
    live,
]
