"""The API's routes (``/api``) for games, their records, the room and the caller's token,
one Litestar controller per resource:

- ``GameTypesController`` (``/api/game-types``): game types, their setup and rulebooks;
- ``GamesController`` (``/api/games``): the games list, starting a game, reads for each
  role's viewer, entries, corrections, results, disputes, penalties, decklists and the
  game's live stream;
- ``RecordsController`` (``/api``): audits, verification, the record's export and imports;
- ``RoomController`` (``/api``): the referees' queue, the scoreboard and the live list;
- ``TokensController`` (``/api/whoami``): who the token is.

Who asks and whether their role may is settled by guards before a body is read
(``web.guards``: ``authenticated`` on the whole API, ``may``/``may_game`` here); what a
handler needs comes by dependency injection (``web``, ``caller``, ``seating``), and a write
route is given ``writer`` (``web.guards.Writer``: the caller, the ``If-Match`` version and the
``Idempotency-Key`` applied).
A handler only turns the service's answer into HTTP.

Status codes: 200 read; 201 written (the body says what, ``ETag`` is the game's
new version); 400 malformed or refused input, nothing stored; 401 no or bad
token; 403 the role may not; 404 no such game; 409 the procedure does not allow
it now, or another write came first; 412 ``If-Match`` is stale; 422 an entry
that breaks a rule (stored as evidence, its clauses in the problem document),
an ``Idempotency-Key`` reused for another request, or an import whose every game was
refused (the outcomes in the problem document; 200 lists them when any was taken, or was
there already). ``web.openapi`` documents
the statuses every route shares.
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
from collections.abc import AsyncIterator, Callable, Mapping
from functools import partial
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.di import NamedDependency, Provide
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath, FromQuery, JSONBody, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage
from litestar.types import ControllerRouterHandler

from referee.contract import PUBLIC, REFEREE, Player
from referee.kit.decks import Deck, parse_decklist
from referee.rulebook import Clause, Rulebook
from service.access import (
    Action,
    Principal,
    Seating,
    authorize,
    queue_head,
    queue_results_only,
    queue_tables,
    viewer_for,
)
from service.api import (
    CreateGame,
    End,
    FileOutcome,
    ListedGame,
    RoomView,
    VerifyReport,
    admit_game_early,
    game_events_after,
)
from service.errors import RefusedError
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
from service.wording import rejection_text
from web.context import IMPORT_BODY_LIMIT, Web
from web.guards import (
    CallerDep,
    Guard,
    Route,
    SeatingDep,
    WebDep,
    WriterDep,
    etag,
    expected_version,
    may,
    may_game,
    may_write,
    written_headers,
)
from web.problems import Problem, problem_response, problem_spec
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
    one_deck,
)

__all__ = ["HANDLERS", "PROBLEMS", "entry_answer", "expected_version", "guarded", "health"]

AnyRequest = Request[Any, Any, Any]
Answer = tuple[int, Any, dict[str, str]]  # a write's status, body and headers

PROBLEMS = {
    400: problem_spec("Malformed or refused; nothing stored"),
    401: problem_spec("No token, or a wrong one"),
    403: problem_spec("The role may not do this here"),
    404: problem_spec("No such game"),
    409: problem_spec("Not allowed in this state, or another write came first; nothing stored"),
    412: problem_spec("If-Match names an older version; nothing stored"),
}
ENTRY_PROBLEMS = {
    **PROBLEMS,
    422: problem_spec(
        "The entry breaks a rule: stored as evidence, its clauses listed; or a "
        "field is past its bound (nothing stored)"
    ),
}
IMPORT_PROBLEMS = {
    **PROBLEMS,
    422: problem_spec(
        "Every game of the record was refused: each refusal listed "
        "(extra.outcomes, as the 200's list); nothing stored. Or a field is past its bound"
    ),
}
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}


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


def _writes(action: Action, responses: Mapping[int, ResponseSpec] = PROBLEMS) -> Route:
    """A game write route's options: written (201), the role's ``action`` in the path's game
    checked by a guard (``may_game``) before the body is read."""
    return Route(responses=responses, status_code=201, guards=[may_game(action)])


def guarded(guard: Guard) -> Route:
    """A read route's options: the API's problem documents, and ``guard``, which settles
    whether the caller may read before anything else is."""
    return Route(responses=PROBLEMS, guards=[guard])


def _decks(given: dict[str, Any]) -> dict[str, Deck]:
    return {seat: _deck(seat, deck.decklist, deck.sealed) for seat, deck in given.items()}


def _deck(seat: str, decklist: str | None, sealed: str | None) -> Deck:
    refusal = f"give {seat}'s decklist or its sealed COMMITMENT:SIZE, one of them"
    return one_deck(decklist, sealed, refusal, f"{seat}'s decklist")


async def entry_answer(
    web: Web, caller: Principal, game_id: str, data: EntryIn, path: str
) -> Answer:
    """Record ``data`` in the game (under the terms it is made with: ``with_terms``) and
    say how it went: 201 and the result, or 422 and the rejection as a problem document
    (the entry is stored as evidence); the handler's and the fast path's
    (``web.fastpath``) one answer."""
    result = await web.record(game_id, data.text, actor=data.seat, principal=caller)
    headers = written_headers(result.game_id, result.version)
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


def _import_refused(outcomes: list[FileOutcome], request: AnyRequest) -> Response[Any]:
    """422 for an import whose every game was refused (``import-refused``): the first
    refusal in words, every outcome listed (``extra.outcomes``, as a 200 lists them)."""
    more = f" (and {len(outcomes) - 1} more)" if len(outcomes) > 1 else ""
    detail = f"nothing of the record was imported: {outcomes[0].detail}{more}"
    return problem_response(422, "import-refused", detail, request, extra={"outcomes": outcomes})


def _after(request: AnyRequest, after: int | None) -> int:
    """Where a stream resumes: ``Last-Event-ID`` (sent by a reconnecting browser) or ``after``."""
    header = request.headers.get("last-event-id")
    if header is not None and header.strip().isdigit():
        return int(header.strip())
    return max(0, after or 0)


# -- the health check, the caller's token, game types and rulebooks -------------------------


@get(
    "/api/health",
    summary="A bare endpoint: no store, no token (the load benchmark's baseline)",
    security=[],
    opt={"public": True},
    sync_to_thread=False,
)
def health() -> dict[str, bool]:
    return {"ok": True}


class TokensController(Controller):
    """The caller's own token."""

    path = "/api/whoami"
    tags = ("tokens",)

    @get("/", summary="The caller's role, name and tables")
    async def whoami(self, caller: CallerDep) -> WhoAmI:
        return WhoAmI(
            role=caller.role, name=caller.name, tables=list(caller.tables), token_id=caller.token_id
        )


class GameTypesController(Controller):
    """What games the house plays and their rulebooks."""

    path = "/api/game-types"
    tags = ("game types",)

    @get("/", summary="Every game type, with its seats, rulesets, variants and setup options")
    async def game_types(self, web: WebDep) -> list[GameInfo]:
        return web.svc.game_types()

    @get(
        "/{name:str}",
        summary="One game type: the setup schema for creating a game",
        responses=PROBLEMS,
    )
    async def game_type(self, web: WebDep, name: FromPath[str]) -> GameInfo:
        return web.svc.game_type(name)

    @get("/{name:str}/rules", summary="A game's rulebook ('procedure' for the REF- clauses)")
    async def rulebook(self, web: WebDep, name: FromPath[str]) -> Rulebook:
        return web.svc.rulebook(name)

    @get(
        "/{name:str}/rules/{clause:str}",
        summary="One clause, or every clause of a section",
        responses=PROBLEMS,
    )
    async def clause(self, web: WebDep, name: FromPath[str], clause: FromPath[str]) -> list[Clause]:
        return web.svc.clauses(name, clause)


# -- games ------------------------------------------------------------------------------


class GamesController(Controller):
    """Games: the list, starting one, the reads for each viewer and every write on a game."""

    path = "/api/games"
    tags = ("games",)

    @get("/", summary="The games list, filtered by game type, status, player and tournament labels")
    async def list_games(
        self,
        web: WebDep,
        game: FromQuery[str | None] = None,
        status: FromQuery[str | None] = None,
        player: FromQuery[str | None] = None,
        table: FromQuery[str | None] = None,
        event: FromQuery[str | None] = None,
        round_: Annotated[str | None, QueryParameter(name="round")] = None,
    ) -> list[ListedGame]:
        return await web.run(
            web.listing.rows,
            game=game,
            status=status,
            player=player,
            table=table,
            event=event,
            round_=round_,
        )

    @post("/", summary="Start a game", responses=PROBLEMS, status_code=201)
    async def create_game(
        self, writer: WriterDep, data: JSONBody[NewGame]
    ) -> Response[PositionView]:
        web, caller = writer.web, writer.caller
        if writer.expected is not None:
            raise RefusedError("a new game has no version for If-Match to name")

        async def work() -> Answer:
            table, event = data.meta.get("table"), data.meta.get("event")
            admit_game_early(caller, "create", table=table, event=event)  # the stage, first
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
                by=caller.label,
                meta=data.meta,
            )
            view = await web.create(command)  # in the writer's next group commit
            position = await web.run(web.svc.position, view, viewer=viewer_for(caller, view))
            return 201, position, written_headers(view.game_id, view.version)

        return await writer.game(work)

    # -- reads, for the caller's viewer ------------------------------------------------------

    @get(
        "/{game_id:str}",
        summary="The position now (or after ?at=N standing actions), for your viewer",
        responses={
            **PROBLEMS,
            304: ResponseSpec(None, description="If-None-Match names the version now: no body"),
        },
    )
    async def position(
        self,
        request: AnyRequest,
        web: WebDep,
        caller: CallerDep,
        seating: SeatingDep,
        at: FromQuery[int | None] = None,
        as_: Annotated[str | None, QueryParameter(name="as")] = None,
    ) -> Response[PositionView]:
        seen = request.headers.get("if-none-match", "").strip().strip('"')
        version, found = await web.run(
            web.svc.position_unless,
            seating.game_id,
            int(seen) if seen.isdigit() else None,
            at=at,
            viewer=_viewer(caller, seating, as_),
        )
        tag = etag(version)
        if found is None:
            return _json(b"", 304, {"ETag": tag})
        return _json(msgspec.json.encode(found), 200, {"ETag": tag})

    @get(
        "/{game_id:str}/legal",
        summary="Every legal entry now (referees; a player: their own seat)",
        responses=PROBLEMS,
    )
    async def legal(
        self,
        web: WebDep,
        caller: CallerDep,
        seating: SeatingDep,
        seat: FromQuery[str | None] = None,
    ) -> LegalActions:
        if caller.role == "player" and seat is None:
            mine = viewer_for(caller, seating)
            seat = mine if mine not in (PUBLIC, REFEREE) else None
        authorize(caller, "legal", seating, seat=seat)  # the seat asked is the query's
        return await web.run(web.svc.legal, seating.game_id, seat=seat)

    @get(
        "/{game_id:str}/log",
        summary="Every event, as your viewer may see it",
        responses=PROBLEMS,
    )
    async def game_log(
        self,
        web: WebDep,
        caller: CallerDep,
        seating: SeatingDep,
        as_: Annotated[str | None, QueryParameter(name="as")] = None,
    ) -> list[dict[str, Any]]:
        return await web.run(web.svc.log, seating.game_id, viewer=_viewer(caller, seating, as_))

    @get(
        "/{game_id:str}/replay",
        summary="The positions step by step (?session=true: every table event)",
        responses=PROBLEMS,
    )
    async def replay(
        self,
        web: WebDep,
        caller: CallerDep,
        seating: SeatingDep,
        start: Annotated[int, QueryParameter(name="from")] = 0,
        stop: Annotated[int | None, QueryParameter(name="to")] = None,
        session: FromQuery[bool] = False,
        as_: Annotated[str | None, QueryParameter(name="as")] = None,
    ) -> list[ReplayFrame]:
        return await web.run(
            web.svc.replay,
            seating.game_id,
            start=start,
            stop=stop,
            session=session,
            viewer=_viewer(caller, seating, as_),
        )

    @get(
        "/{game_id:str}/events",
        summary="The game's events as server-sent events (id: event number; resume with "
        "Last-Event-ID; 'revealed': an entry sent sealed before, now shown whole)",
        responses=PROBLEMS,
    )
    async def game_events(
        self,
        request: AnyRequest,
        web: WebDep,
        caller: CallerDep,
        seating: SeatingDep,
        after: FromQuery[int | None] = None,
        as_: Annotated[str | None, QueryParameter(name="as")] = None,
    ) -> ServerSentEvent:
        viewer = _viewer(caller, seating, as_)
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
                if not await web.hub.wait_game(game, last, timeout=GAME_RECHECK):
                    yield ServerSentEventMessage(comment="keep-alive")

        return ServerSentEvent(stream(), headers=STREAM_HEADERS)

    # -- entries and corrections --------------------------------------------------------------

    @post(
        "/{game_id:str}/entries",
        summary="Record an entry (If-Match: the version you saw)",
        responses=ENTRY_PROBLEMS,
        status_code=201,
    )
    async def record_entry(
        self, writer: WriterDep, game_id: FromPath[str], data: JSONBody[EntryIn]
    ) -> Response[EntryResult]:
        async def work() -> Answer:  # the service checks the role (in the writer's commit)
            path = str(writer.request.url.path)
            return await entry_answer(writer.web, writer.caller, game_id, data, path)

        return await writer.game(work)

    @post(
        "/{game_id:str}/check",
        summary="Judge an entry without storing anything",
        responses=PROBLEMS,
        status_code=200,
    )
    async def check_entry(
        self, web: WebDep, caller: CallerDep, game_id: FromPath[str], data: JSONBody[EntryIn]
    ) -> EntryResult:
        def work() -> EntryResult:
            return web.svc.record(
                game_id, data.text, actor=data.seat, by=caller.label, dry_run=True, principal=caller
            )

        return await web.run(work)

    @post(
        "/{game_id:str}/retractions",
        summary="Retract the latest standing action (with a reason)",
        **_writes("retract"),
    )
    async def retract(
        self, writer: WriterDep, data: JSONBody[RetractIn]
    ) -> Response[CorrectionResult]:
        w = writer
        return await w.written(w.svc.retract, w.game_id, data.reason, by=w.by)

    @post(
        "/{game_id:str}/backups",
        summary="Back up to the position after action N (head referee)",
        **_writes("backup"),
    )
    async def backup(
        self, writer: WriterDep, data: JSONBody[BackupIn]
    ) -> Response[CorrectionResult]:
        w = writer
        return await w.written(w.svc.backup, w.game_id, data.to, data.reason, by=w.by)

    @post(
        "/{game_id:str}/end",
        summary="End by resignation, agreement or adjudication",
        responses=PROBLEMS,
        status_code=201,
    )
    async def end_game(
        self, writer: WriterDep, game_id: FromPath[str], data: JSONBody[EndIn]
    ) -> Response[WrittenEvents]:
        fields = msgspec.structs.asdict(data)
        command = End(**fields, by=writer.by)
        # in the writer's next group commit, with the entries and the other ends; the writer
        # checks the role (an adjudication is a referee's)
        action: Action = "adjudicate" if data.how == "adjudication" else "end"

        async def work() -> Answer:
            result = await writer.web.command(
                game_id, command, action=action, principal=writer.caller
            )
            return 201, result, written_headers(result.game_id, result.version)

        return await writer.game(work)

    # -- disputes, rulings, penalties ----------------------------------------------------------

    @post(
        "/{game_id:str}/disputes",
        summary="A player disputes a recorded decision",
        **_writes("dispute"),
    )
    async def open_dispute(
        self, writer: WriterDep, data: JSONBody[DisputeIn]
    ) -> Response[WrittenEvents]:
        # whom it is by (a player: their own seat) is the write pipeline's authorize stage's
        w, by = writer, data.by or ""
        return await w.written(w.svc.dispute, w.game_id, data.event, by=by, claim=data.claim)

    @post(
        "/{game_id:str}/disputes/{dispute:int}/appeals",
        summary="Appeal the latest ruling",
        **_writes("appeal"),
    )
    async def appeal(
        self, writer: WriterDep, dispute: FromPath[int], data: JSONBody[AppealIn]
    ) -> Response[WrittenEvents]:
        w, by = writer, data.by or ""  # whom it is by: the pipeline's stage (``party``)
        return await w.written(w.svc.appeal, w.game_id, dispute, by=by, grounds=data.grounds)

    @post(
        "/{game_id:str}/disputes/{dispute:int}/rulings",
        summary="Rule on a dispute (a table referee: the first ruling; appeals and final "
        "rulings: head referee)",
        **_writes("rule"),
    )
    async def rule(
        self, writer: WriterDep, dispute: FromPath[int], data: JSONBody[RulingIn]
    ) -> Response[WrittenEvents]:
        # a ruling on appeal, or a final one, is the head's: the game's state, which the
        # pipeline's stage reads on the writer thread (``ruling_action``)
        w = writer
        return await w.written(
            w.svc.rule, w.game_id, dispute, **msgspec.structs.asdict(data), by=w.by
        )

    @post(
        "/{game_id:str}/penalties", summary="A judge's penalty (head referee)", **_writes("penalty")
    )
    async def penalty(
        self, writer: WriterDep, data: JSONBody[PenaltyIn]
    ) -> Response[WrittenEvents]:
        w = writer
        return await w.written(
            w.svc.penalty,
            w.game_id,
            data.seat,
            data.level,
            data.infraction,
            reason=data.reason,
            by=w.by,
        )

    @post(
        "/{game_id:str}/penalties/{number:int}/withdraw",
        summary="Withdraw the penalty of event N (head referee, REF-7.3)",
        description="The penalty stays in the record, marked withdrawn; a result it declared "
        "that still stands is voided, and a result it set aside is declared again.",
        **_writes("penalty"),
    )
    async def withdraw_penalty(
        self, writer: WriterDep, number: FromPath[int], data: JSONBody[WithdrawIn]
    ) -> Response[WrittenEvents]:
        w = writer
        return await w.written(
            w.svc.withdraw_penalty, w.game_id, number, reason=data.reason, by=w.by
        )

    @post(
        "/{game_id:str}/adjustments",
        summary="Carry out a ruling on card text as changes",
        **_writes("adjust"),
    )
    async def adjust(self, writer: WriterDep, data: JSONBody[AdjustIn]) -> Response[WrittenEvents]:
        w = writer
        return await w.written(w.svc.adjust, w.game_id, **msgspec.structs.asdict(data), by=w.by)

    # -- decklists -------------------------------------------------------------------------------

    @post(
        "/{game_id:str}/decks",
        summary="Register a seat's decklist before play",
        **_writes("deck"),
    )
    async def register_deck(
        self, writer: WriterDep, data: JSONBody[DeckRegisterIn]
    ) -> Response[WrittenEvents]:
        w, deck = writer, _deck(data.seat, data.decklist, data.sealed)
        return await w.written(w.svc.register_deck, w.game_id, data.seat, deck, by=w.by)

    @post(
        "/{game_id:str}/decks/{seat:str}/open",
        summary="Open a sealed decklist (REF-5.3)",
        **_writes("deck", ENTRY_PROBLEMS),
    )
    async def open_deck(
        self, writer: WriterDep, seat: FromPath[str], data: JSONBody[DeckOpenIn]
    ) -> Response[EntryResult]:
        w, decklist = writer, parse_decklist(data.decklist, "decklist")

        def work() -> Answer:
            result = w.svc.open_deck(w.game_id, seat, decklist, data.salt.strip(), by=w.by)
            status = 201 if result.accepted else 422
            return status, result, written_headers(w.game_id, result.version)

        return await w.game(work)


# -- records, checks ---------------------------------------------------------------------------


class RecordsController(Controller):
    """What the record says: audits, verification, exports, imports."""

    path = "/api"
    tags = ("records",)

    @get(
        "/games/{game_id:str}/audit",
        summary="The audit dossier (referees and scorekeepers)",
        **guarded(may_game("audit")),
    )
    async def audit(
        self, web: WebDep, seating: SeatingDep, dispute: FromQuery[int | None] = None
    ) -> dict[str, Any]:
        result: dict[str, Any] = await web.run_projection("audit", seating.game_id, dispute)
        return result

    @get(
        "/games/{game_id:str}/verify",
        summary="Check one game's hash chain and decisions",
        **guarded(may_game("verify")),
    )
    async def verify_game(self, web: WebDep, seating: SeatingDep) -> GameReport:
        report: VerifyReport = await web.run(web.svc.verify, seating.game_id)
        return report.reports[0]

    @get(
        "/verify",
        summary="Check every game of the store (referees and scorekeepers)",
        **guarded(may("verify")),
    )
    async def verify_all(self, web: WebDep) -> VerifyReport:
        return await web.run(web.svc.verify, None)

    @get(
        "/games/{game_id:str}/export",
        summary="The game's record: jsonl (exact, referees only), text or html",
        responses=PROBLEMS,
    )
    async def export(
        self,
        web: WebDep,
        caller: CallerDep,
        seating: SeatingDep,
        format_: Annotated[str, QueryParameter(name="format")] = "text",
        as_: Annotated[str | None, QueryParameter(name="as")] = None,
    ) -> Response[str]:
        viewer = _viewer(caller, seating, as_)
        if format_ == "jsonl":
            authorize(caller, "export_record", seating)  # the exact record: the format's own rule
            if viewer != REFEREE:
                raise RefusedError(
                    "a JSONL record is the exact stored record (hidden cards included): the "
                    "referee's view only; use format=text for another viewer"
                )
        if format_ == "html":
            from service.api import replay_html

            html = await web.run(replay_html, web.svc, seating.game_id, viewer)
            return Response(content=html, media_type="text/html")  # Litestar adds the charset
        if format_ not in ("jsonl", "text"):
            raise RefusedError("format is jsonl, text or html")

        def lines() -> str:
            return "".join(web.svc.export([seating.game_id], format_, viewer))  # type: ignore[arg-type]

        body = await web.run(lines)
        media = "application/x-ndjson" if format_ == "jsonl" else "text/plain"  # +charset
        return Response(
            content=body,
            media_type=media,
            headers={"Content-Disposition": f'attachment; filename="{seating.game_id}.{format_}"'},
        )

    @post(
        "/imports",
        summary="Import a record (jsonl or text, the request body) (head referee)",
        responses=IMPORT_PROBLEMS,
        status_code=200,
        request_max_body_size=IMPORT_BODY_LIMIT,
        guards=[may_write("import")],  # the pipeline's authorize stage
    )
    async def import_record(
        self, request: AnyRequest, web: WebDep, caller: CallerDep
    ) -> Response[list[FileOutcome]]:
        """200 and each game's outcome (imported, skipped: already there, or refused, why)
        when any game of the record was imported or was there already; 422 and the same
        outcomes in a problem document (``import-refused``) when every one was refused, as
        a rejected entry answers 422: nothing of the record was taken."""
        body = await request.body()

        def work() -> list[FileOutcome]:
            handle, path = tempfile.mkstemp(prefix="referee-import-", suffix=".record")
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(body)
                report = web.svc.import_files([path], by=caller.label, workers=1)
            finally:
                os.unlink(path)
            for outcome in report.files:
                outcome.source = "request body"
                outcome.detail = outcome.detail.replace(path, "request body")
            return report.files

        try:
            outcomes = await web.run_off_loop(work)  # a large record must not stall others
        finally:
            web.hub.poke()
        if outcomes and all(o.status == "refused" for o in outcomes):
            return _import_refused(outcomes, request)
        return Response(outcomes)


# -- the room: the referees' queue, the scoreboard, the live list ------------------------------

QUEUE_RECHECK = 15.0
"""Seconds between two readings of the queue for a live page when nothing was recorded."""

GAME_RECHECK = 15.0
"""Seconds a game's stream waits for a new event before it sends a keep-alive and reads the
game again."""

Signature = list[tuple[str, str, int | None, bool | None, int | None, str, str, bool]]


def _signature(room: RoomView) -> Signature:
    """What a live page shows of each item, less its ages and times left (which tick on
    the page): a call's holder and status too."""
    return [
        (i.kind, i.game_id, i.event, i.needs_action, i.call, i.holder, i.status, i.overdue)
        for i in (*room.needs, *room.info)
    ]


QueueRead = Callable[[], RoomView]
"""The queue as its reader reads it, read again at each call (a live page's)."""
QueueReadDep = NamedDependency[QueueRead]


def _provide_queue_read(
    web: WebDep,
    caller: CallerDep,
    idle: FromQuery[int] = 10,
    time_limit: FromQuery[int] = 50,
    call_after: FromQuery[int] = 60,
) -> QueueRead:
    """The queue as ``caller`` reads it (a table referee: their tables; the scorekeeper: the
    results; a token of an event: that event's) with the page's settings: minutes before a
    table counts as idle, a game's time limit, seconds before a judge call is overdue."""
    return partial(
        web.svc.queue,
        tables=queue_tables(caller),
        idle_minutes=idle,
        time_limit=time_limit,
        results_only=queue_results_only(caller),
        call_seconds=call_after,
        event=caller.event,
        head=queue_head(caller),
    )


QUEUE_READ = {"queue_read": Provide(_provide_queue_read, sync_to_thread=False)}


class RoomController(Controller):
    """The hall as the referees and the public follow it."""

    path = "/api"
    tags = ("room",)

    @get("/scoreboard", summary="Standings and ratings per game type and player")
    async def scoreboard(
        self, web: WebDep, game_type: FromQuery[str | None] = None
    ) -> list[dict[str, Any]]:
        if game_type is None:
            return await web.scoreboard()
        rows: list[dict[str, Any]] = await web.run_projection("scoreboard", game_type)
        return rows

    @get(
        "/queue",
        summary="What needs a referee now (disputes, appeals, rulings awaited, tables over "
        "time, by urgency then age) and, for information, penalties, idle tables and tables "
        "still playing (head: every table; a table referee: their own; the scorekeeper: the "
        "results)",
        responses=PROBLEMS,
        dependencies=QUEUE_READ,
    )
    async def queue(self, web: WebDep, queue_read: QueueReadDep) -> RoomView:
        return await web.run(queue_read)

    @get(
        "/queue/events",
        summary="The queue as server-sent events: 'queue' (the whole queue) whenever it changes",
        responses=PROBLEMS,
        dependencies=QUEUE_READ,
    )
    async def queue_events(
        self,
        request: AnyRequest,
        web: WebDep,
        queue_read: QueueReadDep,
        after: FromQuery[int | None] = None,
    ) -> ServerSentEvent:
        """The page's own settings (``idle``, ``time_limit``, ``call_after``) decide what
        counts as changed; the queue is also read again every ``QUEUE_RECHECK`` seconds with
        no new event, since a table goes idle or over time without one."""
        start = _after(request, after)
        await web.run(queue_read)  # bad settings: one problem document now, not a broken stream

        async def stream() -> AsyncIterator[ServerSentEventMessage]:
            shown: Signature | None = None
            looked = start
            while not web.hub.closing:
                looked = web.hub.last_id
                room = await web.run(queue_read)
                now = _signature(room)
                if shown is None or now != shown:
                    if shown is not None or room.changed > start:
                        yield ServerSentEventMessage(
                            data=msgspec.json.encode(room).decode(),
                            event="queue",
                            id=room.changed,
                        )
                    shown = now
                if not await web.hub.wait_log(looked, timeout=QUEUE_RECHECK):
                    yield ServerSentEventMessage(comment="keep-alive")

        return ServerSentEvent(stream(), headers=STREAM_HEADERS)

    @get(
        "/live",
        summary="The games list and the scoreboard as server-sent events (id: notification "
        "id; resume with Last-Event-ID)",
    )
    async def live(
        self, request: AnyRequest, web: WebDep, after: FromQuery[int | None] = None
    ) -> ServerSentEvent:
        start = _after(request, after)

        async def stream() -> AsyncIterator[ServerSentEventMessage]:
            last = start
            board_due: float | None = None  # a result changed: the standings follow, 1/s at most
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

        return ServerSentEvent(stream(), headers=STREAM_HEADERS)


HANDLERS: list[ControllerRouterHandler] = [
    TokensController,
    GameTypesController,
    GamesController,
    RecordsController,
    RoomController,
]
