"""The API's event (tournament) routes (``/api/events``), over ``service.tournaments``.

The same methods the ``referee event`` commands call; request and answer bodies are
msgspec Structs, so the OpenAPI document shows them. Roles (``service.access.
authorize_event``, asked by the write pipeline's authorize stage, before the body is read
when the path says all it needs): the head runs the event (pairs, marks a round started or
ended); the scorekeeper enters players (a late entry with its losses, EV-2.9),
results and corrections; a table referee reports their own tables; everyone reads postings.
Status codes as for games (the OpenAPI document lists them, ``web.api.PROBLEMS``): 201
written, 400 refused (the ``EV-`` clause, nothing stored), 401 no token or a wrong one,
403 the role may not, 404 no such event, 409 another write came first (or a retry of a
write already stored, by its ``Idempotency-Key``), 412 ``If-Match`` names an older version
of the event; no answer but 201 stores anything.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal, TypeVar

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.exceptions import ValidationException
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath, FromQuery, JSONBody
from litestar.types import ControllerRouterHandler

from service.access import EventAction, authorize_event
from service.api import (
    BracketView,
    EventInfo,
    LogLine,
    PairingRow,
    PlayerLine,
    StandingRow,
    table_results,
)
from service.bounds import MAX_CUT, MAX_ROUNDS
from web import collector
from web.api import PROBLEMS, guarded
from web.context import Web, web_of
from web.guards import Route, WebDep, Writer, WriterDep, may_event
from web.schemas import Line, ListText, Page, deck_of

__all__ = ["EVENT_HANDLERS"]

AnyRequest = Request[Any, Any, Any]
JSON = "application/json"
T = TypeVar("T")
S = TypeVar("S", bound=msgspec.Struct)


# The bounds of every door (issue 31, ``service.bounds``): names are lines, reasons pages;
# numbers are integers of sensible size (the service checks rounds and cut exactly).
Rounds = Annotated[int, msgspec.Meta(ge=1, le=MAX_ROUNDS)]
Cut = Annotated[int, msgspec.Meta(ge=0, le=MAX_CUT)]
Small = Annotated[int, msgspec.Meta(ge=0, le=1_000)]
Table = Annotated[int, msgspec.Meta(ge=1, le=100_000)]
RoundNumber = Annotated[int, msgspec.Meta(ge=1, le=1_000)]  # Swiss and playoff rounds
EventId = FromPath[str]
# A rating (EV-2.11): the service refuses one outside 0 to 9,999 naming the clause.
RatingNumber = Annotated[
    int,
    msgspec.Meta(
        description="A whole number from 0 to 9,999 (EV-2.11): round 1 is seeded by rating, "
        "highest first (EV-5.6); outside it the registration is refused (400, EV-2.11)"
    ),
]


class NewEvent(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    name: Line
    game: Line
    format: Line = "swiss"
    pods: bool = False
    rounds: Rounds | None = None
    match: Line = "bo3"
    cut: Cut = 0
    floor: Line = "1/3"
    seed: int | None = None  # round 1's draw (EV-5.6); chosen at random when left out
    deck_deadline: Rounds | None = None  # lists lock when this round is paired (EV-2.8)


class RegisterIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    players: list[Line]
    byes: Small = 0
    sealed: Line | None = None
    decklist: ListText | None = None
    player_id: Line | None = None  # one player's id across the house (EV-2.2)
    player_ids: list[Line] = []  # the players' ids, in order (a new one each past these)
    allow_similar: bool = False  # names that look alike in one event (EV-2.2)
    late_as_losses: bool = False
    """A late entry takes a match loss (0-2) for each round already played (EV-2.9); left
    out, the rounds missed are not counted as played (EV-I.6)."""
    rating: RatingNumber | None = None  # one player's rating (EV-2.11)
    ratings: list[RatingNumber | None] = []  # the players' ratings, in order (null: none)


class Registered(msgspec.Struct, kw_only=True):
    ids: list[str]  # the event's ids (p1, p2, ...)
    player_ids: list[str] = []  # each one's id across the house (their tokens carry it)


class DropIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    player: Line
    reason: Page = ""


class Dropped(msgspec.Struct, kw_only=True):
    player: str
    after_round: int
    line: str = ""
    """The drop in words; in a playoff, the match it conceded (EV-2.10)."""
    table: int = 0
    """The playoff table whose match the drop conceded (0: none)."""


class PairIn(msgspec.Struct, kw_only=True):
    """``manual``: ``{"pairs": [["Ann", "Ben"]], "byes": ["Cal"]}`` or ``{"pods": [...]}``;
    ``repair``: replace the latest round's pairings (head): by hand before any result, or
    with the engine when ``manual`` is left out, keeping tables with a result (EV-5.12)."""

    manual: dict[str, Any] | None = None
    reason: Page = ""
    repair: bool = False


class ResultIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    slips: list[Line]


class CorrectIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    round: Table
    slip: Line
    reason: Page


class Written(msgspec.Struct, kw_only=True):
    event_id: str
    version: int


class RoundMarkIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """``event start-round`` / ``end-round``: the round's mark in the stream (its time is
    the log's). ``round``: the round the caller saw (the latest when left out), so a stale
    client marks that round or is refused, never another. A round is marked once each way,
    never started after its end; it ends only once every table has its result (EV-5.10)."""

    mark: Literal["start", "end"]
    round: RoundNumber | None = None


class RoundMarked(msgspec.Struct, kw_only=True):
    """A round's mark as stored (EV-5.10): which, by whom, and the event's version after it."""

    event_id: str
    round: int
    mark: Literal["start", "end"]
    by: Annotated[
        str, msgspec.Meta(description="Who marked it: the token's holder, as the log names them")
    ]
    version: int  # the event's version after the mark (an If-Match for the next write)


async def _strict(request: AnyRequest, data: S) -> S:
    """``data`` as the body says it, checked strictly (issue 31): Litestar converts a body
    leniently, so ``"rounds": "3"`` became 3; a JSON string is never a number here."""
    try:
        return msgspec.convert(await request.json(), type(data), strict=True)
    except msgspec.ValidationError as exc:
        raise ValidationException(f"the body does not match its schema: {exc}") from None


def _created(body: Any, event_id: str) -> Response[Any]:
    return Response(content=body, status_code=201, headers={"Location": f"/api/events/{event_id}"})


def _written(action: EventAction | None = None) -> Route:
    """A write route's options: written (201), the role's ``action`` checked by a guard (none:
    the handler checks what depends on the body)."""
    guards = [may_event(action)] if action is not None else []
    return Route(responses=PROBLEMS, status_code=201, guards=guards)


async def _version(writer: Writer, event_id: str) -> Response[Written]:
    """The event's version after a write: one indexed query (not ``event_info``, whose count
    of active players sorts them all: 10,000 at the biggest events, the larger part of a
    slip's CPU)."""
    version = await writer.web.run(writer.svc.event_version, event_id)
    return _created(Written(event_id=event_id.strip(), version=version), event_id)


def _shared(container: Any, description: str) -> ResponseSpec:
    """The OpenAPI answer of a shared read (its body is encoded once, so the handler returns
    bytes): the type, and the ETag it carries."""
    return ResponseSpec(
        data_container=container,
        generate_examples=False,
        description=description + " (ETag; If-None-Match answers 304; gzip when asked)",
    )


async def _json(
    request: AnyRequest,
    event_id: str,
    work: Callable[[Web, int], Awaitable[Any]],
    variant: tuple[Any, ...] = (),
    kind: str | None = None,
) -> Response[bytes]:
    """A read every reader shares: ``work(web, version)`` encoded once per event version and
    viewer kind (``web.eventcache``; ``kind``: the reader's, when not their kind of viewer),
    with its ETag and gzip."""
    from web.eventpages import shared_answer

    web = web_of(request)
    caller = web.principal(request)
    authorize_event(caller, "read")

    async def make(version: int) -> bytes:
        return msgspec.json.encode(await work(web, version))

    return await shared_answer(
        request, web, caller, event_id, make, media=JSON, variant=variant, kind=kind
    )


class RoundPairingRow(PairingRow, kw_only=True):
    """One table of a round (or a bye: ``PairingRow``) with the round's number and name
    (``round 3``, a playoff's ``semifinal``), as ``referee event pairings --json`` lists it: a
    reader of the latest round (no ``?round=``) learns which it is; with each table's result or
    games so far (the API's own: the signed postings show the pairings alone)."""

    round: int
    stage: str
    result: str | None = None
    """The table's result once decided, as the pairings page shows it (``2-1-0`` for the
    first-listed player, a pod's places); null until then."""
    so_far: str | None = None
    """A match still being played with a game recorded: the games won so far (``W-L-D`` for
    the first-listed player, as a slip reads); null otherwise."""

    @classmethod
    def of(
        cls,
        number: int,
        stage: str,
        row: PairingRow,
        results: dict[int, str] | None = None,
        scores: dict[int, str] | None = None,
    ) -> RoundPairingRow:
        table = row.table
        return cls(
            **msgspec.structs.asdict(row),
            round=number,
            stage=stage,
            result=(results or {}).get(table) if table is not None else None,
            so_far=(scores or {}).get(table) if table is not None else None,
        )


class EventsController(Controller):
    """Events (tournaments): creating one, players, rounds, results, and the postings every
    reader shares."""

    path = "/api/events"
    tags = ("events",)

    @post("/", summary="Create an event (tournament)", **_written("run"))
    async def create_event(
        self, writer: WriterDep, data: JSONBody[NewEvent]
    ) -> Response[EventInfo]:
        data = await _strict(writer.request, data)
        fields = msgspec.structs.asdict(data)
        name, game = fields.pop("name"), fields.pop("game")
        info = await writer.event(writer.svc.event_new, name, game, **fields)
        return _created(info, info.event_id)

    @get(
        "/{event_id:str}",
        summary="An event and where it stands",
        **guarded(may_event("read")),
    )
    async def show_event(self, web: WebDep, event_id: FromPath[str]) -> EventInfo:
        return await web.run(web.svc.event_info, event_id)

    @post(
        "/{event_id:str}/players",
        summary="Register players (a late entry after round 1)",
        **_written("enter"),
    )
    async def register_players(
        self, writer: WriterDep, event_id: EventId, data: JSONBody[RegisterIn]
    ) -> Response[Registered]:
        data = await _strict(writer.request, data)
        fields = msgspec.structs.asdict(data)
        names, sealed, decklist = (
            fields.pop("players"),
            fields.pop("sealed"),
            fields.pop("decklist"),
        )
        deck = deck_of(decklist, sealed)
        ids = await writer.event(writer.svc.event_register, event_id, names, deck=deck, **fields)
        entrants = (await writer.web.run(writer.svc.event_state, event_id)).players
        house = [str(entrants[i].player_id or "") for i in ids]
        return _created(Registered(ids=ids, player_ids=house), event_id)

    @post(
        "/{event_id:str}/drops",
        summary="Drop a player after the current round",
        **_written("enter"),
    )
    async def drop_player(
        self, writer: WriterDep, event_id: EventId, data: JSONBody[DropIn]
    ) -> Response[Dropped]:
        data = await _strict(writer.request, data)
        row = await writer.event(writer.svc.event_drop, event_id, data.player, reason=data.reason)
        dropped = Dropped(
            player=data.player, after_round=row.after_round, line=row.line, table=row.table
        )
        return _created(dropped, event_id)

    @post(
        "/{event_id:str}/rounds",
        summary="Pair the next round (or by hand, or re-pair the latest) and create its games",
        **_written("run"),
    )
    async def pair_round(
        self, writer: WriterDep, event_id: EventId, data: JSONBody[PairIn]
    ) -> Response[list[PairingRow]]:
        data = await _strict(writer.request, data)
        # with repair and without manual, the engine re-pairs (EV-5.12)
        pair = writer.svc.event_repair if data.repair else writer.svc.event_pair
        rows = await writer.event(
            pair, event_id, manual=data.manual, reason=data.reason, by=writer.by
        )
        collector.settle()  # the round just paired lives: no young collection scans it
        return _created(rows, event_id)

    @post(
        "/{event_id:str}/results",
        summary="Report result slips of the current round (all or none)",
        **_written(),
    )
    async def report_results(
        self, writer: WriterDep, event_id: EventId, data: JSONBody[ResultIn]
    ) -> Response[Written]:
        data = await _strict(writer.request, data)
        # who may report these slips' tables: the write pipeline's authorize stage
        await writer.event(writer.svc.event_result, event_id, data.slips, by=writer.by)
        return await _version(writer, event_id)

    @post(
        "/{event_id:str}/corrections",
        summary="Correct a reported result, with its reason",
        **_written("enter"),
    )
    async def correct_result(
        self, writer: WriterDep, event_id: EventId, data: JSONBody[CorrectIn]
    ) -> Response[Written]:
        data = await _strict(writer.request, data)
        correct = writer.svc.event_correct
        await writer.event(
            correct, event_id, data.round, data.slip, reason=data.reason, by=writer.by
        )
        return await _version(writer, event_id)

    @post(
        "/{event_id:str}/round-marks",
        summary="Mark a round started or ended (ended: once every table has its result)",
        description="As 'referee event start-round' / 'end-round' and the desk's forms: "
        "refused (400, EV-5.10) for a round not paired, a mark already made, a start after the "
        "round's end, or an end while a table lacks its result; nothing stored then. The head "
        "referee's.",
        **_written("run"),
    )
    async def mark_round(
        self, writer: WriterDep, event_id: EventId, data: JSONBody[RoundMarkIn]
    ) -> Response[RoundMarked]:
        data = await _strict(writer.request, data)
        mark = writer.svc.event_round
        number = await writer.event(mark, event_id, data.mark, data.round, by=writer.by)
        version = await writer.web.run(writer.svc.event_version, event_id)
        marked = RoundMarked(
            event_id=event_id.strip(), round=number, mark=data.mark, by=writer.by, version=version
        )
        return _created(marked, event_id)

    @get(
        "/{event_id:str}/pairings",
        summary="A round's pairings (the latest without round)",
        description="Computed once per event version for every reader: an ETag (If-None-Match "
        "answers 304) and gzip when asked.",
        responses={
            **PROBLEMS,
            200: _shared(list[RoundPairingRow], "The round's tables, then byes, with the round"),
        },
    )
    async def event_pairings(
        self, request: AnyRequest, event_id: FromPath[str], round: FromQuery[int | None] = None
    ) -> Response[bytes]:
        async def work(web: Web, version: int) -> list[RoundPairingRow]:
            def rows() -> list[RoundPairingRow]:
                from referee.tournament.playoff import round_label

                found = web.svc.event_pairings(event_id, round)
                state = web.svc.event_state(event_id)
                number = round if round is not None else state.current_round
                stage = round_label(state, number)
                results, scores = table_results(
                    state, number, [row.table for row in found if row.table is not None]
                )
                return [RoundPairingRow.of(number, stage, row, results, scores) for row in found]

            answer: list[RoundPairingRow] = await web.run(rows)
            return answer

        return await _json(request, event_id, work, (round,))

    @get(
        "/{event_id:str}/standings",
        summary="Standings now, or after round N (MTR Appendix C, exact fractions)",
        description="Computed once per event version for every reader: an ETag (If-None-Match "
        "answers 304) and gzip when asked.",
        responses={**PROBLEMS, 200: _shared(list[StandingRow], "Every player's line, best first")},
    )
    async def event_standings(
        self, request: AnyRequest, event_id: FromPath[str], round: FromQuery[int | None] = None
    ) -> Response[bytes]:
        async def work(web: Web, version: int) -> list[StandingRow]:
            rows: list[StandingRow] = await web.run(web.svc.event_standings, event_id, round)
            return rows

        return await _json(request, event_id, work, (round,))

    @get(
        "/{event_id:str}/players/{name:str}",
        summary="A player's own line: this round's table and opponents, record, every round",
        description="The player's page as JSON (PlayerLine), computed once per event version. "
        "Its hall (the table's judge call and result reports) is shown to that player only "
        "(EV-10.7): anyone else reads null there.",
        responses={**PROBLEMS, 200: _shared(PlayerLine, "The player's line")},
    )
    async def event_player(
        self, request: AnyRequest, event_id: FromPath[str], name: FromPath[str]
    ) -> Response[bytes]:
        from web.eventpages import OWN, event_version, player_kind, shared_index

        web = web_of(request)
        caller = web.principal(request)
        authorize_event(caller, "read")
        index = await shared_index(web, event_id, await event_version(web, event_id))
        kind = player_kind(caller, index, name)  # the hall is the player's own (EV-10.7)

        async def work(web: Web, version: int) -> PlayerLine:
            index = await shared_index(web, event_id, version)
            line: PlayerLine = await web.run(index.line, name, own=kind == OWN)
            return line

        return await _json(request, event_id, work, kind=kind)

    @get(
        "/{event_id:str}/bracket",
        summary="The playoff bracket: each stage's matches, seeds, results, the champion",
        description="As 'referee event bracket --json' (EV-6.6); refused (400, EV-6.1) before the "
        "cut. Computed once per event version for every reader.",
        responses={**PROBLEMS, 200: _shared(BracketView, "The playoff by stage")},
    )
    async def event_bracket(self, request: AnyRequest, event_id: FromPath[str]) -> Response[bytes]:
        async def work(web: Web, version: int) -> BracketView:
            view: BracketView = await web.run(web.svc.event_bracket, event_id)
            return view

        return await _json(request, event_id, work)

    @get(
        "/{event_id:str}/log",
        summary="The event's stream",
        **guarded(may_event("audit", scoped=True)),
    )
    async def event_log(self, web: WebDep, event_id: FromPath[str]) -> list[LogLine]:
        return await web.run(web.svc.event_log_named, event_id)

    @get(
        "/{event_id:str}/audit",
        summary="Manual pairings, re-pairings, corrections, penalties and drops",
        **guarded(may_event("audit", scoped=True)),
    )
    async def event_audit(self, web: WebDep, event_id: FromPath[str]) -> dict[str, Any]:
        result: dict[str, Any] = await web.run(web.svc.event_audit_named, event_id)
        return result


EVENT_HANDLERS: list[ControllerRouterHandler] = [EventsController]
