"""Errors as RFC 9457 problem documents (``application/problem+json``).

Every refusal of the application layer, every authentication failure and every
framework error (unknown route, bad body) answers with a problem document that
says what went wrong and, for the referee's refusals, the clause; a server
fault answers 500 with an id to find it in the log, never a traceback. Each
problem type has a page at its ``type`` URI (``/problems/<name>``).
"""

from __future__ import annotations

import logging
import secrets
from typing import Any
from urllib.parse import quote

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, NotAuthorizedException, ValidationException
from litestar.openapi.datastructures import ResponseSpec

from referee.errors import CitedError, UnknownClauseError, UnknownGameError
from service.access import AccessDeniedError
from service.errors import (
    ConcurrentWriteError,
    GameNotFoundError,
    InvalidCommandError,
    KeyReusedError,
    NotSealedError,
    RepeatedWriteError,
    StaleVersionError,
    UnreadableEntryError,
)

__all__ = [
    "MEDIA_TYPE",
    "PROBLEM_TYPES",
    "Problem",
    "handle_exception",
    "problem",
    "problem_for",
    "problem_response",
    "problem_spec",
]

log = logging.getLogger("referee.web")

MEDIA_TYPE = "application/problem+json"

PROBLEM_TYPES: dict[str, tuple[str, str]] = {
    "rejected": (
        "The entry breaks a rule",
        (
            "The entry was judged and broke the clauses listed in `violations`. It was stored as "
            "evidence (`event`), as the referee procedure requires; the position did not change."
        ),
    ),
    "not-sealed-yet": (
        "No posting has been sealed yet",
        (
            "A posting is computed at a sealed checkpoint of the store, and none covers what was "
            "asked yet: the head referee seals the store, then the posting can be read."
        ),
    ),
    "unreadable-entry": (
        "The text is not an entry of this game",
        "The text could not be read as an action of the game (REF-1.1). Nothing was stored.",
    ),
    "not-allowed-now": (
        "The referee procedure does not allow this now",
        (
            "The command is not allowed in the game's present state; `clause` names the rule. "
            "Nothing was stored."
        ),
    ),
    "stale-version": (
        "The game has moved on",
        (
            "`If-Match` named a version of the game older than the one stored. Nothing was stored: "
            "look at the position again, then re-enter."
        ),
    ),
    "concurrent-write": (
        "Another referee wrote first",
        (
            "Another write reached the same game at the same moment and was stored first. "
            "Nothing of yours was stored: look again and re-enter."
        ),
    ),
    "not-found": ("Not found", "No such game, game type, clause or page."),
    "refused": (
        "The request was refused",
        "The request cannot be carried out as given. Nothing was stored.",
    ),
    "bad-request": (
        "The request is malformed",
        "The body or a parameter does not have the expected form.",
    ),
    "unsupported-media-type": (
        "The body is not of a type this route takes",
        (
            "The API's routes that take a body take JSON (`Content-Type: application/json`); "
            "the pages' forms take a form. Nothing was read or stored."
        ),
    ),
    "unauthorized": (
        "A valid token is needed",
        (
            "The request carried no token, or a token that is unknown or revoked. Tokens are made "
            "with `referee token create`."
        ),
    ),
    "forbidden": (
        "Your role may not do this",
        "The token is valid, but its role may not do this here. Nothing was stored.",
    ),
    "idempotency-key-reused": (
        "The Idempotency-Key was used for another request",
        (
            "A key identifies one request; this key was sent before with a different "
            "request (another command or other values), stored as `event` of the game. "
            "Nothing was stored."
        ),
    ),
    "import-refused": (
        "Nothing of the record was imported",
        (
            "Every game the record holds was refused, each for the reason listed in "
            "`extra.outcomes` (its `detail`: the record unreadable, edited, or a clause a live "
            "command would cite). Nothing was stored."
        ),
    ),
    "already-stored": (
        "This write was stored already",
        (
            "A write to an event with this Idempotency-Key was stored before (the event's log "
            "holds it, `event`): it is not carried out again. Nothing more was stored."
        ),
    ),
    "server-error": (
        "The server failed",
        "An unexpected fault; the server log has the details under `id`.",
    ),
}


class Problem(msgspec.Struct, kw_only=True, omit_defaults=True):
    """An RFC 9457 problem document, with this service's extension members."""

    type: str
    title: str
    status: int
    detail: str = ""
    instance: str = ""
    game_id: str | None = None
    clause: str | None = None
    reason: str | None = None
    violations: list[dict[str, str]] | None = None
    event: int | None = None
    version: int | None = None
    expected_version: int | None = None
    stored: bool = False
    id: str | None = None
    extra: dict[str, Any] | None = None


def problem(status: int, name: str, detail: str, instance: str = "", **members: Any) -> Problem:
    """A problem document of type ``/problems/<name>`` about ``instance`` (the request's path)."""
    title = PROBLEM_TYPES.get(name, (name, ""))[0]
    return Problem(
        type=f"/problems/{name}",
        title=title,
        status=status,
        detail=detail,
        instance=instance,
        **members,
    )


def problem_response(
    status: int,
    name: str,
    detail: str,
    request: Request[Any, Any, Any] | None = None,
    headers: dict[str, str] | None = None,
    **members: Any,
) -> Response[bytes]:
    """A problem document of type ``/problems/<name>``."""
    body = problem(
        status, name, detail, str(request.url.path) if request is not None else "", **members
    )
    return Response(
        content=msgspec.json.encode(body),
        status_code=status,
        media_type=MEDIA_TYPE,
        headers=headers or {},
    )


def problem_spec(description: str) -> ResponseSpec:
    """An error answer as the OpenAPI document names it: a problem document, and when."""
    return ResponseSpec(data_container=Problem, description=description, media_type=MEDIA_TYPE)


Answered = tuple[Problem, dict[str, str]]  # the problem document and its extra headers


SIGN_IN = {"sign_in": True}
"""A page's ``opt``: asked without a token (or with a wrong one), it answers with the sign-in
page, which comes back to it (``?next=``), rather than 401."""


def handle_exception(request: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
    """Every exception of a request, as a problem document; as a page to a browser that
    asks a page for HTML (a player opening ``/queue`` reads why, not JSON); no token for a
    page that signs in (``SIGN_IN``): the sign-in page's redirect."""
    handler = request.scope.get("route_handler")
    if (
        isinstance(exc, NotAuthorizedException)
        and handler is not None
        and handler.opt.get("sign_in")
    ):
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return Response(b"", status_code=303, headers={"Location": f"/login?next={quote(target)}"})
    body, headers = problem_for(
        exc, request.method, str(request.url.path), request.client.host if request.client else "?"
    )
    if _wants_page(request):
        return _problem_page(body, headers, str(request.url.path))
    return Response(
        content=msgspec.json.encode(body),
        status_code=body.status,
        media_type=MEDIA_TYPE,
        headers=headers,
    )


def _wants_page(request: Request[Any, Any, Any]) -> bool:
    """A page's request from a browser: not the API, and HTML asked before JSON."""
    path = str(request.url.path)
    if path.startswith("/api/") or path.startswith("/static/"):
        return False
    accept = request.headers.get("accept", "")
    return "text/html" in accept and "application/json" not in accept


def _problem_page(body: Problem, headers: dict[str, str], path: str) -> Response[bytes]:
    from web.export import render  # the templates, only when a page is asked

    html = render(
        "refused.html",
        who=None,
        title=body.title,
        detail=body.detail,
        status=body.status,
        name=body.type.rsplit("/", 1)[-1],
        path=path,
    )
    return Response(
        content=html.encode(),
        status_code=body.status,
        media_type="text/html",  # Litestar adds the charset
        headers={**headers, "Cache-Control": "no-store", "X-Frame-Options": "DENY"},
    )


def problem_for(exc: Exception, method: str, path: str, host: str) -> Answered:
    """The problem document answering ``exc`` raised by ``method path`` from ``host`` (logged
    as it deserves), and its extra headers: one wording for the handlers' answers and the
    fast path's (``web.fastpath``)."""
    if isinstance(exc, UnreadableEntryError):
        return problem(
            400, "unreadable-entry", str(exc), path, clause=exc.clause, reason=exc.reason
        ), {}
    if isinstance(exc, InvalidCommandError):
        return problem(
            409, "not-allowed-now", str(exc), path, clause=exc.clause, reason=exc.reason
        ), {}
    if isinstance(exc, StaleVersionError):
        return problem(
            412,
            "stale-version",
            str(exc),
            path,
            version=exc.actual,
            expected_version=exc.expected,
        ), {}
    if isinstance(exc, ConcurrentWriteError):
        return problem(409, "concurrent-write", str(exc), path), {}
    if isinstance(exc, RepeatedWriteError):
        return problem(409, "already-stored", str(exc), path, event=exc.event), {}
    if isinstance(exc, KeyReusedError):  # before ValueError's 400: a key names one request
        return problem(422, "idempotency-key-reused", str(exc), path, event=exc.event), {}
    if isinstance(exc, AccessDeniedError):
        log.warning("refused %s %s: %s", method, path, exc)
        return problem(403, "forbidden", str(exc), path), {}
    if isinstance(exc, NotSealedError):  # a posting not sealed yet: the staff's way, in words
        return problem(
            404,
            "not-sealed-yet",
            f"{exc.missing}. A posting is made from a sealed store: the head referee seals it "
            "(on the server, 'referee seal'), then the posting can be read here.",
            path,
        ), {}
    if isinstance(exc, GameNotFoundError | UnknownClauseError):
        return problem(404, "not-found", str(exc), path), {}
    if isinstance(exc, UnknownGameError):
        status = 404 if method == "GET" else 400
        return problem(status, "not-found" if status == 404 else "refused", str(exc), path), {}
    if isinstance(exc, NotAuthorizedException):
        log.warning("unauthorized %s %s from %s: %s", method, path, host, exc.detail)
        return problem(401, "unauthorized", exc.detail, path), {
            "WWW-Authenticate": 'Bearer realm="referee"'
        }
    if isinstance(exc, RecursionError):  # a body nested past the decoder's depth
        return problem(422, "too-deep", "the body is nested too deeply", path), {}
    if isinstance(exc, ValidationException) and "length <=" in str(exc.extra or exc.detail):
        return problem(
            422,
            "too-long",
            "a field is longer than it may be (an entry is a line, a reason or claim a page)",
            path,
            extra={"errors": exc.extra} if exc.extra else None,
        ), {}
    if isinstance(exc, ValidationException):
        extra = (
            exc.extra
            if isinstance(exc.extra, dict)
            else {"errors": exc.extra}
            if exc.extra
            else None
        )
        return problem(400, "bad-request", exc.detail, path, extra=extra), {}
    if isinstance(exc, HTTPException):
        name = {
            404: "not-found",
            401: "unauthorized",
            403: "forbidden",
            413: "too-large",
            415: "unsupported-media-type",
            429: "too-many-requests",
        }.get(exc.status_code, "bad-request")
        if exc.status_code >= 500:
            name = "server-error"
        return problem(exc.status_code, name, exc.detail, path), dict(exc.headers or {})
    if isinstance(exc, PermissionError):
        return problem(403, "forbidden", str(exc), path), {}
    if isinstance(exc, CitedError) and isinstance(exc, ValueError | LookupError):
        # a refusal naming its clause (a name that is no seat, REF-1.7): the clause with it
        return problem(400, "refused", str(exc), path, clause=exc.clause, reason=exc.reason), {}
    if isinstance(exc, ValueError | LookupError | msgspec.ValidationError):
        return problem(400, "refused", str(exc), path), {}
    fault = secrets.token_hex(6)
    log.error("server fault %s on %s %s", fault, method, path, exc_info=exc)
    return problem(
        500, "server-error", "the server failed; nothing more is said here", path, id=fault
    ), {}
