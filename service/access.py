"""Who may do what: roles, bearer tokens (stored hashed) and the viewer each role is.

Roles (issue 13, section 2):

- ``head``: the head referee: everything, at every table: final and appeal
  rulings, penalties, backups, adjudications, imports.
- ``table``: a table referee: records and corrects (entries, retractions,
  resignations and agreed draws, adjustments, decklists, disputes and the first
  ruling on them) only in games labelled with one of their tables; sees those
  games as the referee, every other game as the public. A token names its event
  too (``token create --event EV --table 4``, issue 31): its tables are that event's
  tables only, and one without an event has no table in any event's games.
- ``scorekeeper``: reads everything as the referee sees it; writes no game; at an
  event it enters players, results and corrections (``authorize_event``).
- ``player``: sees their own seat's hidden information in the games they play
  (the token's player id against the seats' ids, ``_plays_in``), may open and
  appeal disputes there; the public view elsewhere.
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
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, Literal, Protocol

import msgspec

from events.view import GameView
from referee.contract import PUBLIC, REFEREE, Viewer
from referee.errors import RefereeError
from referee.game.procedure import PLAYER_ID, PLAYER_ID_WORDS  # what a player id looks like
from service.bounds import check_name
from service.sidedb import SideDB, SQLiteSide

__all__ = [
    "LOCAL",
    "PLAYER_ID",
    "PLAYER_ID_WORDS",
    "ROLES",
    "AccessDeniedError",
    "Action",
    "NoCallerError",
    "Principal",
    "Role",
    "Seating",
    "TokenInfo",
    "TokenRefusedError",
    "TokenStore",
    "authorize",
    "authorize_clock",
    "check_player_id",
    "event_of",
    "expiry_text",
    "hall_staff",
    "new_player_id",
    "parse_expiry",
    "queue_head",
    "queue_results_only",
    "queue_tables",
    "sees_everything",
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
    "time_limit",
]

_TABLE_ACTIONS = frozenset(
    {
        "time_limit",
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


class NoCallerError(AccessDeniedError):
    """A write reached a server's pipeline with no caller: the HTTP face handed it no
    token's holder (``service.pipeline.serving``). Refused as no role may write (403),
    never made as the command line's ``LOCAL``. Nothing was stored."""


class Principal(msgspec.Struct, frozen=True, kw_only=True):
    """Whoever a request comes from: a token's holder, or the anonymous public."""

    token_id: str
    role: Role
    name: str
    tables: tuple[str, ...] = ()
    player_id: str = ""
    expires: float | None = None
    event: str = ""  # a table referee's event: their tables are that event's (issue 31)

    @property
    def label(self) -> str:
        """What an entry records as its author: ``Rita`` (the holder's name)."""
        return self.name


ANONYMOUS = Principal(token_id="-", role="public", name="public")
LOCAL = Principal(token_id="", role="head", name="local")
"""The command line's principal: whoever may open the store writes as the head referee
(every write; an event's writes are authorized by the pipeline, ``service.pipeline``)."""


class TokenInfo(msgspec.Struct, kw_only=True):
    """A token as ``referee token list`` shows it (never its secret)."""

    token_id: str
    role: Role
    name: str
    tables: list[str]
    created: float
    revoked: bool
    player_id: str = ""
    expires: float | None = None
    event: str = ""


class Seating(msgspec.Struct, frozen=True, kw_only=True):
    """The plain facts about a game that deciding who may do what needs: its id, the
    table it was created at, and who sits where (seat -> name, and the player id of a
    seat that names one). They are fixed when the game is created, so a face asks the
    service for them (``seating``) and never holds the game itself."""

    game_id: str
    table: str | None
    players: dict[str, str]
    ids: dict[str, str] = {}  # seat -> player id, for the seats that name one
    event: str | None = None  # the event the game is a match of (``meta.event``)

    @classmethod
    def of(cls, view: GameView) -> Seating:
        meta = view.created.meta if hasattr(view.created, "meta") else {}
        table = meta.get("table")
        event = meta.get("event")
        players = view.created.players
        return cls(
            game_id=view.game_id,
            table=str(table).strip() if table else None,
            players={p.seat: p.name for p in players},
            ids={p.seat: p.id for p in players if p.id},
            event=str(event).strip() if event else None,
        )


Game = Seating | GameView  # a game as the access rules read it


def _seating(game: Game) -> Seating:
    return game if isinstance(game, Seating) else Seating.of(game)


def table_of(game: Game) -> str | None:
    """The table label the game was created with (``referee new --table 5``)."""
    return _seating(game).table


def event_of(game: Game) -> str | None:
    """The event the game is a match of (its ``meta.event`` label), if any."""
    return _seating(game).event


def _at_own_table(
    principal: Principal,
    game: Game | None,
    table: str | None = None,
    event: str | None = None,
) -> bool:
    """Whether the game (or ``table`` of ``event``, for a game being created) is at one of
    ``principal``'s tables of their event: a table number alone names a table of every
    event, so the event must match too (issue 31): a token without an event has no table
    in an event's games, and an event's token none outside it."""
    where = table if game is None else table_of(game)
    at_event = (event if game is None else event_of(game)) or ""
    if at_event.strip() != principal.event:
        return False
    return where is not None and where.casefold() in {t.casefold() for t in principal.tables}


def _plays_in(principal: Principal, game: Game) -> str | None:
    """The seat ``principal`` (a player) sits in, by the rule of issue 22:

    - a seat that names a player id is that player's only: the token must be bound
      to the same id (two people called "Ann" and "ann", or "Ann" twice, are never
      one seat);
    - a seat without an id (recorded before ids, or entered by name alone) is
      matched by its display name exactly as written (spaces collapsed, case kept),
      so old stores keep their readers but "ann" no longer reads "Ann"'s hand;
    - but never in an event's games (issue 31): there people are ids, and a name
      is display only, so an unbound "Ann" seat of any event is nobody's hand."""
    seating = _seating(game)
    wanted = " ".join(principal.name.split())
    for seat, name in seating.players.items():
        player_id = seating.ids.get(seat, "")
        if player_id:
            if principal.player_id and player_id == principal.player_id:
                return seat
        elif seating.event is None and " ".join(name.split()) == wanted:
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
    event: str | None = None,
) -> None:
    """Raise ``AccessDeniedError`` unless ``principal`` may do ``action`` (in game
    ``view``, or at ``table`` of ``event`` for a game being created; ``seat``: the seat
    the action concerns, for players)."""
    role = principal.role
    if role == "head":
        return
    if role == "table":
        if action in _TABLE_ACTIONS and _at_own_table(principal, view, table, event):
            return
        # A table referee reads audits and full records of their own tables only (the
        # audit holds every registered list); the head reads all. Verify shows no list.
        if action in _STAFF_READS and (
            action == "verify" or _at_own_table(principal, view, table, event)
        ):
            return
        where = (
            "this table"
            if view is None and table is None
            else (f"table {table_of(view) or '(none)'}" if view is not None else f"table {table}")
        )
        at = (event if view is None else event_of(view)) or ""
        if at:
            where += f" of event {at}"
        if action in _TABLE_ACTIONS:
            mine = ", ".join(principal.tables) or "none"
            if principal.event:
                mine += f" of event {principal.event}"
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
    referee and the scorekeeper (who reads only its result items), their own for a table
    referee; anyone else is refused."""
    if principal.role == "head":
        return None
    if principal.role == "table":
        return list(principal.tables)
    if principal.role == "scorekeeper":
        return None  # every table's, but only the result items (``queue_results_only``)
    raise AccessDeniedError(
        f"the queue is the referees' and the scorekeeper's; a {principal.role} may not read it"
    )


def hall_staff(principal: Principal, event_id: str) -> bool:
    """Whether ``principal`` reads the hall's own matters at ``event_id``: the reasons of
    judge calls, disputes and the tables' extra time (EV-10.7). The head referee and the
    scorekeeper do, and a table referee of that event; players and the public read the
    pairings, the results and the minutes each table has, not why."""
    if principal.role in ("head", "scorekeeper"):
        return True
    return principal.role == "table" and principal.event == event_id.strip()


def queue_results_only(principal: Principal) -> bool:
    """Whether ``principal`` reads only the queue's result items: the scorekeeper's share
    (tables without a result, result disagreements), not disputes or penalties."""
    return principal.role == "scorekeeper"


def queue_head(principal: Principal) -> bool:
    """Whether ``principal`` reads the queue as the head referee: the one who acts on an
    escalated call (EV-10.5); a table referee reads theirs for information."""
    return principal.role == "head"


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
    "time_limit": "set a game's time limit",
}


# -- tokens ------------------------------------------------------------------------

_SCHEMA = (
    (
        "CREATE TABLE IF NOT EXISTS referee_tokens (token_id TEXT PRIMARY KEY, secret_hash TEXT "
        "NOT NULL, role TEXT NOT NULL, name TEXT NOT NULL, tables TEXT NOT NULL, created DOUBLE "
        "PRECISION NOT NULL, revoked INTEGER NOT NULL DEFAULT 0)"
    ),
)
_ADDED_COLUMNS = (("player_id", "TEXT"), ("expires", "DOUBLE PRECISION"), ("event", "TEXT"))
"""Columns added after the first release (issue 22): a player token's player id and an
expiry time; a table referee's event (issue 31). ``_migrate`` adds them to side tables
made before; rows without them read as no id, no expiry and no event."""
_ID_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
_LIVE_ROWS = 100_000  # at most this many live tokens are read at once (``_known``)
_CHANNEL = "referee_tokens"  # NOTIFY'd when a token is revoked or rotated (PostgreSQL)


def _principal(
    token_id: str,
    role: Any,
    name: str,
    tables: str,
    player_id: str | None,
    expires: Any,
    event: str | None = None,
) -> Principal:
    """The holder of a token whose secret matched its row: refused once it has expired."""
    if expires is not None and float(expires) <= time.time():
        raise _expired(float(expires))
    return Principal(
        token_id=token_id,
        role=role,
        name=name,
        tables=tuple(json.loads(tables)),
        player_id=player_id or "",
        expires=float(expires) if expires is not None else None,
        event=event or "",
    )


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_player_id() -> str:
    """A fresh player id (``pl-`` and 10 random characters)."""
    return "pl-" + "".join(secrets.choice(_ID_ALPHABET) for _ in range(10))


def check_player_id(player_id: str) -> str:
    """``player_id`` as stored, or ``ValueError`` saying what an id looks like."""
    cleaned = player_id.strip()
    if not PLAYER_ID.fullmatch(cleaned):
        raise ValueError(f"{PLAYER_ID_WORDS}, not {player_id!r}")
    return cleaned


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def parse_expiry(text: str, now: float | None = None) -> float:
    """The Unix time ``--expires`` names: a duration from now (``90m``, ``12h``, ``7d``,
    ``2w``) or a UTC date or time (``2026-12-01``, ``2026-12-01T18:00``, or with an
    offset: ``2026-12-01T18:00+01:00``). ``ValueError`` names both forms."""
    raw = text.strip()
    now = time.time() if now is None else now
    match = re.fullmatch(r"(\d{1,6})\s*([smhdw])", raw.lower())
    if match is not None:
        amount = int(match.group(1)) * _UNITS[match.group(2)]
        if amount <= 0:
            raise ValueError(f"an expiry is later than now, not {text!r}")
        return now + amount
    try:
        when = datetime.fromisoformat(raw)
    except ValueError:
        raise ValueError(
            f"--expires is a duration (90m, 12h, 7d, 2w) or a UTC date or time "
            f"(2026-12-01, 2026-12-01T18:00), not {text!r}"
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.timestamp()


def _migrate(db: SideDB) -> None:
    """Add the columns of ``_ADDED_COLUMNS`` a side DB made by an older release lacks,
    on both backends; safe when two processes start at once (the loser's duplicate
    column is ignored)."""
    if db.kind == "postgres":
        _, rows = db.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = "
            "current_schema() AND table_name = 'referee_tokens'"
        )
        have = {str(r[0]) for r in rows}
        # ALTER locks the table even when there is nothing to add: only the missing ones,
        # under the schema lock (``SideDB.script``) as the tables were made
        db.script(
            [
                f"ALTER TABLE referee_tokens ADD COLUMN IF NOT EXISTS {column} {kind}"
                for column, kind in _ADDED_COLUMNS
                if column not in have
            ]
        )
        return
    _, rows = db.execute("PRAGMA table_info(referee_tokens)")
    have = {str(r[1]) for r in rows}
    for column, kind in _ADDED_COLUMNS:
        if column in have:
            continue
        try:
            db.execute(f"ALTER TABLE referee_tokens ADD COLUMN {column} {kind}")
        except sqlite3.OperationalError as error:
            if "duplicate column" not in str(error):
                raise


class TokenRefusedError(RefereeError, PermissionError):
    """A token that does not let its bearer in: unknown, revoked, or expired (the
    message says which of "unknown or revoked" and "expired at ..." it is)."""


def _expired(expires: float) -> TokenRefusedError:
    return TokenRefusedError(
        f"the token expired at {expiry_text(expires)}; ask for a new one ('referee token create')"
    )


def expiry_text(expires: float) -> str:
    """An expiry time as tokens show it: ``2026-11-26 01:00 UTC``."""
    return datetime.fromtimestamp(expires, UTC).strftime("%Y-%m-%d %H:%M UTC")


class TokenStore:
    """Bearer tokens in the store's side tables.

    With ``cache`` (a server), answers are kept only while no other process can have
    changed a token: on SQLite each use asks the file's ``data_version`` (it moves
    when another connection commits: a ``referee token revoke`` beside the server), or
    with ``moment`` the first use in each moment (a server's event-loop turn);
    on PostgreSQL a LISTEN connection is told by ``revoke`` and ``rotate`` (NOTIFY)
    and empties the cache, and while it is not listening nothing is cached. So a
    revoked or rotated token is refused on the next request, not seconds later; an
    expiry is checked on every use. Without ``cache`` every call reads the row."""

    def __init__(
        self, db: SideDB, *, cache: bool = False, moment: Callable[[], int | None] | None = None
    ) -> None:
        self.db = db
        # On SQLite, ``data_version`` is asked once per moment: two calls of ``moment``
        # returning the same number are within one, during which no request can be taken up
        # that was sent after the first call (a server's event-loop turn, ``web.context``);
        # ``None``: ask now.
        self._moment = moment
        self._asked: int | None = None
        db.script(_SCHEMA)
        _migrate(db)
        self._cache: dict[str, Principal] = {}
        self._live: dict[str, tuple[Any, ...]] = {}  # token id -> row, read at _live_epoch
        self._live_epoch = -1
        self._epoch = 0  # moves whenever the cache is emptied
        self._lock = threading.Lock()
        self._seen = threading.local()  # the data_version this thread last saw (SQLite)
        self._mode: Literal["none", "sqlite", "watch"] = "none"
        if cache and isinstance(db, SQLiteSide):
            self._mode = "sqlite"
        elif cache and db.watch(_CHANNEL, self._forget):
            self._mode = "watch"

    def _forget(self) -> None:
        with self._lock:
            self._epoch += 1
            self._cache.clear()
            self._live = {}

    def _cache_holds(self) -> bool:
        """Whether cached answers may be used now (emptying the cache first when another
        process may have changed a token since this thread last looked)."""
        if self._mode == "sqlite":
            assert isinstance(self.db, SQLiteSide)
            if self._moment is not None:
                now = self._moment()
                if now is not None and now == self._asked:
                    return True  # asked already since anything now at hand arrived
                self._asked = now
            version = self.db.data_version()
            if getattr(self._seen, "version", None) != version:
                self._seen.version = version
                self._forget()
            return True
        return self._mode == "watch" and self.db.watching

    def create(
        self,
        role: str,
        name: str,
        tables: Sequence[str] = (),
        *,
        player_id: str | None = None,
        expires: float | None = None,
        event: str | None = None,
    ) -> tuple[Principal, str]:
        """A new token: the principal and the token text, shown once and never stored.

        A player's token is bound to ``player_id`` (a new id when none is given: give
        the same id to a second device of the same person); ``expires`` is a Unix
        time after which the token is refused; a table referee's ``event`` makes their
        tables that event's (without one, their tables are those of games outside
        every event)."""
        if role not in ROLES:
            raise ValueError(f"a role is one of {', '.join(ROLES)}, not {role!r}")
        if not name.split():
            raise ValueError(
                "a token needs the holder's name (--name): it is recorded with their entries"
            )
        name = check_name(name, "a token holder's name")  # the bounds of every door
        cleaned = tuple(t.strip() for t in tables if t.strip())
        if role == "table" and not cleaned:
            raise ValueError(
                "a table referee's token names their tables (--table 5, once per table)"
            )
        if role != "table" and cleaned:
            raise ValueError("only a table referee's token names tables")
        if role != "player" and player_id:
            raise ValueError("only a player's token is bound to a player id")
        scope = (event or "").strip()
        if scope and role != "table":
            raise ValueError("only a table referee's token names an event (--event)")
        bound = "" if role != "player" else check_player_id(player_id or new_player_id())
        if expires is not None and expires <= time.time():
            raise ValueError(f"the expiry {expiry_text(expires)} is already past")
        token_id = "".join(secrets.choice(_ID_ALPHABET) for _ in range(10))
        secret = secrets.token_urlsafe(32)
        self.db.execute(
            "INSERT INTO referee_tokens (token_id, secret_hash, role, name, tables, created, "
            "revoked, player_id, expires, event) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?)",
            (
                token_id,
                _hash(secret),
                role,
                name,
                json.dumps(list(cleaned)),
                time.time(),
                bound or None,
                expires,
                scope or None,
            ),
        )
        principal = Principal(
            token_id=token_id,
            role=role,
            name=name,
            tables=cleaned,
            player_id=bound,
            expires=expires,
            event=scope,
        )
        return principal, f"rf_{token_id}_{secret}"

    def authenticate(self, token: str) -> Principal | None:
        """The principal of a valid, unrevoked, unexpired token, or ``None``."""
        try:
            return self.identify(token)
        except TokenRefusedError:
            return None

    def identify(self, token: str) -> Principal:
        """The principal of ``token``, or ``TokenRefusedError`` saying why not."""
        epoch: int | None = None
        if self._cache_holds():
            with self._lock:
                epoch, hit = self._epoch, self._cache.get(token)
            if hit is not None:
                if hit.expires is not None and hit.expires <= time.time():
                    raise _expired(hit.expires)
                return hit
        principal = self._known(token, epoch) if epoch is not None else None
        if principal is None:
            principal = self._lookup(token)
        if epoch is not None:
            with self._lock:  # not if the cache was emptied while the row was read
                if self._epoch == epoch and len(self._cache) < 10_000:
                    self._cache[token] = principal
        return principal

    def _known(self, token: str, epoch: int) -> Principal | None:
        """``token``'s principal from the live tokens read in one query (PostgreSQL with a
        watch only), or ``None``: then ``_lookup`` reads its row. When the pairings go up
        2,000 phones each bring a token the server has not seen; a round trip each, on the
        event loop, held every other request back (``BENCHMARKS.md``). The rows are
        forgotten with the cache (a revoke or rotate anywhere empties both), and a token made
        since they were read is not among them, so it is read on its own."""
        if self._mode != "watch":
            return None
        with self._lock:
            live = self._live if self._live_epoch == epoch else None
        if live is None:
            _, rows = self.db.execute(
                "SELECT token_id, secret_hash, role, name, tables, player_id, expires, event FROM "
                f"referee_tokens WHERE revoked = 0 LIMIT {_LIVE_ROWS}"
            )
            live = {str(r[0]): r[1:] for r in rows}
            with self._lock:  # not if the cache was emptied while the rows were read
                if self._epoch == epoch:
                    self._live, self._live_epoch = live, epoch
        prefix, _, rest = token.strip().partition("_")
        token_id, _, secret = rest.partition("_")
        row = live.get(token_id) if prefix == "rf" and secret else None
        if row is None:
            return None
        stored, role, name, tables, player_id, expires, event = row
        if not hmac.compare_digest(str(stored), _hash(secret)):
            return None  # _lookup refuses it (or finds a secret rotated since)
        return _principal(token_id, role, name, tables, player_id, expires, event)

    def _lookup(self, token: str) -> Principal:
        prefix, _, rest = token.strip().partition("_")
        token_id, _, secret = rest.partition("_")
        if prefix != "rf" or not token_id or not secret:
            raise TokenRefusedError("the token is unknown or revoked")
        _, rows = self.db.execute(
            "SELECT secret_hash, role, name, tables, revoked, player_id, expires, event FROM "
            "referee_tokens WHERE token_id = ?",
            (token_id,),
        )
        if not rows:
            raise TokenRefusedError("the token is unknown or revoked")
        stored, role, name, tables, revoked, player_id, expires, event = rows[0]
        if revoked or not hmac.compare_digest(str(stored), _hash(secret)):
            raise TokenRefusedError("the token is unknown or revoked")
        return _principal(token_id, role, name, tables, player_id, expires, event)

    def list(self) -> list[TokenInfo]:
        _, rows = self.db.execute(
            "SELECT token_id, role, name, tables, created, revoked, player_id, expires, event "
            "FROM referee_tokens ORDER BY created"
        )
        return [
            TokenInfo(
                token_id=r[0],
                role=r[1],
                name=r[2],
                tables=json.loads(r[3]),
                created=float(r[4]),
                revoked=bool(r[5]),
                player_id=r[6] or "",
                expires=float(r[7]) if r[7] is not None else None,
                event=r[8] or "",
            )
            for r in rows
        ]

    def rotate(self, token_id: str) -> str | None:
        """A new secret for an unrevoked token: the new token text, or ``None`` if there
        is no such live token. The id, holder, role, tables, player id and expiry stay
        (so entries it wrote still name the same token); the old secret is refused on
        the next request."""
        secret = secrets.token_urlsafe(32)
        changed, _ = self.db.execute(
            "UPDATE referee_tokens SET secret_hash = ? WHERE token_id = ? AND revoked = 0",
            (_hash(secret), token_id),
        )
        self._changed()
        return f"rf_{token_id}_{secret}" if changed > 0 else None

    def _changed(self) -> None:
        """A token changed: this process forgets its answers, and servers watching are told."""
        self._forget()
        self.db.tell(_CHANNEL)

    def revoke(self, token_id: str) -> bool:
        changed, _ = self.db.execute(
            "UPDATE referee_tokens SET revoked = 1 WHERE token_id = ?", (token_id,)
        )
        self._changed()
        return changed > 0


EventAction = Literal["run", "enter", "result", "audit", "read"]
"""What may be done to an event (tournament): ``run`` it (create, pair, re-pair, end,
penalties), ``enter`` players (register, drop), report a ``result`` slip, read its
``audit`` (log, audit, export), or ``read`` its postings (pairings, standings, show)."""


def authorize_event(
    principal: Principal,
    action: EventAction,
    *,
    tables: Sequence[int] = (),
    event: str | None = None,
) -> None:
    """Raise ``AccessDeniedError`` unless ``principal`` may do ``action`` to an event.

    The head runs everything; the scorekeeper enters players, results and corrections
    and reads everything (at an event that is the scorekeeper's job); a table referee
    reports the slips of their own tables of their own event (``event``, issue 31: two
    events in one hall both have a table 1) and reads that event's log and audit;
    players and the public read the postings."""
    role = principal.role
    if action == "read" or role == "head":
        return
    if role == "scorekeeper" and action in ("enter", "result", "audit"):
        return
    if role == "table" and action in ("result", "audit"):
        at = (event or "").strip()
        if not principal.event or principal.event != at:
            raise AccessDeniedError(
                f"{principal.name} referees tables of "
                f"{'event ' + principal.event if principal.event else 'no event'}, "
                f"not of event {at or '?'} ('referee token create --event EV --table N')"
            )
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


def authorize_clock(
    principal: Principal, *, table: int | None = None, event: str | None = None
) -> None:
    """Raise ``AccessDeniedError`` unless ``principal`` may work the round clock: the head
    referee starts, pauses, resumes and ends it and sets the round length; a time extension
    (EV-9.4, ``table`` of ``event``) is the head's or the table referee's of that table of
    their own event (two events in one hall both have a table 1, issue 31)."""
    if principal.role == "head":
        return
    if table is not None and principal.role == "table" and principal.event != (event or ""):
        raise AccessDeniedError(
            f"{principal.name} referees tables of "
            f"{'event ' + principal.event if principal.event else 'no event'}, "
            f"not of event {event or '?'}"
        )
    if table is not None and principal.role == "table" and str(table) in principal.tables:
        return
    if table is not None and principal.role == "table":
        raise AccessDeniedError(
            f"{principal.name} extends tables {', '.join(principal.tables) or 'none'}, "
            f"not table {table}"
        )
    what = "give time extensions" if table is not None else "run the round clock"
    raise AccessDeniedError(
        f"only the head referee{' or the table referee' if table else ''} "
        f"may {what}; a {principal.role} may not"
    )


class _Seats(Protocol):
    """What the access service asks of the game service (named here, not imported: the
    games import this module)."""

    def seating(self, ref: str) -> Seating: ...


class AccessService:
    """The access service ``RefereeService`` holds: the plain facts the rules above read
    of a game (``seating``: its id, table and players; a face never holds the game) and
    the check of a principal's action on a game named by its id, in one call."""

    def __init__(self, games: _Seats) -> None:
        self._games = games

    def seating(self, ref: str) -> Seating:
        """Who sits where and at which table in game ``ref``."""
        return self._games.seating(ref)

    def authorize_game(
        self, principal: Principal, action: Action, ref: str, *, seat: str | None = None
    ) -> Seating:
        """Raise ``AccessDeniedError`` unless ``principal`` may do ``action`` in game
        ``ref`` (``seat``: the seat the action concerns, for players); the game's seating,
        for the face to go on with."""
        seating = self.seating(ref)
        authorize(principal, action, seating, seat=seat)
        return seating
