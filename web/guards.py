"""The API's guards and dependencies, in Litestar's own terms (issue 34 item 3).

Guards run before Litestar reads a request's body or parameters, so who asks and whether
their role may is settled first: an unauthenticated write is answered 401 (or 429), a role
that may not is answered 403, never a 400 for a body the caller had no right to send.

- ``authenticated`` (on the whole API, ``web.app``): the caller (``Web.principal``: the one
  authentication, shared with ``web.fastpath``), kept on the request; a route marked
  ``opt={"public": True}`` needs no token.
- ``may(action)``: a role check that needs no game (``verify``, ``import``);
  ``may_game(action)``: one in the game named by the path (``service.access.authorize``
  with the game's seating, kept for the handler); ``may_event(action)``: one on events
  (``authorize_event``, scoped to the path's event for ``audit``); ``may_clock``: the round
  clock's (a table's extension by its own referee). For an event's write both are the write
  pipeline's authorize stage (``service.pipeline.admit``), run before the body is read and
  kept for the write, which does not decide it again; what only the body says (a result
  slip's tables) the pipeline's stage decides in the write.

What a handler needs comes by dependency injection (``dependencies``): ``web`` (the shared
``Web``: the service, tokens, the writer, the hub), ``caller`` (who asks), ``seating`` (the
plain facts of the path's game that access needs), and for every write route ``writer``: a
``Writer`` with the caller and the request's write terms applied, its ``If-Match`` version
and its ``Idempotency-Key``, both header parameters of the provider, so that the OpenAPI
document shows them on every write (and the path's game's seating, found by ``may_game``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, TypedDict, TypeVar, cast

from litestar import Request, Response
from litestar.connection import ASGIConnection
from litestar.di import NamedDependency, Provide
from litestar.handlers.base import BaseRouteHandler
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import HeaderParameter

from service.access import (
    Action,
    EventAction,
    Principal,
    Seating,
    authorize,
    authorize_event,
)
from service.api import (
    Need,
    Terms,
    admit,
    admit_game_early,
    as_caller,
    need,
    under_terms,
    with_terms,
)
from service.cached import CachedService
from service.errors import RefusedError
from service.results import CorrectionResult, WrittenEvents
from web.context import Web, Work, web_of

__all__ = [
    "CallerDep",
    "Guard",
    "IfMatch",
    "Route",
    "SeatingDep",
    "WebDep",
    "Writer",
    "WriterDep",
    "authenticated",
    "dependencies",
    "expected_version",
    "may",
    "may_clock",
    "may_event",
    "may_game",
    "may_game_by",
    "may_write",
    "written_headers",
]

Connection = ASGIConnection[Any, Any, Any, Any]
# What a handler asks to be given (by name, ``dependencies``):
WebDep = NamedDependency[Web]  # the shared Web: service, tokens, writer, hub
CallerDep = NamedDependency[Principal]  # the caller (not "who": a body field of that name)
SeatingDep = NamedDependency[Seating]  # the path's game: its id, table, players
# ``If-Match`` for every write: a game's version, or an event's (``EventInfo.version``).
IfMatch = Annotated[
    str | None,
    HeaderParameter(
        name="If-Match",
        required=False,
        description="The version of the game or event the write was made on, as its ETag or "
        'version gave it ("12"): a write to one that has moved on since answers 412 and '
        "stores nothing; none: written on whatever version is newest",
    ),
]
IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        required=False,
        description="1 to 200 characters chosen by the writer: the write is carried out once "
        "per key and token, the key stored with it in the game's or event's log; sent "
        "again, a game's write is answered as the first time (Idempotent-Replayed: true), "
        "an event's 409 already-stored; a game's key sent again with another request, 422. "
        "A write refused stores nothing and keeps no key: sent again, it is decided again",
    ),
]
T = TypeVar("T")
W = TypeVar("W", WrittenEvents, CorrectionResult)
# A guard is a coroutine function: Litestar runs a plain function's guard on a thread of its
# pool (measured: ~200 us CPU more per request, and the writing token set on that thread).
Guard = Callable[[Connection, BaseRouteHandler], Awaitable[None]]
_SEATING = "referee_seating"
_ADMITTED = "referee_admitted"  # what a guard admitted of an event's write


async def authenticated(connection: Connection, handler: BaseRouteHandler) -> None:
    """Who asks, before anything else is read (a public route asks nobody, nor does
    ``OPTIONS``: it says which methods a path has, to anyone)."""
    if not handler.opt.get("public") and connection.scope.get("method") != "OPTIONS":
        web_of(connection).principal(connection)


def _who(connection: Connection) -> Principal:
    return web_of(connection).principal(connection)


def may(action: Action) -> Guard:
    """The caller's role may do ``action``, a read that concerns no one game (a write's is
    ``may_write``)."""

    async def guard(connection: Connection, handler: BaseRouteHandler) -> None:
        authorize(_who(connection), action)

    return guard


def may_write(action: Action) -> Guard:
    """The caller's role may make a game write ``action`` that names no game yet (an
    import: the games a record holds): the write pipeline's authorize stage
    (``admit_game_early``), run before the body is read and kept for the request's writes."""

    async def guard(connection: Connection, handler: BaseRouteHandler) -> None:
        admit_game_early(_who(connection), action)

    return guard


def may_event(action: EventAction, *, scoped: bool = False) -> Guard:
    """The caller's role may do ``action`` to events (``scoped``: to the path's event, for a
    table referee's own event). A write's (``run``, ``enter``) is the write pipeline's
    authorize stage run before the body is read (``_admit``); a read's is the read's own."""

    async def guard(connection: Connection, handler: BaseRouteHandler) -> None:
        if action in ("run", "enter"):
            _admit(connection, need(action))
            return
        event = connection.path_params.get("event_id") if scoped else None
        authorize_event(_who(connection), action, event=event)

    return guard


async def may_clock(connection: Connection, handler: BaseRouteHandler) -> None:
    """The caller may work the round clock: the head referee; for a time extension to the
    path's table of the path's event, that table's referee too (the pipeline's stage)."""
    table = connection.path_params.get("table")
    event = connection.path_params.get("event_id")
    _admit(connection, need("clock", event, (table,) if table is not None else ()))


def _admit(connection: Connection, wanted: Need) -> None:
    """The write pipeline's authorize stage (``service.pipeline.admit``) for an event's write,
    run before the body is read (403 before 400: a role that may not never learns what is
    wrong with its body), and kept for the write (``Writer.event``), whose stage then does
    not decide it again."""
    admit(_who(connection), wanted)
    connection.scope[_ADMITTED] = wanted  # type: ignore[literal-required]


def may_game_by(param: str, rights: Mapping[str, Action]) -> Guard:
    """The caller's role may do in the path's game what the path parameter ``param`` names,
    by ``rights`` (a name not there is the handler's to refuse)."""

    async def guard(connection: Connection, handler: BaseRouteHandler) -> None:
        action = rights.get(connection.path_params.get(param, ""))
        if action is not None:
            admit_game_early(_who(connection), action, await _seating(connection))

    return guard


def may_game(action: Action) -> Guard:
    """The caller's role may do ``action`` in the path's game (404 when there is none); the
    game's seating is kept for the handler's ``seating``."""

    async def guard(connection: Connection, handler: BaseRouteHandler) -> None:
        seating = await _seating(connection)
        admit_game_early(_who(connection), action, seating)  # the pipeline's stage, kept

    return guard


async def _seating(connection: Connection) -> Seating:
    known = connection.scope.get(_SEATING)
    if isinstance(known, Seating):
        return known
    web = web_of(connection)
    seating = await web.run(web.svc.seating, connection.path_params["game_id"])
    connection.scope[_SEATING] = seating  # type: ignore[literal-required]
    return seating


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


class Route(TypedDict, total=False):
    """Options many routes share, given to a route decorator with ``**``."""

    responses: Mapping[int, ResponseSpec]
    status_code: int
    guards: Sequence[Guard]


def etag(version: int) -> str:
    return f'"{version}"'


def written_headers(game_id: str, version: int) -> dict[str, str]:
    """A game write's answer headers: the game's new version (``ETag``) and where it is."""
    return {"ETag": etag(version), "Location": f"/api/games/{game_id}"}


@dataclass(frozen=True, slots=True)
class Writer:
    """What a write route is given (``writer``): the service, the caller
    and the request's write terms (its ``If-Match`` version and ``Idempotency-Key``), applied
    to every write it carries out, so that a handler is its declaration and one call.

    - ``event(fn, ...)``: an event's write on the writer thread, made by the caller (the
      pipeline's authorize stage asks of them: 403) with the terms handed to the service,
      which checks them (a stale version 412, a key already stored 409);
    - ``game(work)``: a game's write, ``work`` giving (status, body, headers), made under
      both terms (``under_terms``): the pipeline checks the ``If-Match`` version where it
      stages the write (412) and looks for the ``Idempotency-Key`` in the game's log (a
      key sent again is answered as the first time, ``Idempotent-Replayed``; with another
      request, 422);
    - ``written(fn, ...)``: a game's write whose answer is what it wrote (201, ``ETag``).
    """

    web: Web
    request: Request[Any, Any, Any]
    caller: Principal
    expected: int | None  # the version If-Match names
    key: str | None  # the Idempotency-Key
    svc: CachedService  # the web's service
    by: str  # the caller as the record names who did it

    @property
    def seating(self) -> Seating:
        """The path's game, as the route's guard (``may_game``) found it."""
        found = self.request.scope.get(_SEATING)
        assert isinstance(found, Seating), "a route guarded by may_game"
        return found

    @property
    def game_id(self) -> str:
        return self.seating.game_id

    @property
    def event_id(self) -> str:
        """The path's event (its routes' ``{event_id}``), as the path gives it."""
        event_id: str = self.request.path_params["event_id"]
        return event_id

    async def event(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        admitted = cast("Need | None", self.request.scope.get(_ADMITTED))
        write = with_terms(fn, self.expected, self.key)  # checked by the pipeline
        return await self.web.run_event_write(
            as_caller(self.caller, write, admitted),  # the pipeline authorizes the caller
            *args,
            **kwargs,
        )

    async def game(self, work: Work) -> Response[Any]:
        # both terms are the pipeline's: it checks the version, and finds a key stored in
        # the game's log (the write sent again is answered as the first time). A write
        # sent with neither runs under none, as ``with_terms`` leaves it: its stage checks
        # nothing and looks for no key
        if self.expected is None and not self.key:
            return await self.web.write(work)
        held = Terms(self.expected, self.key)
        return await self.web.write(cast("Work", under_terms(work, held)), held)

    async def written(self, fn: Callable[..., W], *args: Any, **kwargs: Any) -> Response[W]:
        def work() -> tuple[int, Any, dict[str, str]]:
            result = fn(*args, **kwargs)
            return 201, result, written_headers(result.game_id, result.version)

        return await self.game(work)


def _key(raw: str | None) -> str | None:
    if raw is None:
        return None
    key = raw.strip()
    if not key or len(key) > 200:
        raise RefusedError("an Idempotency-Key is 1 to 200 characters")
    return key


WriterDep = NamedDependency[Writer]  # a write's writer: caller and terms applied


# Each dependency takes the one before it (web -> caller -> seating): Litestar resolves the
# dependencies of one depth together in a task group of their own, which cost more than the
# dependencies themselves (measured: ~0.2 ms CPU per request); a line has one per depth.


def _provide_caller(request: Connection, web: WebDep) -> Principal:
    return web.principal(request)


async def _provide_seating(request: Connection, caller: CallerDep) -> Seating:
    return await _seating(request)


def _provide_writer(
    request: Request[Any, Any, Any],
    web: WebDep,
    caller: CallerDep,
    if_match: IfMatch = None,
    idempotency_key: IdempotencyKey = None,
) -> Writer:
    expected, key = expected_version(if_match), _key(idempotency_key)
    return Writer(web, request, caller, expected, key, web.svc, caller.label)


def dependencies(web: Web) -> dict[str, Provide]:
    """What the API's handlers may ask for, of the application serving ``web`` (the shared
    ``Web`` is given as it is: a provider without parameters costs Litestar no parsing)."""

    def provide_web() -> Web:
        return web

    return {
        "web": Provide(provide_web, sync_to_thread=False),
        "caller": Provide(_provide_caller, sync_to_thread=False),
        "seating": Provide(_provide_seating),
        "writer": Provide(_provide_writer, sync_to_thread=False),  # after caller, as above
    }
