"""A thin door in front of Litestar for the shared event answers already computed
(issue 23 section 2: 2,000 phones load the same pages within seconds of the pairings), and
for the entries' hot write.

Litestar's routing, middleware, parameter parsing and response objects cost about as much
CPU per request as a cached answer itself (``BENCHMARKS.md``). ``FastPath`` answers a
``GET`` of an event page or its JSON twin, or the shared round clock page
(``web.hallpages``, for a reader without its controls, while it is not past its second),
directly when, and only when, the answer is already in the shared cache
(``web.eventcache``) under the very key the handler would use:

- the caller is identified by the one authentication ``Web.principal`` uses too
  (``Web.identify``: ``Authorization: Bearer`` or the pages' cookie, the token store's
  checks; a refusal is left to Litestar, which answers it and counts it against the
  failed-authentication limit) and its viewer kind is part of the key, so no kind is ever
  served another kind's entry;
- the event's version comes from the hub only when the hub vouches for it, and the posting
  pages' checkpoint only while the last read of it is fresh;
- the query has only the parameters the page reads, in plain form.

It also follows an event's live stream (``/events/E/live``, ``/api/events/E/live``: what
every open page and phone subscribes to) for a caller ``Web.identify`` lets in, of an event
whose version the hub vouches for, with the handler's messages (``web.eventpages.live_messages``,
the one feed of the event), headers and start (``live_start``), sending them as Litestar's
``Stream`` does and leaving when the client leaves: Litestar's routing and its ``Stream`` (an
anyio task group of two per stream) were most of a subscription's cost at a round start
(issue 32 goal 5). A refusal, an unknown event, a query it does not read plainly: the handler's.

It also records the hot write itself, ``POST /api/games/{id}/entries`` (issue 23 section 1:
1,000 entries a second), when the request is plain: a Bearer token the token store lets in,
a JSON body of known length within the limit that decodes as ``EntryIn``, no
``Idempotency-Key``, no header it reads twice. ``web.api.entry_answer`` records it and words
the 201 or 422, ``Web.write_once`` writes it as the handler does, ``web.problems.problem_for``
words every refusal (404, 403, 409, 412, the unreadable entry's 400), so the answer is the
handler's to the byte. A wrong or missing token, a cookie, a body that does not decode, the
failed-authentication limit, a client gone before its body arrived (``web.deadlines``):
Litestar answers, with the body read so far handed on.

It is an ASGI app wrapping Litestar's (``Litestar.asgi_handler``, set by ``web.app``) and uses
only Litestar's public API (its exceptions); it is kept rather than replaced by a Litestar
route or middleware because both run after Litestar's routing and connection objects, which
are what it saves (``BENCHMARKS.md``).

Anything else goes on to Litestar unchanged: a missing, wrong or rate-limited token (the
401, redirect or 429 the handlers answer), an entry not computed yet, an unknown event, a
query it does not read plainly, ``HEAD``, other paths. Both paths build the answer with
``web.eventcache.answer``, so their status, headers and bytes are the same.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any, NamedTuple

import msgspec
from litestar.exceptions import NotAuthorizedException, TooManyRequestsException

from service.access import Principal
from service.api import PlayerIndex, serving, with_terms
from service.procedure import WRITING_TOKEN
from web.api import entry_answer
from web.context import BODY_LIMIT, SAFE_METHODS, Web, encoded
from web.eventcache import Rendered, answer, cache_of, rendered
from web.eventpages import (
    PAGE_HEADERS,
    fresh_checkpoint,
    live_messages,
    live_start,
    player_kind,
    player_page_pieces,
    shared_key,
    viewer_top,
)
from web.eventpaging import page_number
from web.guards import expected_version
from web.hallpages import clock_key, clock_shared
from web.pages import HTML
from web.problems import MEDIA_TYPE, problem_for
from web.schemas import EntryIn

__all__ = ["FastPath"]

ASGIApp = Any  # (scope, receive, send) -> awaitable


class FastPath:
    """An ASGI app answering cached event reads and plain entries itself, passing every
    other request to ``app`` (Litestar's own handler chain). ``enabled`` off passes
    everything (tests)."""

    def __init__(self, web: Web, app: ASGIApp) -> None:
        self.web = web
        self.app = app
        self.enabled = True
        self.served = 0  # cached reads answered here
        self.entries = 0  # entries answered here
        self.streams = 0  # live streams answered here
        self.made = 0  # players' pages made here (answered too: counted in ``served``)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        serving()  # a write in this request's context needs its caller: never LOCAL's
        if self.enabled and scope["type"] == "http":
            if scope["method"] == "GET":
                live = self._live(scope)
                if live is not None:
                    self.streams += 1
                    await _stream(scope, receive, send, live)
                    return
                found = self._cached(scope)
                if isinstance(found, _Make):
                    self.made += 1
                    found = await self._make(found)
                if found is not None:
                    self.served += 1
                    await _send(send, *found)
                    return
            elif scope["method"] == "POST":
                game_id = _entry_path(scope)
                if game_id is not None:
                    await self._entry(scope, receive, send, game_id)
                    return
        await self.app(scope, receive, send)

    async def _entry(self, scope: dict[str, Any], receive: Any, send: Any, game_id: str) -> None:
        """``POST /api/games/{game_id}/entries`` answered as ``web.api.record_entry`` answers
        it, or passed on to Litestar (with the body read so far) when anything is unusual."""
        headers = _headers(scope, _ENTRY_HEADERS)
        if (
            headers is None
            or b"authorization" not in headers
            or b"idempotency-key" in headers  # its checks and the replay's header: the handler's
            or b"transfer-encoding" in headers
            or headers.get(b"content-type", b"").lower() not in _JSON
        ):
            await self.app(scope, receive, send)
            return
        length = headers.get(b"content-length", b"")
        who = self._principal(scope, headers) if length.isdigit() else None
        if who is None or int(length) > BODY_LIMIT:
            await self.app(scope, receive, send)  # refusals are the handler's, counted once
            return
        read: list[dict[str, Any]] = []
        body = b""
        while True:
            message = await receive()
            read.append(message)
            if message["type"] != "http.request":
                break  # the client is gone (or too slow: web.deadlines closed it)
            body += message.get("body", b"")
            if not message.get("more_body", False) or len(body) > BODY_LIMIT:
                break
        data: EntryIn | None = None
        if read[-1]["type"] == "http.request" and not read[-1].get("more_body", False):
            try:
                data = _decode_entry(body)
            except (msgspec.DecodeError, msgspec.ValidationError):
                data = None  # the handler's 400 or 422 says what is wrong
        if data is None or len(body) != int(length):
            await self.app(scope, _replay(read, receive), send)
            return
        self.entries += 1
        web = self.web
        path: str = scope["path"]
        try:
            held = headers.get(b"if-match")
            expected = expected_version(held.decode("latin-1") if held is not None else None)
            WRITING_TOKEN.set(who.token_id)  # the events it writes name the token
            entry = data

            async def work() -> tuple[int, Any, dict[str, str]]:
                return await entry_answer(web, who, game_id, entry, path)

            status, answer_, extra = await web.write_once(with_terms(work, expected))
            content, media = encoded(answer_)
        except Exception as exc:
            client = scope.get("client")
            problem_, extra = problem_for(exc, "POST", path, client[0] if client else "?")
            status, content, media = problem_.status, msgspec.json.encode(problem_), MEDIA_TYPE
        raw = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in extra.items()]
        raw.append((b"content-type", media.encode()))
        raw.append((b"content-length", str(len(content)).encode()))
        await _send(send, status, raw, content)

    async def _make(self, made: _Make) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """A player's page made for its reader's kind and kept, then answered."""
        web = self.web

        async def compute() -> Rendered:
            pieces = await player_page_pieces(
                web, made.event_id, made.name, made.kind, made.version
            )
            return rendered(made.key, pieces, HTML)

        entry = await cache_of(web).get(made.key, compute)
        parts = ["", "events", made.event_id, "players", made.name]
        return self._answer(entry, False, made.key, made.who, made.headers, made.path, parts)

    def _cached(
        self, scope: dict[str, Any]
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes] | _Make | None:
        """The answer for ``scope`` when the cache holds it and the caller may have it (or,
        for a player's page not made yet, what to make)."""
        if scope.get("root_path"):
            return None
        path: str = scope["path"]
        parts = path.split("/")
        api = len(parts) > 2 and parts[1] == "api"
        if api:
            parts = parts[1:]
        # ['', 'events', E, 'pairings'] or ['', 'events', E, 'players', NAME]
        if len(parts) not in (4, 5) or parts[1] != "events" or not all(parts[2:]):
            return None
        event_id, page = parts[2], parts[3]
        if len(parts) == 5 and page != "players":
            return None
        if len(parts) == 4 and page not in ("pairings", "standings", "clock"):
            return None
        query = _query(scope.get("query_string", b""))
        if query is None:
            return None
        if page == "clock":
            return None if api or query else self._clock(scope, event_id, path)
        variant: tuple[Any, ...]
        if page == "players":
            if query:
                return None
            variant = ()
        else:
            allowed = (
                {"round"} if api else {"round", "page", "by" if page == "pairings" else "explain"}
            )
            if not set(query) <= allowed:
                return None
            round_: int | None = None
            if "round" in query:
                text = query["round"]
                if not text.isdigit() or not text.isascii():
                    return None
                round_ = int(text)
                if round_ < 1 and not api:  # the pages' round is >= 1 (else a 400)
                    return None
            # the page of rows as the handler keys it (``web.eventpaging``): a number past the
            # last page is kept as the last, so it is the handler's to answer
            at = page_number(query["page"]) if "page" in query else 1
            if at is None:
                return None
            if api:
                variant = (round_,)
            elif page == "pairings":
                variant = (round_, "name" if query.get("by") == "name" else "table", at)
            else:
                variant = (round_, query.get("explain") or None, at)
        headers = _headers(scope)
        if headers is None:
            return None
        who = self._principal(scope, headers)
        if who is None:
            return None
        web = self.web
        version = web.hub.known_version(event_id)
        if version is None:
            return None
        kind = None
        own_page = page == "players"  # the page or its JSON: kept per ``player_kind``
        index = cache_of(web).peek((event_id, version, "players")) if own_page else None
        if isinstance(index, PlayerIndex):  # its own player's, or not: as the handler asks
            kind = player_kind(who, index, parts[4])
        elif own_page and who.role == "player":
            return None
        key = shared_key(event_id, version, who, path, variant, kind)
        if not api and page != "players":
            seal = fresh_checkpoint(web)
            if seal is None:
                return None
            key += (seal,)
        cache = cache_of(web)
        entry = cache.peek(key)
        if not isinstance(entry, Rendered):
            found = isinstance(index, PlayerIndex) and index.find(parts[4])
            if kind is not None and not api and found:
                # a player's page not made yet at this version: made here, as the handler
                # makes it (``player_page_pieces``), once the version's index exists
                return _Make(key, event_id, version, parts[4], kind, who, headers, path)
            return None
        return self._answer(entry, api, key, who, headers, path, parts)

    def _answer(
        self,
        entry: Rendered,
        api: bool,
        key: tuple[Any, ...],
        who: Principal,
        headers: dict[bytes, bytes],
        path: str,
        parts: list[str],
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """``entry``'s answer to the caller, as the handler's ``shared_answer`` answers."""
        cache = cache_of(self.web)
        if parts[3] == "players" and not api:
            cache.follow(key[0], (key[2], path, parts[4]))
        accept = headers.get(b"accept-encoding", b"").decode("latin-1")
        held = headers.get(b"if-none-match")
        if_none_match = held.decode("latin-1") if held is not None else None
        if api:
            status, out, body = answer(
                entry, accept_encoding=accept, if_none_match=if_none_match, cache=cache
            )
            media = _text(entry.media)
        else:
            status, out, body = answer(
                entry,
                accept_encoding=accept,
                if_none_match=if_none_match,
                cache=cache,
                slot=cache.slot(who, viewer_top),
                headers=PAGE_HEADERS,
            )
            media = _text(entry.media)
        return _raw(status, out, body, media)

    def _live(self, scope: dict[str, Any]) -> AsyncIterator[bytes] | None:
        """An event's live stream (``/events/E/live`` or ``/api/events/E/live``, a plain
        ``?after=N`` at most) as ``web.eventpages._live`` gives it, for a caller ``Web.identify``
        lets in, of an event whose version the hub vouches for (else the handler answers: the
        401, 404 or 400, or the store's version read)."""
        path: str = scope["path"]
        if not path.endswith("/live") or scope.get("root_path"):
            return None
        parts = path.split("/")
        if len(parts) == 5 and parts[1] == "api":
            parts = parts[1:]
        if len(parts) != 4 or parts[1] != "events" or not parts[2] or parts[3] != "live":
            return None
        query = _query(scope.get("query_string", b""))
        if query is None or not set(query) <= {"after"}:
            return None
        after = query.get("after")
        if after is not None and not (after.isdigit() and after.isascii()):
            return None
        headers = _headers(scope, _LIVE_HEADERS)
        if headers is None or self._principal(scope, headers) is None:
            return None
        event_id = parts[2]
        version = self.web.hub.known_version(event_id)
        if version is None:
            return None
        held = headers.get(b"last-event-id")
        start = live_start(
            held.decode("latin-1") if held is not None else None,
            int(after) if after is not None else None,
        )
        return live_messages(self.web, event_id, version, start)

    def _clock(
        self, scope: dict[str, Any], event_id: str, path: str
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes] | None:
        """The shared round clock page (``web.hallpages``) as kept, for a reader without
        its controls, while it is not past its second."""
        headers = _headers(scope)
        if headers is None:
            return None
        who = self._principal(scope, headers)
        if who is None or not clock_shared(who, event_id):
            return None
        web = self.web
        version = web.hub.known_version(event_id)
        if version is None:
            return None
        cache = cache_of(web)
        entry = cache.peek(clock_key(event_id, version, who, path), now=web.svc.clock())
        if not isinstance(entry, Rendered):
            return None
        held = headers.get(b"if-none-match")
        status, out, body = answer(
            entry,
            accept_encoding=headers.get(b"accept-encoding", b"").decode("latin-1"),
            if_none_match=held.decode("latin-1") if held is not None else None,
            cache=cache,
            headers=PAGE_HEADERS,
        )
        return _raw(status, out, body, _text(entry.media))

    def _principal(self, scope: dict[str, Any], headers: dict[bytes, bytes]) -> Principal | None:
        """The caller as ``Web.principal`` finds it (the same ``Web.identify``), or ``None``
        wherever that would refuse (Litestar then answers the refusal and counts the
        failure, once)."""
        authorization = headers.get(b"authorization")
        cookie = headers.get(b"cookie")
        try:
            return self.web.identify(
                authorization.decode("latin-1") if authorization is not None else None,
                cookie.decode("latin-1") if cookie is not None else None,
                safe=scope["method"] in SAFE_METHODS,
                host=None,
            )
        except (NotAuthorizedException, TooManyRequestsException):
            return None


class _Make(NamedTuple):
    """A player's page to make at ``version`` for a reader of ``kind`` (``FastPath._make``)."""

    key: tuple[Any, ...]
    event_id: str
    version: int
    name: str
    kind: str
    who: Principal
    headers: dict[bytes, bytes]
    path: str


def _raw(
    status: int, out: dict[str, str], body: bytes, media: bytes
) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """The answer's headers as Litestar writes them: its own headers, then its type and
    length (a 304 has neither)."""
    raw = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in out.items()]
    if status != 304:
        raw.append((b"content-type", media))
        raw.append((b"content-length", str(len(body)).encode()))
    return status, raw, body


def _text(media: str) -> bytes:
    """The content type as Litestar writes it (a ``text/`` type gets a charset appended)."""
    return f"{media}; charset=utf-8".encode() if media.startswith("text/") else media.encode()


async def _stream(
    scope: dict[str, Any], receive: Any, send: Any, messages: AsyncIterator[bytes]
) -> None:
    """``messages`` sent as Litestar's ``Stream`` sends them, until they end or the client
    leaves: a task of its own waits for the client's ``http.disconnect`` and cancels this
    one while it streams (Litestar runs an anyio task group of two for that)."""
    me = asyncio.current_task()
    assert me is not None
    streaming, left = True, False

    async def listen() -> None:
        nonlocal left
        while (await receive())["type"] != "http.disconnect":
            pass
        left = True
        if streaming:
            me.cancel()

    listener = asyncio.ensure_future(listen())
    try:
        try:
            await send({"type": "http.response.start", "status": 200, "headers": _LIVE_START})
            async for message in messages:
                await send({"type": "http.response.body", "body": message, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except asyncio.CancelledError:
            if not left:
                raise  # the server is stopping, not the client leaving
            me.uncancel()
    finally:
        streaming = False
        listener.cancel()
        await messages.aclose()  # type: ignore[attr-defined]  # the feed loses a follower


async def _send(send: Any, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


_READ_HEADERS = frozenset((b"authorization", b"cookie", b"accept-encoding", b"if-none-match"))
_LIVE_HEADERS = frozenset((b"authorization", b"cookie", b"last-event-id"))
_LIVE_START = [
    (b"cache-control", b"no-store"),
    (b"x-accel-buffering", b"no"),
    (b"content-type", b"text/event-stream; charset=utf-8"),
]
"""The live stream's answer's headers as Litestar writes them for ``web.eventpages._live``
(``LIVE_HEADERS``, then its type)."""
_ENTRY_HEADERS = frozenset(
    (
        b"authorization",
        b"cookie",
        b"content-type",
        b"content-length",
        b"transfer-encoding",
        b"if-match",
        b"idempotency-key",
    )
)
_JSON = frozenset((b"application/json", b"application/json; charset=utf-8"))
_decode_entry = msgspec.json.Decoder(EntryIn).decode
_GAME_ID = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")


def _entry_path(scope: dict[str, Any]) -> str | None:
    """The game of a plain ``POST /api/games/{id}/entries`` (no query, no escapes, an id of
    letters, digits, ``-`` and ``_``), else ``None``."""
    path: str = scope["path"]
    if not path.startswith("/api/games/") or not path.endswith("/entries"):
        return None
    game_id = path[11:-8]
    if (
        not game_id
        or not set(game_id) <= _GAME_ID
        or scope.get("query_string")
        or scope.get("root_path")
        or scope.get("raw_path", path.encode()) != path.encode()
    ):
        return None
    return game_id


def _replay(read: list[dict[str, Any]], receive: Any) -> Any:
    """``receive`` giving back the messages already read first."""
    pending = list(read)

    async def again() -> Any:
        return pending.pop(0) if pending else await receive()

    return again


def _headers(
    scope: dict[str, Any], wanted: frozenset[bytes] = _READ_HEADERS
) -> dict[bytes, bytes] | None:
    """The request's headers this path reads, or ``None`` when one of them comes twice."""
    out: dict[bytes, bytes] = {}
    for name, value in scope["headers"]:
        if name in wanted:
            if name in out:
                return None
            out[name] = value
    return out


def _query(raw: bytes) -> dict[str, str] | None:
    """A plain query (``a=1&b=x``: no escapes, each name once) as a dict, else ``None``."""
    if not raw:
        return {}
    if b"%" in raw or b"+" in raw:
        return None
    out: dict[str, str] = {}
    for part in raw.decode("latin-1").split("&"):
        name, eq, value = part.partition("=")
        if not eq or not name or name in out:
            return None
        out[name] = value
    return out
