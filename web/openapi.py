"""The OpenAPI document as the server answers (issue 34): every status, content type and
security requirement an operation can answer with, and the links from the routes that
create games, events, calls and reports to the routes that read and act on them.

Litestar writes each operation from its handler: the success answer from the return type,
and the answers the handler declares itself (``responses=``: a 304, an entry's 422). What
every route answers by construction is stated here once, as rules, rather than by hand on
~75 handlers:

- a route that takes a token answers 401 without one (``WWW-Authenticate``), 403 when the
  role may not (or a cookie-borne write comes from another site) and 429 past a burst of
  wrong tokens (``Retry-After``); a public route (``/api/health``, and every read when the
  server runs with ``public_read``) needs no token;
- every route but the health check answers 400 for a parameter or body it cannot use;
- a route naming something in its path (a game, an event, a clause) answers 404 when there
  is no such thing, as do the reads filtered by a game type;
- a route taking a body answers 413 past the body limit and 422 for a field past its
  bound or a body nested too deeply (``web.problems``), or a game's ``Idempotency-Key``
  sent again with another request; a write's success may be a game's write answered again
  (``Idempotent-Replayed``); a write answers 409 when the
  procedure does not allow it now or another write came first; a route taking a JSON body
  answers 415 to a body of another type (``web.app``);
- every error is a problem document (``application/problem+json``), never Litestar's own
  ``application/json`` error shape;
- a live stream answers ``text/event-stream``.

``TruthfulJson`` serves the document at ``/schema/openapi.json`` and ``TruthfulRedoc`` the page
to browse it at ``/schema``: Litestar's own renderings (its public render plugins), of the
document completed by ``complete`` the first time it is asked.
"""

from __future__ import annotations

import copy
from typing import Any

import msgspec
from litestar import Request
from litestar.openapi.plugins import JsonRenderPlugin, RedocRenderPlugin

from web.problems import MEDIA_TYPE, Problem

__all__ = ["Completion", "TruthfulJson", "TruthfulRedoc", "complete"]

Doc = dict[str, Any]

_METHODS = ("get", "post", "put", "patch", "delete")
_PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}
# server-sent events: the game's, the queue's, the live list, the event's
_STREAMS = frozenset(
    {"/api/games/{game_id}/events", "/api/queue/events", "/api/live", "/api/events/{event_id}/live"}
)
_FILTERED_BY_GAME_TYPE = frozenset({"/api/scoreboard", "/api/games"})
_TEXT = {"schema": {"type": "string"}}
# Routes answering in more than one content type (a handler declares one): the record's
# formats (?format=text, jsonl, html).
_CONTENT: dict[tuple[str, str], dict[str, Any]] = {
    ("get", "/api/games/{game_id}/export"): {
        "text/plain": _TEXT,
        "application/x-ndjson": _TEXT,
        "text/html": _TEXT,
    },
}

_COMMON: dict[int, str] = {
    400: "Malformed or refused: a parameter or the body cannot be used; nothing stored",
    401: "No token, or a wrong, expired or revoked one",
    403: "The role may not do this here (or a write carried by the pages' cookie came from "
    "another site); nothing stored",
    404: "No such game, event, game type, clause or item",
    409: "Not allowed in this state, or another write came first; nothing stored",
    413: "The body is larger than the server takes",
    415: "The body is not JSON (Content-Type: application/json); nothing read or stored",
    422: "A field is past its bound, or the body is nested too deeply, or the Idempotency-Key "
    "was sent before with another request; nothing stored",
    429: "Too many failed authentications from this address or with this token",
}
_HEADERS: dict[int, dict[str, Any]] = {
    401: {"WWW-Authenticate": {"schema": {"type": "string"}, "description": "Bearer"}},
    429: {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait"}},
}
_REPLAYED = {
    "Idempotent-Replayed": {
        "schema": {"type": "string", "enum": ["true"]},
        "description": "A game's write sent again with the Idempotency-Key its first try was "
        "stored with: this is the first answer, made again, and nothing more was stored "
        "(an event's write answers 409 already-stored instead)",
    }
}

_A_CALL = (
    "/api/events/{event_id}/calls/{call}",
    {"event_id": "$response.body#/event_id", "call": "$response.body#/call"},
)
"""A judge call made: where it is read and answered (the event and call its answer names)."""

# The routes that create something: (creating method, path) -> (the paths that follow from
# it, by their start, and where the values of their path parameters are found).
_CREATORS: dict[tuple[str, str], tuple[str, dict[str, str]]] = {
    ("post", "/api/games"): ("/api/games/{game_id}", {"game_id": "$response.body#/game_id"}),
    ("post", "/api/events"): ("/api/events/{event_id}", {"event_id": "$response.body#/event_id"}),
    ("post", "/api/events/{event_id}/calls"): _A_CALL,
    ("post", "/api/games/{game_id}/calls"): _A_CALL,  # the call goes to the game's event table
    ("post", "/api/events/{event_id}/reports"): (
        "/api/events/{event_id}/reports/{report}",
        {"event_id": "$response.body#/event_id", "report": "$response.body#/report"},
    ),
    ("post", "/api/events/{event_id}/players"): (
        "/api/events/{event_id}/players/{name}",
        {"event_id": "$request.path.event_id", "name": "$request.body#/players/0"},
    ),
}


def complete(doc: Doc, *, public_read: bool = False) -> Doc:
    """``doc`` (Litestar's document, as a dict) with the rules above applied: a new dict,
    ``doc`` is left as it was."""
    out = copy.deepcopy(doc)
    schemas = out.setdefault("components", {}).setdefault("schemas", {})
    if "Problem" not in schemas:
        _, found = msgspec.json.schema_components(
            [Problem], ref_template="#/components/schemas/{name}"
        )
        schemas.update(found)
    paths: dict[str, dict[str, Any]] = out.get("paths", {})
    for path, item in paths.items():
        if not path.startswith("/api/"):
            continue
        for method in _METHODS:
            operation = item.get(method)
            if operation is not None:
                _operation(path, method, operation, public_read=public_read)
    _link(paths)
    return out


def _operation(path: str, method: str, operation: Doc, *, public_read: bool) -> None:
    responses: dict[str, Any] = operation.setdefault("responses", {})
    health = path == "/api/health"
    if health:
        operation["security"] = [{}]  # litestar writes an empty list as "inherit"
    elif public_read and method == "get":
        operation["security"] = [{}, {"bearer": []}]
    statuses: set[int] = set()
    if not health:
        statuses |= {400, 401, 403, 429}
    if "{" in path or path in _FILTERED_BY_GAME_TYPE:
        statuses.add(404)
    if method != "get":
        statuses |= {409, 413, 422}
    if "application/json" in operation.get("requestBody", {}).get("content", {}):
        statuses.add(415)
    for status in sorted(statuses):
        answer = responses.setdefault(str(status), {"description": _COMMON[status]})
        if status in _HEADERS:
            answer.setdefault("headers", {}).update(_HEADERS[status])
    keyed = any(p.get("name") == "Idempotency-Key" for p in operation.get("parameters", ()))
    for code, given in responses.items():
        if code[0] in "45":
            given["content"] = {MEDIA_TYPE: {"schema": _PROBLEM_REF}}
        elif keyed and code[0] == "2":
            given.setdefault("headers", {}).update(_REPLAYED)
    if method == "get" and path in _STREAMS:
        responses["200"]["content"] = {"text/event-stream": _TEXT}
    if (method, path) in _CONTENT:
        responses["200"]["content"] = _CONTENT[method, path]


def _link(paths: dict[str, dict[str, Any]]) -> None:
    """Links from each creating route's 201 to every operation under the path it creates
    (an operation with further parameters still takes those from its own inputs)."""
    for (method, source), (under, supplies) in _CREATORS.items():
        created = paths.get(source, {}).get(method, {}).get("responses", {}).get("201")
        if created is None:
            continue
        links: dict[str, Any] = created.setdefault("links", {})
        for path, item in paths.items():
            if path != under and not path.startswith(under + "/"):
                continue
            given = _params(path) & set(supplies)
            for target_method in _METHODS:
                target = item.get(target_method)
                if target is None or "operationId" not in target:
                    continue
                links[target["operationId"]] = {
                    "operationId": target["operationId"],
                    "parameters": {name: supplies[name] for name in sorted(given)},
                }


def _params(path: str) -> set[str]:
    return {part[1:-1] for part in path.split("/") if part.startswith("{")}


class Completion:
    """The completed document of one application, made the first time it is asked (the
    document does not change while the application runs)."""

    def __init__(self, *, public_read: bool = False) -> None:
        self.public_read = public_read
        self._made: tuple[int, Doc] | None = None

    def of(self, doc: Doc) -> Doc:
        if self._made is None or self._made[0] != id(doc):
            self._made = (id(doc), complete(doc, public_read=self.public_read))
        return self._made[1]


class TruthfulJson(JsonRenderPlugin):
    """``/schema/openapi.json``: Litestar's document, completed."""

    def __init__(self, completion: Completion) -> None:
        super().__init__()
        self.completion = completion

    def render(self, request: Request[Any, Any, Any], openapi_schema: Doc) -> bytes:
        return super().render(request, self.completion.of(openapi_schema))


class TruthfulRedoc(RedocRenderPlugin):
    """``/schema``: the document to browse (ReDoc), completed as the JSON one is."""

    def __init__(self, completion: Completion) -> None:
        super().__init__(path="/")
        self.completion = completion

    def render(self, request: Request[Any, Any, Any], openapi_schema: Doc) -> bytes:
        return super().render(request, self.completion.of(openapi_schema))
