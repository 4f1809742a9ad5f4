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
  clock's (``authorize_clock``, a table's extension by its own referee).

What a handler needs comes by dependency injection (``dependencies``): ``web`` (the shared
``Web``: the service, tokens, the writer, the hub), ``caller`` (who asks), ``seating`` (the
plain facts of the path's game that access needs); ``IfMatch`` is the ``If-Match`` header
as a parameter (``expected_version`` reads the version it names).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypedDict

from litestar.connection import ASGIConnection
from litestar.di import NamedDependency, Provide
from litestar.handlers.base import BaseRouteHandler
from litestar.params import HeaderParameter

from service.access import (
    Action,
    EventAction,
    Principal,
    Seating,
    authorize,
    authorize_clock,
    authorize_event,
)
from service.errors import RefusedError
from web.context import Web, web_of

__all__ = [
    "CallerDep",
    "EventTerms",
    "IfMatch",
    "SeatingDep",
    "WebDep",
    "authenticated",
    "dependencies",
    "event_terms",
    "expected_version",
    "may",
    "may_clock",
    "may_event",
    "may_game",
]

Connection = ASGIConnection[Any, Any, Any, Any]
# What a handler asks to be given (by name, ``dependencies``):
WebDep = NamedDependency[Web]  # the shared Web: service, tokens, writer, hub
CallerDep = NamedDependency[Principal]  # the caller (not "who": a body field of that name)
SeatingDep = NamedDependency[Seating]  # the path's game: its id, table, players
# The version a write expects, as the request's header (``expected_version`` reads it); a
# header parameter rather than a dependency, so that the OpenAPI document shows it.
IfMatch = Annotated[
    str | None,
    HeaderParameter(
        name="If-Match",
        required=False,
        description='The game\'s version as its ETag gave it ("12"): a write to a game that '
        "has moved on since answers 412 and stores nothing",
    ),
]
# A guard is a coroutine function: Litestar runs a plain function's guard on a thread of its
# pool (measured: ~200 us CPU more per request, and the writing token set on that thread).
Guard = Callable[[Connection, BaseRouteHandler], Awaitable[None]]
_SEATING = "referee_seating"


async def authenticated(connection: Connection, handler: BaseRouteHandler) -> None:
    """Who asks, before anything else is read (a public route asks nobody, nor does
    ``OPTIONS``: it says which methods a path has, to anyone)."""
    if not handler.opt.get("public") and connection.scope.get("method") != "OPTIONS":
        web_of(connection).principal(connection)


def _who(connection: Connection) -> Principal:
    return web_of(connection).principal(connection)


def may(action: Action) -> Guard:
    """The caller's role may do ``action``, which concerns no one game."""

    async def guard(connection: Connection, handler: BaseRouteHandler) -> None:
        authorize(_who(connection), action)

    return guard


def may_event(action: EventAction, *, scoped: bool = False) -> Guard:
    """The caller's role may do ``action`` to events (``scoped``: to the path's event, for a
    table referee's own event)."""

    async def guard(connection: Connection, handler: BaseRouteHandler) -> None:
        event = connection.path_params.get("event_id") if scoped else None
        authorize_event(_who(connection), action, event=event)

    return guard


async def may_clock(connection: Connection, handler: BaseRouteHandler) -> None:
    """The caller may work the round clock: the head referee; for a time extension to the
    path's table of the path's event, that table's referee too."""
    table = connection.path_params.get("table")
    event = connection.path_params.get("event_id")
    authorize_clock(_who(connection), table=table, event=event.strip() if event else None)


def may_game(action: Action) -> Guard:
    """The caller's role may do ``action`` in the path's game (404 when there is none); the
    game's seating is kept for the handler's ``seating``."""

    async def guard(connection: Connection, handler: BaseRouteHandler) -> None:
        seating = await _seating(connection)
        authorize(_who(connection), action, seating)

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


class EventTerms(TypedDict):
    """An event write's terms as its request states them, for the service's write
    (``service.tournaments.event_write``): the version its writer saw and its key."""

    expected_version: int | None
    idempotency_key: str | None


def event_terms(request: Connection) -> EventTerms:
    """The ``If-Match`` version and ``Idempotency-Key`` of an event write, passed through
    to the service, which checks them (a stale version 412, a key already stored 409)."""
    key = request.headers.get("idempotency-key")
    if key is not None:
        key = key.strip()
        if not key or len(key) > 200:
            raise RefusedError("an Idempotency-Key is 1 to 200 characters")
    return {
        "expected_version": expected_version(request.headers.get("if-match")),
        "idempotency_key": key,
    }


# Each dependency takes the one before it (web -> caller -> seating): Litestar resolves the
# dependencies of one depth together in a task group of their own, which cost more than the
# dependencies themselves (measured: ~0.2 ms CPU per request); a line has one per depth.


def _provide_caller(request: Connection, web: WebDep) -> Principal:
    return web.principal(request)


async def _provide_seating(request: Connection, caller: CallerDep) -> Seating:
    return await _seating(request)


def dependencies(web: Web) -> dict[str, Provide]:
    """What the API's handlers may ask for, of the application serving ``web`` (the shared
    ``Web`` is given as it is: a provider without parameters costs Litestar no parsing)."""

    def provide_web() -> Web:
        return web

    return {
        "web": Provide(provide_web, sync_to_thread=False),
        "caller": Provide(_provide_caller, sync_to_thread=False),
        "seating": Provide(_provide_seating),
    }
