"""A client of a running ``referee serve``: the same answers as the local service, over
its HTTP API, for ``referee --server URL act ...`` on a referee's laptop.

Why: a hall's store lives on one server. A command that opens the store itself pays for
the database driver on every start (psycopg costs more to import than the command's
work) and needs the database reachable from every laptop; a command that asks the
server needs neither, only the server's address and a token. This module imports no
store, no driver and no event library; ``http.client`` is loaded on the first request.

Answers decode into the application layer's own types (``EntryResult``,
``PositionView``), so a face prints them exactly as it prints the local service's.
A refusal the server words as a problem document is raised with its wording
(``ServerRefusedError``); an entry that breaks a rule is no error, it is an
``EntryResult`` like the local one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import SplitResult, quote, urlencode, urlsplit

import msgspec

from referee.errors import RefereeError
from referee.verdicts import Violation
from service.results import EntryResult, LegalActions, PositionView

if TYPE_CHECKING:
    from http.client import HTTPConnection
    from socket import socket

__all__ = [
    "Remote",
    "RemoteError",
    "ServerFaultError",
    "ServerRefusedError",
    "ServerUnreachableError",
]

TIMEOUT = 30.0  # seconds to connect, and to wait for an answer: a busy server's worst case
CONFLICTS = ("concurrent-write", "stale-version")

T = TypeVar("T")


class RemoteError(RefereeError):
    """A request to a referee server that was not carried out; the server stored nothing
    of it, except where the message says it cannot know."""

    conflict = False  # another write came first: the command line exits 3, as locally


class ServerUnreachableError(RemoteError, ConnectionError):
    """No connection to the server, or no answer from it in time. ``sent``: the request
    left this machine (a write may then have been stored); when it did not, the server
    surely stored nothing of it, and a table may record the entry offline (REF-9.4)."""

    sent = False


class ServerRefusedError(RemoteError, ValueError):
    """The server refused the request (a 4xx problem document); nothing was stored."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        kind: str,
        clause: str | None = None,
        reason: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind
        self.conflict = kind in CONFLICTS
        self.clause = clause  # the clause the server's refusal names, as a local one carries
        self.reason = reason


class ServerFaultError(RemoteError, RuntimeError):
    """The server failed (5xx), or answered something that is not this API's."""


class _Problem(msgspec.Struct, kw_only=True):
    """The members of the server's problem documents (``web.problems.Problem``) read here."""

    type: str = ""
    title: str = ""
    status: int = 0
    detail: str = ""
    game_id: str | None = None
    clause: str | None = None
    reason: str | None = None
    violations: list[dict[str, str]] | None = None
    event: int | None = None
    version: int | None = None
    stored: bool = False
    id: str | None = None
    extra: dict[str, Any] | None = None


def _parse_url(url: str) -> SplitResult:
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ServerUnreachableError(
            f"a server is named by its address, http://HOST:PORT (or https://), not {url!r}"
        )
    try:
        parts.port  # noqa: B018 - a port that is not a number raises here, not mid-request
    except ValueError:
        raise ServerUnreachableError(f"{url!r} names no port number") from None
    return parts


class Remote:
    """A running server at ``url`` (``http://host:port``, with any path prefix the
    server is mounted under), asked with ``token``; one connection, opened on first use."""

    def __init__(self, url: str, token: str | None, *, timeout: float | None = None) -> None:
        self.url = url.strip().rstrip("/")
        self.token = token.strip() if token else None
        self.timeout = TIMEOUT if timeout is None else timeout
        self._parts = _parse_url(self.url)
        self._conn: HTTPConnection | None = None
        self.clock_offset: float | None = None
        """Seconds the server's clock is ahead of this machine's, read from the ``Date``
        of its last answer (to the second; ``None`` until one answered)."""

    # -- the commands ------------------------------------------------------------------
    def record(
        self,
        game: str,
        text: str,
        *,
        seat: str | None = None,
        dry_run: bool = False,
        key: str | None = None,
    ) -> EntryResult:
        """Record one entry (``POST /api/games/{id}/entries``), or only judge it
        (``/check``) with ``dry_run``: the answer the local ``RefereeService.record`` gives.
        ``key``: its ``Idempotency-Key`` (a retry is then stored once).

        An entry that breaks a rule comes back as the 422 problem the API answers; it is
        turned back into the rejected ``EntryResult`` (kept as evidence) it describes."""
        body = msgspec.json.encode({"text": text, "seat": seat})
        path = f"/api/games/{quote(game, safe='')}/{'check' if dry_run else 'entries'}"
        status, raw = self._request("POST", path, body, key=key)
        if status in (200, 201):
            return self._decode(raw, EntryResult)
        problem = self._problem(status, raw)
        if status == 422 and problem.type.endswith("/rejected"):
            return _rejection(problem, text, seat)
        raise self._refusal(status, problem)

    def position(
        self, game: str, *, at: int | None = None, viewer: str | None = None
    ) -> PositionView:
        """The position now (or after ``at`` standing actions) as ``viewer`` may see it
        (``GET /api/games/{id}``); the viewer is the token's own unless narrowed."""
        query = {k: v for k, v in (("at", at), ("as", viewer)) if v is not None}
        path = f"/api/games/{quote(game, safe='')}" + (f"?{urlencode(query)}" if query else "")
        status, raw = self._request("GET", path, None)
        if status == 200:
            return self._decode(raw, PositionView)
        raise self._refusal(status, self._problem(status, raw))

    def legal(self, game: str, *, seat: str | None = None) -> LegalActions:
        """Every legal entry now (``GET /api/games/{id}/legal``)."""
        query = f"?{urlencode({'seat': seat})}" if seat is not None else ""
        status, raw = self._request("GET", f"/api/games/{quote(game, safe='')}/legal{query}", None)
        if status == 200:
            return self._decode(raw, LegalActions)
        raise self._refusal(status, self._problem(status, raw))

    def record_jsonl(self, game: str) -> bytes:
        """The game's exact record (``GET .../export?format=jsonl``, the referee's view):
        what a table keeps to judge entries while the server cannot be reached."""
        path = f"/api/games/{quote(game, safe='')}/export?format=jsonl"
        status, raw = self._request("GET", path, None)
        if status == 200:
            return raw
        raise self._refusal(status, self._problem(status, raw))

    def record_after(self, game: str, after: int) -> bytes:
        """The lines of the game's record after event ``after`` (``GET .../record``)."""
        path = f"/api/games/{quote(game, safe='')}/record?after={int(after)}"
        status, raw = self._request("GET", path, None)
        if status == 200:
            return raw
        raise self._refusal(status, self._problem(status, raw))

    def sync(self, game: str, batch: dict[str, Any], key: str) -> dict[str, Any]:
        """Send a table's pending entries for one game (``POST .../offline``, REF-9.4) with
        the first entry's key; the server's outcome (``service.offline.SyncOutcome``)."""
        path = f"/api/games/{quote(game, safe='')}/offline"
        status, raw = self._request("POST", path, msgspec.json.encode(batch), key=key)
        if status == 200:
            answer: dict[str, Any] = self._decode(raw, dict[str, Any])
            return answer
        raise self._refusal(status, self._problem(status, raw))

    def whoami(self) -> str:
        """The name the server knows the token by (``GET /api/whoami``)."""
        status, raw = self._request("GET", "/api/whoami", None)
        if status == 200:
            return str(self._decode(raw, dict[str, Any]).get("name", ""))
        raise self._refusal(status, self._problem(status, raw))

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    # -- the wire ----------------------------------------------------------------------
    def _connection(self) -> HTTPConnection:
        if self._conn is None:
            import http.client

            host, port = self._parts.hostname or "", self._parts.port
            if self._parts.scheme == "https":
                self._conn = http.client.HTTPSConnection(host, port, timeout=self.timeout)
            else:
                self._conn = http.client.HTTPConnection(host, port, timeout=self.timeout)
        return self._conn

    def _request(
        self, method: str, path: str, body: bytes | None, *, key: str | None = None
    ) -> tuple[int, bytes]:
        headers = {"Accept": "application/json", "User-Agent": "referee-cli"}
        if key is not None:
            headers["Idempotency-Key"] = key
        if body is not None:
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        import http.client

        conn = self._connection()
        sent = False
        try:
            if conn.sock is None and self._parts.scheme == "http" and _plain_host(conn.host):
                conn.sock = _connect(conn.host, conn.port, self.timeout)
            conn.request(method, self._parts.path.rstrip("/") + path, body, headers)
            sent = True
            answer = conn.getresponse()
            self._read_clock(answer.getheader("Date"))
            return answer.status, answer.read()
        except TimeoutError:
            raise _unreachable(self._lost(method, sent, "no answer in time"), sent) from None
        except OSError as exc:
            reason = exc.strerror or str(exc) or type(exc).__name__
            raise _unreachable(self._lost(method, sent, reason), sent) from None
        except http.client.HTTPException as exc:  # a half answer, a bad status line
            raise _unreachable(
                self._lost(method, sent, str(exc) or type(exc).__name__), sent
            ) from None
        finally:
            self.close()

    def _read_clock(self, date: str | None) -> None:
        """The server's clock against this machine's (``clock_offset``), from an answer's
        ``Date`` (loaded with ``http.client`` already: no import of its own)."""
        if not date:
            return
        import email.utils
        import time

        try:
            theirs = email.utils.parsedate_to_datetime(date).timestamp()
        except (TypeError, ValueError, OverflowError):
            return
        self.clock_offset = theirs - time.time()

    def _lost(self, method: str, sent: bool, reason: str) -> str:
        """Why a request failed; after a write was sent, whether it was stored is unknown."""
        if not sent:
            return f"cannot reach the referee server at {self.url}: {reason}"
        unknown = (
            "; it may have been recorded: look at the game before entering it again"
            if method == "POST"
            else ""
        )
        return f"the referee server at {self.url} did not answer: {reason}{unknown}"

    def _decode(self, raw: bytes, kind: type[T]) -> T:
        try:
            return msgspec.json.decode(raw, type=kind)
        except msgspec.DecodeError as exc:  # ValidationError included
            raise ServerFaultError(
                f"the server at {self.url} answered something this command cannot read ({exc}); "
                "is it a referee server of the same version?"
            ) from None

    def _problem(self, status: int, raw: bytes) -> _Problem:
        try:
            return msgspec.json.decode(raw, type=_Problem)
        except msgspec.DecodeError:
            text = raw[:200].decode("utf-8", "replace").strip()
            return _Problem(type="", status=status, detail=text)

    def _refusal(self, status: int, problem: _Problem) -> RemoteError:
        """A problem answer as an error worded as the local command words it: the
        server's ``detail`` is the same text the local service's error carries."""
        kind = problem.type.rpartition("/")[2]
        detail = " ".join(problem.detail.split()) or problem.title or f"HTTP {status}"
        if status == 401 and not self.token:
            return ServerRefusedError(
                f"the referee server at {self.url} needs a token: give --token or "
                "REFEREE_TOKEN ('referee token create' on the server's machine makes one)",
                status=status,
                kind=kind,
            )
        if status in (401, 403):
            return ServerRefusedError(
                f"the referee server at {self.url} refused the token: {detail}",
                status=status,
                kind=kind,
            )
        if status == 404 and detail.lower() == "not found":  # the framework's: no such route
            return ServerRefusedError(
                f"the server at {self.url} has no such API: is the address right?",
                status=status,
                kind=kind,
            )
        if not kind:
            return ServerFaultError(
                f"the server at {self.url} answered HTTP {status}, not as a referee server "
                "does: is the address right?"
            )
        if status >= 500:
            fault = f" (fault {problem.id} in the server's log)" if problem.id else ""
            return ServerFaultError(
                f"the referee server at {self.url} failed (HTTP {status}): {detail}{fault}"
            )
        return ServerRefusedError(
            detail, status=status, kind=kind, clause=problem.clause, reason=problem.reason
        )


def _plain_host(host: str) -> bool:
    """Whether ``host`` is an ASCII name or address the ``idna`` codec gives back as it is
    (labels of 1 to 63 characters): ``http.client`` connects to any other itself."""
    if not host.isascii():
        return False
    labels = host.split(".")
    return all(0 < len(label) < 64 for label in labels[:-1]) and len(labels[-1]) < 64


def _connect(host: str, port: int, timeout: float) -> socket:
    """A connection to a plain host, as ``HTTPConnection.connect`` opens one, with the
    name handed to the resolver as bytes: a ``str`` name is encoded with the ``idna``
    codec, whose import (its ``stringprep`` tables) cost more than the rest of the
    request, for the same bytes (``_plain_host``)."""
    import socket

    address = (host.encode("ascii"), port)  # getaddrinfo takes bytes; typeshed says str
    sock = socket.create_connection(address, timeout)  # type: ignore[arg-type]
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def _unreachable(message: str, sent: bool) -> ServerUnreachableError:
    error = ServerUnreachableError(message)
    error.sent = sent
    return error


def _rejection(problem: _Problem, text: str, seat: str | None) -> EntryResult:
    """The rejected ``EntryResult`` a 422 ``/problems/rejected`` describes.

    The problem carries the game, the event kept as evidence, the version and every
    broken clause; a server that adds the whole result (``extra.result``) gives back
    the entry as the rules read it too (its seat and notation)."""
    whole = (problem.extra or {}).get("result")
    if whole is not None:
        try:
            return msgspec.convert(whole, EntryResult)
        except msgspec.ValidationError:
            pass
    return EntryResult(
        game_id=problem.game_id or "",
        status="rejected",
        accepted=False,
        text=_heading_text(problem.detail) or text.strip(),
        seat=seat,
        notation=None,
        violations=[
            Violation(clause=v.get("clause", ""), reason=v.get("reason", ""))
            for v in problem.violations or []
        ],
        event=problem.event,
        version=problem.version or 0,
        stored=problem.stored,
    )


def _heading_text(detail: str) -> str | None:
    """The entry's text as the server's rejection heading quotes it
    (``rejected 'e1>e8' (kept as evidence, event 4): ...``), or ``None``."""
    import ast

    head, sep, _ = detail.partition(" (kept as evidence")
    if not sep or not head.startswith("rejected "):
        return None
    try:
        value = ast.literal_eval(head.removeprefix("rejected "))
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None
