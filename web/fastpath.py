"""A thin door in front of Litestar for the shared event answers already computed
(issue 23 section 2: 2,000 phones load the same pages within seconds of the pairings).

Litestar's routing, middleware, parameter parsing and response objects cost about as much
CPU per request as a cached answer itself (``BENCHMARKS.md``). ``FastPath`` answers a
``GET`` of an event page or its JSON twin directly when, and only when, the answer is
already in the shared cache (``web.eventcache``) under the very key the handler would use:

- the caller is identified as ``Web.principal`` does (``Authorization: Bearer`` or the
  pages' cookie, the failed-authentication limit, the token store's checks) and its viewer
  kind is part of the key, so no kind is ever served another kind's entry;
- the event's version comes from the hub only when the hub vouches for it, and the posting
  pages' checkpoint only while the last read of it is fresh;
- the query has only the parameters the page reads, in plain form.

Anything else goes on to Litestar unchanged: a missing, wrong or rate-limited token (the
401, redirect or 429 the handlers answer), an entry not computed yet, an unknown event, a
query it does not read plainly, ``HEAD``, other paths. Both paths build the answer with
``web.eventcache.answer``, so their status, headers and bytes are the same.
"""

from __future__ import annotations

from typing import Any

from litestar._parsers import parse_cookie_string

from service.access import ANONYMOUS, Principal, TokenRefusedError
from web.context import COOKIE, Web
from web.eventcache import Rendered, answer, cache_of
from web.eventpages import PAGE_HEADERS, fresh_checkpoint, shared_key, viewer_top

__all__ = ["FastPath"]

ASGIApp = Any  # (scope, receive, send) -> awaitable


class FastPath:
    """An ASGI app answering cached event reads itself, passing every other request to
    ``app`` (Litestar's own handler chain). ``enabled`` off passes everything (tests)."""

    def __init__(self, web: Web, app: ASGIApp) -> None:
        self.web = web
        self.app = app
        self.enabled = True
        self.served = 0

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if self.enabled and scope["type"] == "http" and scope["method"] == "GET":
            found = self._cached(scope)
            if found is not None:
                status, headers, body = found
                self.served += 1
                await send({"type": "http.response.start", "status": status, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)

    def _cached(self, scope: dict[str, Any]) -> tuple[int, list[tuple[bytes, bytes]], bytes] | None:
        """The answer for ``scope`` when the cache holds it and the caller may have it."""
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
        if len(parts) == 4 and page not in ("pairings", "standings"):
            return None
        query = _query(scope.get("query_string", b""))
        if query is None:
            return None
        variant: tuple[Any, ...]
        if page == "players":
            if query:
                return None
            variant = ()
        else:
            allowed = {"round"} if api else {"round", "by" if page == "pairings" else "explain"}
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
            if api:
                variant = (round_,)
            elif page == "pairings":
                variant = (round_, "name" if query.get("by") == "name" else "table")
            else:
                variant = (round_, query.get("explain") or None)
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
        key = shared_key(event_id, version, who, path, variant)
        if not api and page != "players":
            seal = fresh_checkpoint(web)
            if seal is None:
                return None
            key += (seal,)
        cache = cache_of(web)
        entry = cache.peek(key)
        if not isinstance(entry, Rendered):
            return None
        if page == "players" and not api:
            cache.follow(event_id, (key[2], path, parts[4]))
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
        # as Litestar writes them: the answer's own headers, then its type and length (a 304
        # has neither)
        raw = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in out.items()]
        if status != 304:
            raw.append((b"content-type", media))
            raw.append((b"content-length", str(len(body)).encode()))
        return status, raw, body

    def _principal(self, scope: dict[str, Any], headers: dict[bytes, bytes]) -> Principal | None:
        """The caller as ``Web.principal`` finds it, or ``None`` wherever that would refuse
        (the handler then answers the refusal and counts the failure)."""
        web = self.web
        client = scope.get("client")
        host = client[0] if client else "?"
        try:
            web.failed_auth.check(host)
        except Exception:  # noqa: BLE001 - the 429 is the handler's to answer
            return None
        header = headers.get(b"authorization")
        token: str | None
        if header is not None:
            scheme, _, value = header.decode("latin-1").partition(" ")
            if scheme.lower() != "bearer" or not value.strip():
                return None
            token = value.strip()
        else:
            cookie = headers.get(b"cookie")
            token = (
                parse_cookie_string(cookie.decode("latin-1")).get(COOKIE)
                if cookie is not None
                else None
            )
        if token is None:
            return ANONYMOUS if web.config.public_read else None
        try:
            return web.tokens.identify(token)
        except TokenRefusedError:
            return None


def _text(media: str) -> bytes:
    """The content type as Litestar writes it (a ``text/`` type gets a charset appended)."""
    return f"{media}; charset=utf-8".encode() if media.startswith("text/") else media.encode()


def _headers(scope: dict[str, Any]) -> dict[bytes, bytes] | None:
    """The request's headers this path reads, or ``None`` when one of them comes twice."""
    out: dict[bytes, bytes] = {}
    for name, value in scope["headers"]:
        if name in (b"authorization", b"cookie", b"accept-encoding", b"if-none-match"):
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
