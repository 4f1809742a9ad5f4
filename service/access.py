"""Who may do what: roles, bearer tokens (stored hashed) and the viewer each role is.

Roles (issue 13, section 2):

- ``head``: the head referee: everything, at every table: final and appeal
  rulings, penalties, backups, adjudications, imports.
- ``table``: a table referee: records and corrects (entries, retractions,
  resignations and agreed draws, adjustments, decklists, disputes and the first
  ruling on them) only in games labelled with one of their tables; sees those
  games as the referee, every other game as the public.
- ``scorekeeper``: reads everything as the referee sees it; writes nothing.
- ``player``: sees their own seat's hidden information in the games they play
  (matched by name), may open and appeal disputes there; the public view elsewhere.
- ``public``: reads with hidden information redacted; writes nothing.

A token is ``rf_<id>_<secret>``; only SHA-256 of the secret is stored (the
secret has 256 random bits, so a slow hash adds nothing). Every face asks
``authorize`` before a command and ``viewer_for`` before a read, so no face can
grant more than these rules do.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import time
from collections.abc import Sequence
from typing import Literal

import msgspec

from events.view import GameView
from referee.contract import PUBLIC, REFEREE, Viewer
from referee.errors import RefereeError
from service.sidedb import SideDB

__all__ = [
    "ROLES",
    "AccessDeniedError",
    "Action",
    "Principal",
    "Role",
    "Seating",
    "TokenInfo",
    "TokenStore",
    "authorize",
    "sees_everything",
    "queue_tables",
    "table_of",
    "viewer_for",
]

Role = Literal["head", "table", "scorekeeper", "player", "public"]
ROLES: tuple[Role, ...] = ("head", "table", "scorekeeper", "player", "public")

Action = Literal[
    "create",
    "record",
    "check",
    "retract",
    "backup",
    "end",
    "adjudicate",
    "dispute",
    "appeal",
    "rule",
    "rule_appeal",
    "penalty",
    "adjust",
    "deck",
    "import",
    "export_record",
    "audit",
    "verify",
    "legal",
    "queue",
]

_TABLE_ACTIONS = frozenset(
    {
        "create",
        "record",
        "check",
        "retract",
        "end",
        "dispute",
        "appeal",
        "rule",
        "adjust",
        "deck",
        "legal",
        "queue",
    }
)
_STAFF_READS = frozenset({"audit", "verify", "export_record"})


class AccessDeniedError(RefereeError, PermissionError):
    """The token's role may not do this here. Nothing was stored."""


class Principal(msgspec.Struct, frozen=True, kw_only=True):
    """Whoever a request comes from: a token's holder, or the anonymous public."""

    token_id: str
    role: Role
    name: str
    tables: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """What an entry records as its author: ``Rita`` (the holder's name)."""
        return self.name


ANONYMOUS = Principal(token_id="-", role="public", name="public")


class TokenInfo(msgspec.Struct, kw_only=True):
    """A token as ``referee token list`` shows it (never its secret)."""

    token_id: str
    role: Role
    name: str
    tables: list[str]
    created: float
    revoked: bool


class Seating(msgspec.Struct, frozen=True, kw_only=True):
    """The plain facts about a game that deciding who may do what needs: its id, the
    table it was created at, and who sits where (seat -> name). They are fixed when the
    game is created, so a face asks the service for them (``seating``) and never holds
    the game itself."""

    game_id: str
    table: str | None
    players: dict[str, str]

    @classmethod
    def of(cls, view: GameView) -> Seating:
        table = view.created.meta.get("table") if hasattr(view.created, "meta") else None
        return cls(
            game_id=view.game_id,
            table=str(table).strip() if table else None,
            players={p.seat: p.name for p in view.created.players},
        )


Game = Seating | GameView  # a game as the access rules read it


def _seating(game: Game) -> Seating:
    return game if isinstance(game, Seating) else Seating.of(game)


def table_of(game: Game) -> str | None:
    """The table label the game was created with (``referee new --table 5``)."""
    return _seating(game).table


def _at_own_table(principal: Principal, game: Game | None, table: str | None = None) -> bool:
    where = table if game is None else table_of(game)
    return where is not None and where.casefold() in {t.casefold() for t in principal.tables}


def _plays_in(principal: Principal, game: Game) -> str | None:
    wanted = principal.name.strip().casefold()
    for seat, name in _seating(game).players.items():
        if name.strip().casefold() == wanted:
            return seat
    return None


def sees_everything(principal: Principal, game: Game) -> bool:
    """Whether ``principal`` reads this game as its referee does (hidden cards included)."""
    return viewer_for(principal, game) == REFEREE


def viewer_for(principal: Principal, game: Game) -> Viewer:
    """The viewer a role is in this game: the referee, a seat, or the public."""
    if principal.role in ("head", "scorekeeper"):
        return REFEREE
    if principal.role == "table":
        return REFEREE if _at_own_table(principal, game) else PUBLIC
    if principal.role == "player":
        seat = _plays_in(principal, game)
        return seat if seat is not None else PUBLIC
    return PUBLIC


def authorize(
    principal: Principal,
    action: Action,
    view: Game | None = None,
    *,
    table: str | None = None,
    seat: str | None = None,
) -> None:
    """Raise ``AccessDeniedError`` unless ``principal`` may do ``action`` (in game
    ``view``, or at ``table`` for a game being created; ``seat``: the seat the action
    concerns, for players)."""
    role = principal.role
    if role == "head":
        return
    if role == "table":
        if action in _TABLE_ACTIONS and _at_own_table(principal, view, table):
            return
        # A table referee reads audits and full records of their own tables only (the
        # audit holds every registered list); the head reads all. Verify shows no list.
        if action in _STAFF_READS and (action == "verify" or _at_own_table(principal, view, table)):
            return
        where = (
            "this table"
            if view is None and table is None
            else (f"table {table_of(view) or '(none)'}" if view is not None else f"table {table}")
        )
        if action in _TABLE_ACTIONS:
            mine = ", ".join(principal.tables) or "none"
            raise AccessDeniedError(f"{principal.name} referees tables {mine}, not {where}")
        raise AccessDeniedError(f"only the head referee may do this ({_ACTION_WORDS[action]})")
    if role == "scorekeeper":
        if action in _STAFF_READS:
            return
        raise AccessDeniedError(
            f"a scorekeeper reads everything but writes nothing ({_ACTION_WORDS[action]})"
        )
    if role == "player":
        own_seat = _plays_in(principal, view) if view is not None else None
        if (
            own_seat is not None
            and action in ("dispute", "appeal")
            and (seat is None or seat == own_seat)
        ):
            return
        if own_seat is not None and action == "legal" and seat == own_seat:
            return
        raise AccessDeniedError(
            f"a player may only open or appeal disputes in their own games and list "
            f"their own seat's legal entries ({_ACTION_WORDS[action]})"
        )
    raise AccessDeniedError(f"the public reads; it does not write ({_ACTION_WORDS[action]})")


def queue_tables(principal: Principal) -> list[str] | None:
    """The tables whose queue ``principal`` may read: every table (``None``) for the head
    referee, their own for a table referee; anyone else is refused."""
    if principal.role == "head":
        return None
    if principal.role == "table":
        return list(principal.tables)
    raise AccessDeniedError(
        f"the queue is the referees' (head and table); a {principal.role} may not read it"
    )


_ACTION_WORDS: dict[str, str] = {
    "create": "start a game",
    "record": "record an entry",
    "check": "check an entry",
    "retract": "retract",
    "backup": "back a game up",
    "end": "end a game",
    "adjudicate": "adjudicate",
    "dispute": "open a dispute",
    "appeal": "appeal",
    "rule": "rule on a dispute",
    "rule_appeal": "give an appeal or final ruling",
    "penalty": "issue a penalty",
    "adjust": "record an adjustment",
    "deck": "register or open a decklist",
    "import": "import records",
    "export_record": "export the exact record",
    "audit": "read the audit",
    "verify": "verify the store",
    "legal": "list legal entries",
    "queue": "read the referees' queue",
}


# -- tokens ------------------------------------------------------------------------

_SCHEMA = (
    (
        "CREATE TABLE IF NOT EXISTS referee_tokens (token_id TEXT PRIMARY KEY, secret_hash TEXT "
        "NOT NULL, role TEXT NOT NULL, name TEXT NOT NULL, tables TEXT NOT NULL, created DOUBLE "
        "PRECISION NOT NULL, revoked INTEGER NOT NULL DEFAULT 0)"
    ),
)
_ID_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class TokenStore:
    """Bearer tokens in the store's side tables. ``authenticate`` keeps answers for
    ``cache_seconds`` (a revoked token stops working within that time)."""

    def __init__(self, db: SideDB, *, cache_seconds: float = 5.0) -> None:
        self.db = db
        self.cache_seconds = cache_seconds
        self._cache: dict[str, tuple[float, Principal | None]] = {}
        self._lock = threading.Lock()
        db.script(_SCHEMA)

    def create(self, role: str, name: str, tables: Sequence[str] = ()) -> tuple[Principal, str]:
        """A new token: the principal and the token text, shown once and never stored."""
        if role not in ROLES:
            raise ValueError(f"a role is one of {', '.join(ROLES)}, not {role!r}")
        name = " ".join(name.split())
        if not name:
            raise ValueError(
                "a token needs the holder's name (--name): it is recorded with their entries"
            )
        cleaned = tuple(t.strip() for t in tables if t.strip())
        if role == "table" and not cleaned:
            raise ValueError(
                "a table referee's token names their tables (--table 5, once per table)"
            )
        if role != "table" and cleaned:
            raise ValueError("only a table referee's token names tables")
        token_id = "".join(secrets.choice(_ID_ALPHABET) for _ in range(10))
        secret = secrets.token_urlsafe(32)
        self.db.execute(
            "INSERT INTO referee_tokens (token_id, secret_hash, role, name, tables, created, "
            "revoked) VALUES (?, ?, ?, ?, ?, ?, 0)",
            (token_id, _hash(secret), role, name, json.dumps(list(cleaned)), time.time()),
        )
        principal = Principal(token_id=token_id, role=role, name=name, tables=cleaned)
        return principal, f"rf_{token_id}_{secret}"

    def authenticate(self, token: str) -> Principal | None:
        """The principal of a valid, unrevoked token, or ``None``."""
        now = time.monotonic()
        with self._lock:
            cached = self._cache.get(token)
        if cached is not None and now - cached[0] < self.cache_seconds:
            return cached[1]
        principal = self._lookup(token)
        with self._lock:
            if len(self._cache) > 10_000:
                self._cache.clear()
            self._cache[token] = (now, principal)
        return principal

    def _lookup(self, token: str) -> Principal | None:
        prefix, _, rest = token.strip().partition("_")
        token_id, _, secret = rest.partition("_")
        if prefix != "rf" or not token_id or not secret:
            return None
        _, rows = self.db.execute(
            "SELECT secret_hash, role, name, tables, revoked FROM referee_tokens WHERE token_id "
            "= ?",
            (token_id,),
        )
        if not rows:
            return None
        stored, role, name, tables, revoked = rows[0]
        if revoked or not hmac.compare_digest(str(stored), _hash(secret)):
            return None
        return Principal(token_id=token_id, role=role, name=name, tables=tuple(json.loads(tables)))

    def list(self) -> list[TokenInfo]:
        _, rows = self.db.execute(
            "SELECT token_id, role, name, tables, created, revoked FROM referee_tokens ORDER BY "
            "created"
        )
        return [
            TokenInfo(
                token_id=r[0],
                role=r[1],
                name=r[2],
                tables=json.loads(r[3]),
                created=float(r[4]),
                revoked=bool(r[5]),
            )
            for r in rows
        ]

    def rotate(self, token_id: str) -> str | None:
        """A new secret for an unrevoked token: the new token text, or ``None`` if there
        is no such live token. The id, holder, role and tables stay (so entries it wrote
        still name the same token); the old secret is refused at once, because the
        cache of answers is cleared."""
        secret = secrets.token_urlsafe(32)
        changed, _ = self.db.execute(
            "UPDATE referee_tokens SET secret_hash = ? WHERE token_id = ? AND revoked = 0",
            (_hash(secret), token_id),
        )
        with self._lock:
            self._cache.clear()
        return f"rf_{token_id}_{secret}" if changed > 0 else None

    def revoke(self, token_id: str) -> bool:
        changed, _ = self.db.execute(
            "UPDATE referee_tokens SET revoked = 1 WHERE token_id = ?", (token_id,)
        )
        with self._lock:
            self._cache.clear()
        return changed > 0


EventAction = Literal["run", "enter", "result", "audit", "read"]
"""What may be done to an event (tournament): ``run`` it (create, pair, re-pair, end,
penalties), ``enter`` players (register, drop), report a ``result`` slip, read its
``audit`` (log, audit, export), or ``read`` its postings (pairings, standings, show)."""


def authorize_event(
    principal: Principal, action: EventAction, *, tables: Sequence[int] = ()
) -> None:
    """Raise ``AccessDeniedError`` unless ``principal`` may do ``action`` to an event.

    The head runs everything; the scorekeeper enters players, results and corrections
    and reads everything (at an event that is the scorekeeper's job); a table referee
    reports the slips of their own tables; players and the public read the postings."""
    role = principal.role
    if action == "read" or role == "head":
        return
    if role == "scorekeeper" and action in ("enter", "result", "audit"):
        return
    if role == "table" and action == "result":
        mine = set(principal.tables)
        others = [t for t in tables if str(t) not in mine]
        if tables and not others:
            return
        raise AccessDeniedError(
            f"{principal.name} reports tables {', '.join(principal.tables) or 'none'}, "
            f"not table {', '.join(str(t) for t in others) or '?'}"
        )
    if role == "table" and action == "audit":
        return
    raise AccessDeniedError(
        f"a {role} may not {'run the event' if action == 'run' else action} here"
        if role in ("player", "public")
        else f"only the head referee may {action} the event"
    )
