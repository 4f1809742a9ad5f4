"""The HTTP face: one Litestar application over the application layer.

``create_app(ServeConfig(...))`` opens the store named by ``store`` (a SQLite
file or a PostgreSQL URL, ``service.stores``), the tokens and idempotency keys
beside it (``service.access``, ``service.idempotency``) and the live-stream hub,
and serves the API under ``/api``, the pages, and the OpenAPI document under
``/schema``. Handlers hold no referee logic: they authenticate, ask
``service.access`` whether the role may act, call ``RefereeService`` and turn
its answers and errors into HTTP.

The service is synchronous. With ``threads=0`` its calls run on the event loop
(one process on SQLite: no thread hops, and SQLite takes one writer at a time
anyway); with ``threads=N`` they run in a pool of N threads, which overlaps the
network waits of a PostgreSQL store. Read models (scoreboard, audits) are caught
up in a worker process (``web.projection_worker``) so that their folding never
holds the GIL the event loop needs.
"""

from __future__ import annotations

import os
import re
import sys
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, cast

import msgspec
from litestar import Litestar, Request, Response, Router
from litestar.enums import RequestEncodingType
from litestar.exceptions import HTTPException, NotAuthorizedException
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme
from litestar.params import BodyKwarg
from litestar.routes import HTTPRoute

from web import (
    api,
    calls_api,
    calls_pages,
    collector,
    deskpage,
    event_api,
    event_fixes_api,
    eventpages,
    hall_api,
    hallpages,
    offline_api,
    pages,
)
from web.context import BODY_LIMIT, COOKIE, SAFE_METHODS, ServeConfig, Web, web_of
from web.fastpath import FastPath
from web.guards import authenticated, dependencies
from web.openapi import Completion, TruthfulJson, TruthfulRedoc
from web.problems import handle_exception

if TYPE_CHECKING:
    from litestar.types import ASGIApp

# ``ServeConfig``, ``Web``, ``web_of`` and ``COOKIE`` live in ``web.context`` (shared by the
# handlers); they are named here too for the callers that start a server.
__all__ = ["COOKIE", "ServeConfig", "Web", "create_app", "web_of"]


def create_app(config: ServeConfig | None = None) -> Litestar:
    """The application for ``config`` (the store is opened now; the hub starts with the app)."""
    config = config or ServeConfig()
    web = Web(config)
    completion = Completion(public_read=config.public_read)

    @asynccontextmanager
    async def lifespan(app: Litestar) -> Any:
        await web.hub.start()
        web.hub.close_streams_on_exit_signals()
        try:
            yield
        finally:
            await web.hub.stop()
            web.close()

    app = Litestar(
        route_handlers=[
            api.health,  # no token, no guard: the load benchmarks' baseline
            # the API: who asks is settled by a guard before anything is read, and the
            # handlers are given what they need by dependency injection (web.guards)
            Router(
                "/",
                route_handlers=[
                    *api.HANDLERS,
                    *event_api.EVENT_HANDLERS,
                    *event_fixes_api.EVENT_FIX_HANDLERS,
                    *calls_api.CALLS_HANDLERS,
                    *hall_api.HALL_HANDLERS,
                    *offline_api.OFFLINE_HANDLERS,
                ],
                guards=[authenticated],
                dependencies=dependencies(web),
            ),
            *hallpages.HALL_PAGES,
            *deskpage.DESK_PAGES,
            *pages.HANDLERS,
            *eventpages.HANDLERS,
            *calls_pages.CALLS_PAGES,
        ],
        exception_handlers={Exception: handle_exception},
        before_request=_before,
        request_max_body_size=BODY_LIMIT,  # 413 past it; imports have their own bound
        lifespan=[lifespan],
        state=_state(web),
        openapi_config=OpenAPIConfig(
            title="Referee",
            version="1",
            description="An event-sourced referee service for tabletop games: record entries "
            "checked against each game's rulebook, read positions and logs for your role, "
            "follow games live.",
            components=Components(
                security_schemes={
                    "bearer": SecurityScheme(
                        type="http",
                        scheme="bearer",
                        description="A token from 'referee token create'.",
                    )
                }
            ),
            security=[{"bearer": []}],
            # the document as the server answers (web.openapi), at /schema/openapi.json and
            # to browse at /schema
            render_plugins=[TruthfulJson(completion), TruthfulRedoc(completion)],
        ),
        logging_config=None,
        debug=False,
    )
    # Cached event answers are served before Litestar routes the request (web.fastpath).
    app.asgi_handler = cast("ASGIApp", FastPath(web, app.asgi_handler))
    return app


async def _before(request: Request[Any, Any, Any]) -> Response[None] | None:
    """``OPTIONS`` answered with every method of its path (``_allow``); a body of a type its
    route does not take refused (``_body_type``, 415); every other request goes on to its
    handler."""
    if request.method == "OPTIONS":
        return Response(None, status_code=204, headers={"Allow": _allow(request)})
    if request.method not in SAFE_METHODS:
        _body_type(request)
    return None


JSON_BODY = RequestEncodingType.JSON
_FORMS = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})


def _body_type(request: Request[Any, Any, Any]) -> None:
    """Refuse (415, nothing read or stored) a body its route does not take: an API route
    taking a JSON body (its handler's ``data``) takes ``application/json`` (or a ``+json``
    type), a page's form (any other route's ``POST``) a form's two types. A request without
    a body is its handler's to answer; so are the routes reading a body of their own
    (``/api/imports``, a record's text)."""
    headers = request.headers
    if headers.get("content-length", "0") in ("", "0") and "transfer-encoding" not in headers:
        return
    sent = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if str(request.url.path).startswith("/api/"):
        data = request.route_handler.parsed_fn_signature.parameters.get("data")
        body = data.kwarg_definition if data is not None else None
        if data is None or (isinstance(body, BodyKwarg) and body.media_type != JSON_BODY):
            return
        wanted = "application/json"
        if sent == wanted or (sent.startswith("application/") and sent.endswith("+json")):
            return
    else:
        wanted = "a form (application/x-www-form-urlencoded or multipart/form-data)"
        if sent in _FORMS or not _signed_in(request):
            return  # a page asks who writes first: sends the stranger to sign in
    what = f"a body of type {sent[:100]}" if sent else "a body without a Content-Type"
    raise HTTPException(status_code=415, detail=f"{what} sent; this route takes {wanted}")


def _signed_in(request: Request[Any, Any, Any]) -> bool:
    """Whether the request carries a token or session the server accepts."""
    try:
        web_of(request).principal(request)
    except NotAuthorizedException:
        return False
    return True


_TYPED = re.compile(r"\{(\w+):\w+\}")  # a path parameter with its type: {game_id:str}


def _allow(request: Request[Any, Any, Any]) -> str:
    """The methods of the request's path, as ``Allow`` lists them. Litestar's own ``OPTIONS``
    answer names only the methods of the first handler registered for a path (its route is
    rebuilt as more handlers join, its ``OPTIONS`` handler is not), so ``GET /api/games``
    hid ``POST /api/games``."""
    methods: dict[str, str] | None = request.app.state.get("allow")
    if methods is None:
        methods = {
            _TYPED.sub(r"{\1}", route.path): ", ".join(sorted(route.methods))
            for route in request.app.routes
            if isinstance(route, HTTPRoute)
        }
        request.app.state["allow"] = methods
    template = _TYPED.sub(r"{\1}", request.scope.get("path_template", ""))
    return methods.get(template, "OPTIONS")


def _state(web: Web) -> Any:
    from litestar.datastructures import State

    return State({"web": web})


def app_from_env() -> Litestar:
    """Factory for server workers started by ``referee serve``: the configuration comes
    in ``REFEREE_SERVE_CONFIG`` (JSON of ``ServeConfig``)."""
    raw = os.environ.get("REFEREE_SERVE_CONFIG", "{}")
    app = create_app(msgspec.json.decode(raw, type=ServeConfig))
    # A server holds many folded games and events: the collector's policy (web.collector)
    # collects the young generation less often and freezes what lives (full collections
    # were ~30 ms pauses; a young one meeting a round just paired at 10,000 players, 216-325).
    collector.install()
    if app.state["web"].config.threads:
        # A service thread holding the store's write lock (PostgreSQL locks the events table
        # for each append) must get the GIL back quickly to commit: with the default 5 ms
        # switch interval the other threads kept it waiting (measured: 500-600 -> 900-980
        # appends/s with two processes of 8 threads, benchmarks/bench_http.py, when the append
        # held the lock over two round trips; since events.backends.postgres makes it one, this
        # measures neither better nor worse). With service calls on the event loop (SQLite)
        # the default serves better.
        sys.setswitchinterval(0.0002)
    return app
