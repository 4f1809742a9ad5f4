"""What the HTTP face's handlers share: the configuration, the ``Web`` context (the
service, tokens, the page forms' keys, the live hub) and ``web_of`` to reach it from a
request.

It sits below ``web.app`` (which assembles the application from the handlers) and
below ``web.api`` and ``web.pages`` (the handlers), so that neither side imports the
other: the layers stay a line, not a circle.
"""

from __future__ import annotations

import asyncio
import collections
import contextvars
import functools
import inspect
import logging
import multiprocessing
import os
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast, overload

import msgspec
from litestar import Response
from litestar.connection import ASGIConnection
from litestar.exceptions import NotAuthorizedException, TooManyRequestsException

from service.access import (
    ANONYMOUS,
    AccessDeniedError,
    Action,
    Principal,
    TokenRefusedError,
    TokenStore,
)
from service.api import Command, CreateGame, Terms, identified
from service.cached import CachedService
from service.idempotency import IdempotencyStore
from service.procedure import WRITING_TOKEN
from service.results import EntryResult, WrittenEvents
from service.sidedb import SideDB, open_side_db
from service.stores import open_store, parse_store
from service.writer import GroupWriter
from web.hub import Hub
from web.problems import MEDIA_TYPE, Problem

if TYPE_CHECKING:
    from service.results import GameView

__all__ = ["BODY_LIMIT", "COOKIE", "ServeConfig", "Web", "cookie_value", "encoded", "web_of"]

log = logging.getLogger("referee.web")

T = TypeVar("T")
Answer = tuple[int, Any, dict[str, str]]  # a write's status, body and headers
Work = Callable[[], Answer] | Callable[[], Awaitable[Answer]]

COOKIE = "referee_token"
JSON = "application/json"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# A request body past these is refused with 413 before it is read whole (issue 22):
# every command's body is a few fields; an import carries whole records.
BODY_LIMIT = 64 * 1024
IMPORT_BODY_LIMIT = 64 * 1024 * 1024


class ServeConfig(msgspec.Struct, kw_only=True):
    """How ``referee serve`` runs: the store, where the projections live, whether
    anonymous readers are the public, and how service calls are run."""

    store: str | None = None
    projections: str | None = None
    public_read: bool = False
    threads: int = 0
    poll_interval: float = 0.25
    secure_cookies: bool = False


class FailedAuthentication:
    """Failed authentications in a sliding window, counted per client address and per
    presented token's prefix (``rf_<id>``; issue 31).

    Only a failing request is ever slowed: past ``limit`` failures within ``window``
    seconds on its address or on its token's prefix, a wrong token is answered 429 (with
    ``Retry-After``) rather than 401. A valid token is never refused because of others'
    failures: behind a proxy every phone in the hall shares one address, and one device
    holding a rotated token must not lock the hall out. Guessing gets nowhere either way
    (a secret has 256 random bits); the limit keeps a flood of wrong tokens cheap."""

    def __init__(self, limit: int = 20, window: float = 10.0) -> None:
        self.limit = limit
        self.window = window
        self._failures: dict[str, collections.deque[float]] = {}  # per address
        self._by_token: dict[str, collections.deque[float]] = {}  # per token prefix

    def _recent(
        self, key: str, now: float, table: dict[str, collections.deque[float]] | None = None
    ) -> collections.deque[float]:
        table = self._failures if table is None else table
        times = table.setdefault(key, collections.deque())
        while times and now - times[0] > self.window:
            times.popleft()
        if len(table) > 100_000:  # a flood of addresses or prefixes: forget the quiet ones
            for quiet in [k for k, v in table.items() if not v or now - v[-1] > self.window]:
                table.pop(quiet, None)
        return times

    @staticmethod
    def prefix(token: str) -> str:
        """What a token is counted by: ``rf_<id>`` (its secret never), else its first 12
        characters (a malformed token)."""
        head, _, rest = token.strip().partition("_")
        token_id = rest.partition("_")[0]
        return f"rf_{token_id[:16]}" if head == "rf" and token_id else token.strip()[:12]

    def failed(self, host: str, token: str = "") -> None:
        """Count a wrong token from ``host``; refuse with 429 when its address or its
        prefix is over the limit (the caller answers 401 otherwise)."""
        now = time.monotonic()
        over: list[collections.deque[float]] = []
        for key, table in ((host, self._failures), (self.prefix(token), self._by_token)):
            times = self._recent(key, now, table)
            times.append(now)
            if len(times) > self.limit:
                over.append(times)
        if over:
            oldest = min(t[0] for t in over)
            wait = max(1, int(self.window - (now - oldest)) + 1)
            raise TooManyRequestsException(
                f"too many failed authentications from this address or with this token; "
                f"retry in {wait} s",
                headers={"Retry-After": str(wait)},
            )


class LoopTurn:
    """The event loop's turns, numbered: a call returns the number of the turn it is made
    in, or ``None`` off the loop's thread.

    A turn ends when the loop next takes up what arrived meanwhile: the first call of a
    turn schedules the next number with ``call_soon``, and the loop runs its ready
    callbacks in order, so every callback queued after that call (a request whose headers
    arrived since, its task's next step) runs after the number moved. Within one turn
    the token store asks SQLite's ``data_version`` once (``TokenStore(moment=...)``): a
    revoke committed before a request was sent is seen by that request, and requests taken
    up together share one query."""

    def __init__(self) -> None:
        self.number = 0
        self._armed = False
        self._loop: asyncio.AbstractEventLoop | None = None

    def __call__(self) -> int | None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return None
        if self._loop is not loop:  # another loop (tests start several): a fresh count
            self._loop, self._armed = loop, False
            self.number += 1
        if not self._armed:
            self._armed = True
            loop.call_soon(self._next)
        return self.number

    def _next(self) -> None:
        self.number += 1
        self._armed = False


class Web:
    """Everything the handlers share: the service, tokens, the page forms' keys, the hub."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.spec = parse_store(config.store)
        if not self.spec.is_postgres:
            assert self.spec.db is not None
            folder = os.path.dirname(os.path.abspath(self.spec.db))
            if not os.path.isdir(folder):
                raise FileNotFoundError(f"{self.spec.db}: the folder {folder} does not exist")
        self._projections = config.projections  # PostgreSQL keeps its read models beside the events
        self.svc = CachedService(open_store(self.spec), projections=self._projections)
        self.side: SideDB = open_side_db(self.spec)
        self.tokens = TokenStore(self.side, cache=True, moment=LoopTurn())
        self.failed_auth = FailedAuthentication()
        self.keys = IdempotencyStore(self.side)  # the page forms' outcomes (``web.formkeys``)
        self.listing = self.svc.game_listing()
        self._pool = (
            ThreadPoolExecutor(config.threads, thread_name_prefix="service")
            if config.threads
            else None
        )
        self._projection_pool: ProcessPoolExecutor | None = None
        self.writer = GroupWriter(self.svc)  # every write, off the event loop, entries grouped
        self._heavy: ThreadPoolExecutor | None = None  # run_off_loop's thread, when needed
        self.hub = Hub(self.svc.notice_log(), self.run, interval=config.poll_interval)
        self._board: tuple[float, list[dict[str, Any]]] | None = None
        self._board_lock = asyncio.Lock()

    # -- running service calls ---------------------------------------------------
    async def run_off_loop(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Call the service on a thread even when service calls run on the event loop
        (``threads=0``, SQLite): work that grows with the request (an import's parsing,
        checking and hashing of up to 64 MiB) must not stall every other table's
        requests while it runs."""
        if self._pool is not None:
            return await self.run(fn, *args, **kwargs)
        if self._heavy is None:
            self._heavy = ThreadPoolExecutor(1, thread_name_prefix="heavy")
        loop = asyncio.get_running_loop()
        call = functools.partial(fn, *args, **kwargs)
        return await loop.run_in_executor(self._heavy, contextvars.copy_context().run, call)

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Call the synchronous service: inline, or in the thread pool."""
        if self._pool is None:
            return fn(*args, **kwargs)
        loop = asyncio.get_running_loop()
        call = functools.partial(fn, *args, **kwargs)
        # The request's context goes with it to the pool thread (the writing token).
        return await loop.run_in_executor(self._pool, contextvars.copy_context().run, call)

    @overload
    async def run_projection(
        self, method: Literal["scoreboard"], game_type: str | None, /
    ) -> list[dict[str, Any]]: ...
    @overload
    async def run_projection(
        self, method: Literal["audit"], ref: str, dispute: int | None, /
    ) -> dict[str, Any]: ...
    async def run_projection(
        self, method: Literal["scoreboard", "audit"], ref: str | None, dispute: int | None = None, /
    ) -> list[dict[str, Any]] | dict[str, Any]:
        """A read model's answer (``scoreboard``, ``audit``), from the projection worker process
        (``web.projection_worker``), started on first use."""
        if self._projection_pool is None:
            from referee import games
            from web import projection_worker

            self._projection_pool = ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=projection_worker.start,
                initargs=(self.spec, self._projections, games.registered()),
            )
        from web.projection_worker import call

        loop = asyncio.get_running_loop()
        answer: list[dict[str, Any]] | dict[str, Any] = await loop.run_in_executor(
            self._projection_pool, call, method, ref, dispute
        )
        return answer

    async def scoreboard(self, since: float | None = None) -> list[dict[str, Any]]:
        """The standings as of ``since`` (the event loop's clock) or later: one computed
        after ``since`` is shared by every stream that asks (each catch-up recomputes every
        standing); ``None`` asks for a fresh one."""
        loop = asyncio.get_running_loop()
        wanted = loop.time() if since is None else since
        async with self._board_lock:
            if self._board is None or self._board[0] < wanted:
                started = loop.time()
                rows: list[dict[str, Any]] = await self.run_projection("scoreboard", None)
                self._board = (started, rows)
            return self._board[1]

    def close(self) -> None:
        self.writer.close()
        if self._pool is not None:
            self._pool.shutdown(wait=False)
        if self._heavy is not None:
            self._heavy.shutdown(wait=True)  # an import under way finishes its append
        if self._projection_pool is not None:
            self._projection_pool.shutdown(wait=True, cancel_futures=True)
        self.svc.close()
        self.side.close()

    # -- who is asking -------------------------------------------------------------
    def principal(self, request: ASGIConnection[Any, Any, Any, Any]) -> Principal:
        """The caller, from ``Authorization: Bearer`` or the pages' cookie; refuses a
        wrong or missing token (401), and a cookie-borne write from another site (403);
        past a burst of wrong tokens from one address or with one token, a wrong token is
        answered 429 (a valid one never is: ``FailedAuthentication``)."""
        known = request.scope.get("referee_principal")
        if isinstance(known, Principal):  # asked before the body was read (web.app)
            WRITING_TOKEN.set("" if known is ANONYMOUS else known.token_id)
            identified(known)
            return known
        host = request.client.host if request.client else "?"
        principal = self._principal(request, host)
        request.scope["referee_principal"] = principal  # type: ignore[typeddict-unknown-key]
        # Events this request writes record the token's id (``service.procedure``);
        # each request is its own task, so its context is its own.
        WRITING_TOKEN.set("" if principal is ANONYMOUS else principal.token_id)
        # ... and are made by its holder: the write pipeline's authorize stage asks of them
        # (``service.pipeline.identified``; before this, the ASGI layer's ``serving`` refuses)
        identified(principal)
        return principal

    def _principal(self, request: ASGIConnection[Any, Any, Any, Any], host: str) -> Principal:
        method = request.scope.get("method", "GET")
        principal = self.identify(
            request.headers.get("authorization"),
            request.headers.get("cookie"),
            safe=method in SAFE_METHODS,
            host=host,
        )
        if (
            principal is not ANONYMOUS
            and method not in SAFE_METHODS
            and not request.headers.get("authorization")  # the cookie carried it
            and not _same_origin(request)
        ):
            raise AccessDeniedError(
                "a write carried by the pages' cookie must come from the pages themselves"
            )
        return principal

    def identify(
        self, authorization: str | None, cookie: str | None, *, safe: bool, host: str | None
    ) -> Principal:
        """The one authentication of the HTTP face (``principal`` for Litestar's requests,
        ``web.fastpath`` for the requests it answers itself): the caller named by
        ``Authorization: Bearer`` (the header's value ``authorization``) or else by the pages'
        cookie (in the ``Cookie`` header ``cookie``), or the anonymous public for a ``safe``
        read when the server reads publicly. Refuses a malformed header, a missing token and a
        wrong one (401); a wrong one is counted against ``host`` and the token's prefix
        (``FailedAuthentication``, 429 past the limit) unless ``host`` is ``None`` (the fast
        path, which hands a refusal on to Litestar to count once)."""
        token: str | None
        if authorization:
            scheme, _, value = authorization.partition(" ")
            if scheme.lower() != "bearer" or not value.strip():
                raise NotAuthorizedException("use Authorization: Bearer TOKEN")
            token = value.strip()
        else:
            token = cookie_value(cookie, COOKIE) if cookie else None
        if token is None:
            if self.config.public_read and safe:
                return ANONYMOUS
            raise NotAuthorizedException(
                "no token: send Authorization: Bearer TOKEN ('referee token create')"
            )
        try:
            return self.tokens.identify(token)
        except TokenRefusedError as refused:
            if host is not None:  # a wrong token, not a missing one, counts
                self.failed_auth.failed(host, token)
            raise NotAuthorizedException(str(refused)) from None

    # -- writes ------------------------------------------------------------------------
    async def record(
        self,
        game_id: str,
        text: str,
        *,
        actor: str | None,
        principal: Principal,
    ) -> EntryResult:
        """Record an entry in the writer's next group commit (``service.writer``), under the
        terms it is made with (``with_terms``): answered once the commit that holds it has
        returned."""
        future = self.writer.entry(
            game_id, text, actor=actor, by=principal.label, principal=principal
        )
        return await asyncio.wrap_future(future)

    async def command(
        self, game_id: str, command: Command, *, action: Action, principal: Principal
    ) -> WrittenEvents:
        """Carry out a referee's command on a game (an end, an adjudication) in the
        writer's next group commit, ``principal`` allowed ``action`` there: answered, as
        ``Commands`` answers it, once the commit that holds it has returned."""
        future = self.writer.command(
            game_id, command, self.svc.written, action=action, principal=principal
        )
        return await asyncio.wrap_future(future)

    async def create(self, command: CreateGame) -> GameView:
        """Start a game in the writer's next group commit; the new game, once stored (the
        service's folded game: hand it back to the service, a face does not read it)."""
        return await asyncio.wrap_future(self.writer.create(command))

    async def run_write(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Call a synchronous write of the service on the writer thread (``service.writer``),
        alone and in order with the grouped entries: every write of this process goes
        through the one writer, so its cached games follow the store. Then the hub reads the
        log at once: the live streams and shared pages move now, not at the hub's next poll."""
        call = functools.partial(fn, *args, **kwargs)
        try:
            return await asyncio.wrap_future(self.writer.call(call))
        finally:
            self.hub.poke()

    async def run_event_write(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``run_write`` for an event's write (one that writes only through the pipeline):
        its commit joins those of the event writes queued with it (``GroupWriter.event``),
        one transaction for them all. Then the hub reads the log at once.

        On PostgreSQL with several server processes, each held write keeps its event's
        lock until the batch is stored (``_Group.lock``): the other process waits for the
        batch, then decides on it (BENCHMARKS.md, "Event writes held on PostgreSQL")."""
        call = functools.partial(fn, *args, **kwargs)
        try:
            return await asyncio.wrap_future(self.writer.event(call))
        finally:
            self.hub.poke()

    async def _perform(self, work: Work) -> Answer:
        """A write's ``work``: awaited when it is a coroutine function (it queues its own
        entry), else run on the writer thread, alone, in order with the entries."""
        if inspect.iscoroutinefunction(work):
            answer: Answer = await work()
            return answer
        return await asyncio.wrap_future(self.writer.call(cast(Callable[[], Answer], work)))

    async def write_once(self, work: Work) -> Answer:
        """A write's ``work`` without an ``Idempotency-Key``, then the hub poked (the live
        streams read what it stored): the handlers' and the fast path's one way to write."""
        try:
            return await self._perform(work)
        finally:
            self.hub.poke()

    async def write(self, work: Work, terms: Terms | None = None) -> Response[Any]:
        """Run a write (``work`` gives its status, body Struct and headers) and answer it.
        Its terms (``Writer.game``: the ``If-Match`` version, the ``Idempotency-Key``) are
        the write pipeline's, which ran ``work`` under them: a game's write sent again with
        a key its first try stored is answered as the first time, nothing stored, and
        marked ``Idempotent-Replayed``; an error raised is the route's problem document."""
        status, body, headers = await self.write_once(work)
        if terms is not None and terms.replayed is not None:
            headers = {**headers, "Idempotent-Replayed": "true"}
        return _encoded(status, body, headers)


def cookie_value(header: str, name: str) -> str | None:
    """The value of cookie ``name`` in a ``Cookie`` header (``a=1; b=2``), or ``None``; a
    value in double quotes is given without them (the pages' token never needs escapes)."""
    for part in header.split(";"):
        key, eq, value = part.partition("=")
        if eq and key.strip() == name:
            value = value.strip()
            if len(value) > 1 and value[0] == value[-1] == '"':
                value = value[1:-1]
            return value
    return None


def _same_origin(request: ASGIConnection[Any, Any, Any, Any]) -> bool:
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        return site in ("same-origin", "none")
    origin = request.headers.get("origin")
    if origin is None:
        return False
    host = request.headers.get("host", "")
    return origin.split("://", 1)[-1] == host


def encoded(body: Any) -> tuple[bytes, str]:
    """A write's answer body as sent: its bytes and media type (a problem document is
    ``application/problem+json``)."""
    return msgspec.json.encode(body), MEDIA_TYPE if isinstance(body, Problem) else JSON


def _encoded(status: int, body: Any, headers: dict[str, str]) -> Response[Any]:
    content, media = encoded(body)
    return Response(content=content, status_code=status, media_type=media, headers=headers)


def web_of(request: ASGIConnection[Any, Any, Any, Any]) -> Web:
    """The shared ``Web`` of the application serving ``request``."""
    web: Web = request.app.state["web"]
    return web
