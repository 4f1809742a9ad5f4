"""Read models kept current from the store's log: the games catalog, standings, ratings
and their history, the heads each game reached, and dispute audits.

``Projector.catch_up`` reads the log in pages after the last notification id it
processed (ids may have gaps, so it keeps the id, never a count) and writes each
page's changes and the new position in one transaction that no other runner can
enter: any number of runners, started at once, process every event exactly once.
Memory stays flat: a page at a time.

Nothing is rewritten whole. A page touches the catalog rows of its games, the
standings of the players whose results changed, and ratings as follows: results
are rated in the order they were recorded in the store (the notification id of
each ``GameEnded``, its *position*). A new result rates on top of the current
ratings; a result set aside or changed (a retraction that reopens a game, a
voided result) re-rates that game type from the earliest position it touched,
starting from each player's rating just before it. A game imported late is rated
when its result reaches the store, after every result already there.

The tables (plain SQL, open them with any SQLite or PostgreSQL tool; on
PostgreSQL they are named ``referee_<table>`` beside the events):

- ``games``: one row per game: game_id, game, ruleset, players (JSON seat -> name),
  started, ended, result (seat, ``draw``, a ranking ``p2>p1=p3`` or ``*``), how,
  clause, actions (standing), corrections, rejections, disputes, events, ended_at
  and created_at (notification ids), ranking (JSON seat -> rank), status
  (``open``, ``finished``), rev_id (the id reversed, for short ids).
- ``game_players``: player, game_id, seat, created_at (the player filter).
- ``standings``: game, player, played, won, lost, drawn, points (the share of
  opponents finished ahead of; win 1, draw 0.5 with two seats).
- ``ratings``: game, player, system (``elo`` or ``openskill``), rating, mu, sigma,
  games.
- ``rating_history``: game_id, game, player, position, before, after, mu, sigma,
  score.
- ``heads``: game_id, version, hash: the last event seen per game, a witness that
  lets ``verify`` notice events cut from the end of a stream.
- ``audit``: game_id, dispute, event, status, claim, claimant, dossier (JSON).
- ``projection_state``: the last notification id processed, the schema version.
- ``queue_fold``: not a table of this projector: the referees' queue keeps its fold's
  snapshot here (``service.room``), beside the read models.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from events.codec import decode, own_hash
from events.schema import (
    TOPIC_OF,
    ActionRejected,
    ActionRetracted,
    DisputeAppealed,
    DisputeOpened,
    DisputeRuled,
    GameCreated,
    GameEnded,
    ResultVoided,
    topics_for,
)
from projections.catchup import Follower
from projections.db import (
    PROJECTOR_TABLES,
    Cursor,
    ProjectionDB,
    projection_db,
    projection_path,
)
from projections.ratings import Change, Ratings, placings_points
from projections.rows import FIRST_PAGE, GameQuery
from projections.status import STATUS_TOPICS, Outcome, outcome_after

if TYPE_CHECKING:
    from events.store import GameStore, LogPage

__all__ = ["Projector", "projection_path", "witness_findings"]

SCHEMA_VERSION = 2
PAGE = 500_000  # events per catch-up transaction: larger pages dirty each table page fewer times

T_CREATED = frozenset(topics_for(GameCreated))
T_REJECTED = TOPIC_OF[ActionRejected]
T_RETRACTED = TOPIC_OF[ActionRetracted]
T_VOIDED = TOPIC_OF[ResultVoided]
T_DISPUTE = TOPIC_OF[DisputeOpened]
T_AUDIT = frozenset({T_DISPUTE, TOPIC_OF[DisputeRuled], TOPIC_OF[DisputeAppealed]})
T_OUTCOME = STATUS_TOPICS - T_CREATED
"""The events that may move a game's status (``projections.status``): decoded when met."""

GAME_COLUMNS = (
    "game_id",
    "rev_id",
    "game",
    "ruleset",
    "players",
    "started",
    "ended",
    "result",
    "how",
    "clause",
    "actions",
    "corrections",
    "rejections",
    "disputes",
    "events",
    "ended_at",
    "ranking",
    "created_at",
    "status",
)


def _ddl(db: ProjectionDB) -> list[str]:
    t = db.t
    real = "DOUBLE PRECISION" if db.kind == "postgres" else "REAL"
    pattern = " text_pattern_ops" if db.kind == "postgres" else ""

    def index(name: str) -> str:
        return f"{db.prefix}{name}"

    return [
        f"CREATE TABLE IF NOT EXISTS {t('projection_state')} (name TEXT PRIMARY KEY, position "
        "BIGINT NOT NULL, schema_version BIGINT NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {t('games')} (game_id TEXT PRIMARY KEY, rev_id TEXT NOT "
        "NULL, game TEXT NOT NULL, ruleset TEXT, players TEXT NOT NULL, started TEXT, ended "
        "TEXT, result TEXT NOT NULL, how TEXT, clause TEXT, actions BIGINT NOT NULL, "
        "corrections BIGINT NOT NULL, rejections BIGINT NOT NULL, disputes BIGINT NOT NULL, "
        "events BIGINT NOT NULL, ended_at BIGINT, ranking TEXT, created_at BIGINT NOT NULL, "
        "status TEXT NOT NULL)",
        f"CREATE INDEX IF NOT EXISTS {index('games_rev')} ON {t('games')} (rev_id{pattern})",
        f"CREATE INDEX IF NOT EXISTS {index('games_created')} ON {t('games')} (created_at)",
        f"CREATE INDEX IF NOT EXISTS {index('games_type')} ON {t('games')} (game, created_at)",
        f"CREATE INDEX IF NOT EXISTS {index('games_status')} ON {t('games')} (status, created_at)",
        f"CREATE INDEX IF NOT EXISTS {index('games_ended')} ON {t('games')} (game, ended_at)",
        f"CREATE TABLE IF NOT EXISTS {t('game_players')} (player TEXT NOT NULL, game_id TEXT NOT "
        "NULL, seat TEXT NOT NULL, created_at BIGINT NOT NULL, PRIMARY KEY (player, game_id))",
        f"CREATE INDEX IF NOT EXISTS {index('players_created')} ON {t('game_players')} (player, "
        "created_at)",
        f"CREATE TABLE IF NOT EXISTS {t('standings')} (game TEXT NOT NULL, player TEXT NOT NULL, "
        "played BIGINT NOT NULL, won BIGINT NOT NULL, lost BIGINT NOT NULL, drawn BIGINT NOT "
        f"NULL, points {real} NOT NULL, PRIMARY KEY (game, player))",
        f"CREATE TABLE IF NOT EXISTS {t('ratings')} (game TEXT NOT NULL, player TEXT NOT NULL, "
        f"system TEXT NOT NULL, rating {real} NOT NULL, mu {real}, sigma {real}, games BIGINT "
        "NOT NULL, PRIMARY KEY (game, player))",
        f"CREATE TABLE IF NOT EXISTS {t('rating_history')} (game_id TEXT NOT NULL, game TEXT NOT "
        f"NULL, player TEXT NOT NULL, position BIGINT NOT NULL, before {real} NOT NULL, after "
        f"{real} NOT NULL, mu {real}, sigma {real}, score {real} NOT NULL, PRIMARY KEY (game_id, "
        "player))",
        f"CREATE INDEX IF NOT EXISTS {index('history_order')} ON {t('rating_history')} (game, "
        "position)",
        f"CREATE INDEX IF NOT EXISTS {index('history_player')} ON {t('rating_history')} (game, "
        "player, position)",
        f"CREATE TABLE IF NOT EXISTS {t('heads')} (game_id TEXT PRIMARY KEY, version BIGINT NOT "
        "NULL, hash TEXT NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {t('audit')} (game_id TEXT NOT NULL, dispute BIGINT NOT NULL, "
        "event BIGINT NOT NULL, status TEXT NOT NULL, claim TEXT NOT NULL, claimant TEXT NOT NULL, "
        "dossier TEXT NOT NULL, PRIMARY KEY (game_id, dispute))",
    ]


def _upsert(db: ProjectionDB, table: str, columns: Iterable[str], key: Iterable[str]) -> str:
    cols = list(columns)
    keys = list(key)
    updates = ", ".join(f"{c} = excluded.{c}" for c in cols if c not in keys)
    return (
        f"INSERT INTO {db.t(table)} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))}) "
        f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {updates}"
    )


class Projector:
    """Keeps the read models of one store up to date and answers from them."""

    def __init__(self, store: GameStore, path: str | os.PathLike[str] | None = None) -> None:
        self.store = store
        self.db: ProjectionDB = projection_db(store, path)
        self.path = Path(self.db.where)
        self._ready = False
        self._log = Follower(store, page=PAGE)

    def close(self) -> None:
        self.db.close()

    def exists(self) -> bool:
        """Whether the read models were ever built (only then can they witness heads)."""
        return self.db.exists()

    # -- building --------------------------------------------------------------
    def _prepare(self, cursor: Cursor) -> int:
        """Create the tables (inside the locked transaction) and return the position; a
        projection of an older schema is emptied to be built again."""
        if not self._ready:
            for statement in _ddl(self.db):
                cursor.execute(statement)
            self._ready = True
        cursor.execute(
            f"SELECT position, schema_version FROM {self.db.t('projection_state')} WHERE name = "
            "'main'"
        )
        row = cursor.fetchone()
        if row is not None and int(row[1]) == SCHEMA_VERSION:
            return int(row[0])
        for name in PROJECTOR_TABLES:
            cursor.execute(f"DELETE FROM {self.db.t(name)}")
        cursor.execute(
            self.db.sql(
                _upsert(
                    self.db, "projection_state", ("name", "position", "schema_version"), ("name",)
                )
            ),
            ("main", 0, SCHEMA_VERSION),
        )
        return 0

    def rebuild(self, progress: Callable[[int], None] | None = None) -> int:
        """Drop every read model and build them again from the whole log."""
        self.db.drop()
        self._ready = False
        return self.catch_up(progress)

    def catch_up(self, progress: Callable[[int], None] | None = None) -> int:
        """Process every event after the last one processed; returns how many. A read-only
        store's read models are read as they are."""
        if self.store.read_only:
            return 0
        processed = 0
        while True:
            with self.db.locked() as cursor:
                position = self._prepare(cursor)
                page = self._log.read_page(position)
                if page.last_id <= position:
                    return processed
                self._apply(cursor, page)
                cursor.execute(
                    f"UPDATE {self.db.t('projection_state')} SET position = ? WHERE name = 'main'",
                    (page.last_id,),
                )
            processed += page.total
            if progress is not None:
                progress(page.total)

    # -- one page ----------------------------------------------------------------
    def _load_games(self, cursor: Cursor, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        wanted = list(ids)
        found: dict[str, dict[str, Any]] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            cursor.execute(
                f"SELECT {', '.join(GAME_COLUMNS)} FROM {self.db.t('games')} "
                f"WHERE game_id IN ({', '.join('?' * len(chunk))})",
                chunk,
            )
            for row in cursor.fetchall():
                found[row[0]] = dict(zip(GAME_COLUMNS, row, strict=True))
        return found

    def _apply(self, cursor: Cursor, page: LogPage) -> None:
        rows = self._load_games(cursor, {n[1] for n in page.events} | page.actions.keys())
        before = {g: (r["result"], r["ended_at"], r["ranking"]) for g, r in rows.items()}
        new_games: list[dict[str, Any]] = []
        heads: dict[
            str, tuple[int, int, str | None]
        ] = {}  # game -> (version, notification id, hash)
        audit_games: set[str] = set()
        for note in page.events:
            notification_id, game_id, version, topic, state = note
            event = None
            if topic in T_CREATED or topic in T_OUTCOME:
                event = decode(topic, state)
            heads[game_id] = (version, notification_id, own_hash(state))
            row = rows.get(game_id)
            if topic in T_CREATED:
                assert isinstance(event, GameCreated)
                rows[game_id] = row = {
                    "game_id": game_id,
                    "rev_id": game_id[::-1],
                    "game": event.game,
                    "ruleset": event.ruleset,
                    "players": json.dumps({p.seat: p.name for p in event.players}),
                    "started": event.timestamp.isoformat(),
                    "ended": None,
                    "result": "*",
                    "how": None,
                    "clause": None,
                    "actions": 0,
                    "corrections": 0,
                    "rejections": 0,
                    "disputes": 0,
                    "events": 1,
                    "ended_at": None,
                    "ranking": None,
                    "created_at": notification_id,
                    "status": "open",
                }
                new_games.append(row)
                continue
            if row is None:  # a stream without its creation event: verify reports it
                continue
            row["events"] += 1
            if event is not None and topic in T_OUTCOME:
                _fold_outcome(row, event, notification_id)
            if topic == T_REJECTED:
                row["rejections"] += 1
            elif topic == T_RETRACTED:
                row["corrections"] += 1
                row["actions"] -= 1
                if row["disputes"]:  # a disputed entry may be the one retracted
                    audit_games.add(game_id)
            elif topic == T_VOIDED:
                row["corrections"] += 1
            elif topic == T_DISPUTE:
                row["disputes"] += 1
            if topic in T_AUDIT:
                audit_games.add(game_id)
        for game_id, (count, version, notification_id) in page.actions.items():
            row = rows.get(game_id)
            if row is not None:  # counts add up in any order
                row["actions"] += count
                row["events"] += count
            if notification_id > heads.get(game_id, (0, 0, None))[1]:
                heads[game_id] = (version, notification_id, None)
        db = self.db
        cursor.executemany(
            db.sql(_upsert(db, "games", GAME_COLUMNS, ("game_id",))),
            [tuple(r[c] for c in GAME_COLUMNS) for r in rows.values()],
        )
        cursor.executemany(
            db.sql(
                f"INSERT INTO {db.t('game_players')} (player, game_id, seat, created_at) VALUES "
                "(?, ?, ?, ?) ON CONFLICT (player, game_id) DO NOTHING"
            ),
            [
                (name, r["game_id"], seat, r["created_at"])
                for r in new_games
                for seat, name in json.loads(r["players"]).items()
            ],
        )
        cursor.executemany(
            db.sql(_upsert(db, "heads", ("game_id", "version", "hash"), ("game_id",))),
            [
                (g, v, h if h is not None else self._action_hash(page, g, v))
                for g, (v, _, h) in heads.items()
            ],
        )
        changed = [
            g
            for g, r in rows.items()
            if before.get(g, ("*", None, None)) != (r["result"], r["ended_at"], r["ranking"])
        ]
        if changed:
            self._results_changed(
                cursor, {g: before.get(g, ("*", None, None)) for g in changed}, rows
            )
        if audit_games:
            self._refresh_audits(cursor, audit_games)

    def _action_hash(self, page: LogPage, game_id: str, version: int) -> str:
        """The hash of a game's last action in ``page`` (read with the page; asked of the
        store only when the page did not carry it)."""
        state = page.last_actions.get(game_id)
        return own_hash(state) if state is not None else self.store.head_hash(game_id, version)

    # -- standings and ratings, incrementally ---------------------------------------
    def _results_changed(
        self,
        cursor: Cursor,
        before: dict[str, tuple[Any, Any, Any]],
        rows: dict[str, dict[str, Any]],
    ) -> None:
        deltas: dict[tuple[str, str], list[float]] = {}
        earliest: dict[str, int] = {}  # game type -> earliest position whose rating must be redone
        appended: dict[str, list[dict[str, Any]]] = {}
        for game_id, (old_result, old_at, old_ranking) in before.items():
            row = rows[game_id]
            names: dict[str, str] = json.loads(row["players"])
            kind = row["game"]
            if old_result != "*" and old_ranking:
                _add_standing(deltas, kind, names, json.loads(old_ranking), -1)
                earliest[kind] = min(earliest.get(kind, old_at), old_at)
            if row["result"] != "*" and row["ranking"]:
                _add_standing(deltas, kind, names, json.loads(row["ranking"]), +1)
                appended.setdefault(kind, []).append(row)
        db = self.db
        standings = db.t("standings")
        cursor.executemany(
            db.sql(
                f"INSERT INTO {standings} (game, player, played, won, lost, drawn, points) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game, player) DO UPDATE SET played = "
                f"{standings}.played + excluded.played, won = {standings}.won + excluded.won, "
                f"lost = {standings}.lost + excluded.lost, drawn = {standings}.drawn + "
                f"excluded.drawn, points = {standings}.points + excluded.points"
            ),
            [
                (g, p, int(d[0]), int(d[1]), int(d[2]), int(d[3]), d[4])
                for (g, p), d in deltas.items()
            ],
        )
        cursor.executemany(
            db.sql(f"DELETE FROM {standings} WHERE game = ? AND player = ? AND played <= 0"),
            list(deltas),
        )
        for kind, fresh in appended.items():
            cursor.execute(
                f"SELECT MAX(position) FROM {db.t('rating_history')} WHERE game = ?", (kind,)
            )
            top = cursor.fetchone()
            last = int(top[0]) if top and top[0] is not None else 0
            if any(r["ended_at"] <= last for r in fresh):
                earliest[kind] = min(earliest.get(kind, last), *(r["ended_at"] for r in fresh))
        for kind, fresh in appended.items():
            if kind not in earliest:
                self._rate(cursor, kind, sorted(fresh, key=lambda r: r["ended_at"]))
        for kind, start in earliest.items():
            self._rerate(cursor, kind, start)

    def _seed(
        self, cursor: Cursor, ratings: Ratings, kind: str, names: Iterable[str], before: int | None
    ) -> None:
        """Give ``ratings`` each player's rating now, or just before position ``before``."""
        db = self.db
        for name in names:
            if before is None:
                cursor.execute(
                    f"SELECT rating, mu, sigma, games FROM {db.t('ratings')} WHERE game = ? AND "
                    "player = ?",
                    (kind, name),
                )
                row = cursor.fetchone()
            else:
                cursor.execute(
                    f"SELECT after, mu, sigma, (SELECT COUNT(*) FROM {db.t('rating_history')} "
                    "WHERE game = ? AND player = ? AND position < ?) "
                    f"FROM {db.t('rating_history')} WHERE game = ? AND player = ? AND position < ? "
                    "ORDER BY position DESC LIMIT 1",
                    (kind, name, before, kind, name, before),
                )
                row = cursor.fetchone()
            if row is not None:
                ratings.seed(kind, name, float(row[0]), row[1], row[2], int(row[3]))

    def _rate(self, cursor: Cursor, kind: str, results: list[dict[str, Any]]) -> None:
        """Rate results that come after every rated one: a few rows each."""
        ratings = Ratings()
        names = {n for r in results for n in json.loads(r["players"]).values()}
        self._seed(cursor, ratings, kind, names, None)
        self._write_ratings(cursor, kind, ratings, results)

    def _rerate(self, cursor: Cursor, kind: str, start: int) -> None:
        """Rate a game type again from position ``start`` (a result before the last changed)."""
        db = self.db
        cursor.execute(
            f"SELECT DISTINCT player FROM {db.t('rating_history')} WHERE game = ? AND position "
            ">= ?",
            (kind, start),
        )
        touched = {str(r[0]) for r in cursor.fetchall()}
        cursor.execute(
            f"DELETE FROM {db.t('rating_history')} WHERE game = ? AND position >= ?", (kind, start)
        )
        cursor.execute(
            f"SELECT {', '.join(GAME_COLUMNS)} FROM {db.t('games')} WHERE game = ? AND ended_at "
            ">= ? AND status = 'finished' ORDER BY ended_at",
            (kind, start),
        )
        results = [dict(zip(GAME_COLUMNS, row, strict=True)) for row in cursor.fetchall()]
        names = touched | {n for r in results for n in json.loads(r["players"]).values()}
        ratings = Ratings()
        self._seed(cursor, ratings, kind, names, start)
        self._write_ratings(cursor, kind, ratings, results)
        rated = {player for (_, player) in ratings.players()}
        cursor.executemany(
            db.sql(f"DELETE FROM {db.t('ratings')} WHERE game = ? AND player = ?"),
            [(kind, n) for n in names - rated],
        )

    def _write_ratings(
        self, cursor: Cursor, kind: str, ratings: Ratings, results: list[dict[str, Any]]
    ) -> None:
        db = self.db
        history: list[tuple[Any, ...]] = []
        for row in results:
            if not row["ranking"]:
                continue  # a void game rates nobody (EV-3.9)
            names: dict[str, str] = json.loads(row["players"])
            ranks: dict[str, int] = json.loads(row["ranking"])
            points = placings_points(ranks)
            seat_of = {name: seat for seat, name in names.items()}
            changes: list[Change] = ratings.rate(kind, {names[s]: r for s, r in ranks.items()})
            history += [
                (
                    row["game_id"],
                    kind,
                    c.player,
                    row["ended_at"],
                    c.before,
                    c.after,
                    c.mu,
                    c.sigma,
                    points[seat_of[c.player]],
                )
                for c in changes
            ]
        cursor.executemany(
            db.sql(
                _upsert(
                    db,
                    "rating_history",
                    (
                        "game_id",
                        "game",
                        "player",
                        "position",
                        "before",
                        "after",
                        "mu",
                        "sigma",
                        "score",
                    ),
                    ("game_id", "player"),
                )
            ),
            history,
        )
        rows = ratings.rows()
        cursor.executemany(
            db.sql(
                _upsert(
                    db,
                    "ratings",
                    ("game", "player", "system", "rating", "mu", "sigma", "games"),
                    ("game", "player"),
                )
            ),
            [
                (r["game"], r["player"], r["system"], r["rating"], r["mu"], r["sigma"], r["games"])
                for r in rows
            ],
        )

    def _refresh_audits(self, cursor: Cursor, game_ids: Iterable[str]) -> None:
        from projections.audit import dossiers

        out = []
        for game_id in game_ids:
            view = self.store.load(game_id)
            for item in dossiers(view):
                out.append(
                    (
                        game_id,
                        item["dispute"],
                        item["event"],
                        item["status"],
                        item["claim"],
                        item["by"],
                        json.dumps(item),
                    )
                )
        cursor.executemany(
            self.db.sql(
                _upsert(
                    self.db,
                    "audit",
                    ("game_id", "dispute", "event", "status", "claim", "claimant", "dossier"),
                    ("game_id", "dispute"),
                )
            ),
            out,
        )

    # -- reading -------------------------------------------------------------------
    def _query(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        if not self.db.exists():
            return []
        with self.db.reading() as cursor:
            cursor.execute(sql, list(params))
            return cursor.fetchall()

    def standings(self, game: str | None = None) -> list[dict[str, Any]]:
        t = self.db.t
        sql = (
            "SELECT s.game, s.player, s.played, s.won, s.drawn, s.lost, s.points, r.system, "
            f"r.rating, r.mu, r.sigma FROM {t('standings')} s LEFT JOIN {t('ratings')} r ON "
            "r.game = s.game AND r.player = s.player"
        )
        params: list[Any] = []
        if game:
            sql += " WHERE s.game = ?"
            params.append(game)
        sql += " ORDER BY s.game, s.points DESC, r.rating DESC, s.player"
        keys = (
            "game",
            "player",
            "played",
            "won",
            "drawn",
            "lost",
            "points",
            "system",
            "rating",
            "mu",
            "sigma",
        )
        return [dict(zip(keys, row, strict=True)) for row in self._query(sql, params)]

    def games(self, query: GameQuery = FIRST_PAGE) -> list[dict[str, Any]]:
        """Games newest first (by when they reached the store), filtered, a page at a time."""
        t = self.db.t
        where: list[str] = []
        params: list[Any] = []
        source = f"{t('games')} g"
        if query.player:
            source += f" JOIN {t('game_players')} p ON p.game_id = g.game_id AND p.player = ?"
            params.append(query.player)
        if query.game:
            where.append("g.game = ?")
            params.append(query.game)
        if query.status:
            where.append("g.status = ?")
            params.append(query.status)
        if query.since:
            where.append("g.started >= ?")
            params.append(query.since)
        if query.before is not None:
            where.append("g.created_at < ?")
            params.append(query.before)
        sql = f"SELECT {', '.join('g.' + c for c in GAME_COLUMNS)} FROM {source}"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY g.created_at DESC LIMIT ? OFFSET ?"
        params += [query.limit, query.offset]
        return [dict(zip(GAME_COLUMNS, row, strict=True)) for row in self._query(sql, params)]

    def ids_ending(self, suffix: str, limit: int = 6) -> list[str]:
        """Ids of games ending in ``suffix``, found through the index of reversed ids."""
        prefix = suffix[::-1]
        if self.db.kind == "postgres":
            escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            sql = f"SELECT game_id FROM {self.db.t('games')} WHERE rev_id LIKE ? LIMIT ?"
            params: list[Any] = [escaped + "%", limit]
        else:
            sql = (
                f"SELECT game_id FROM {self.db.t('games')} WHERE rev_id >= ? AND rev_id < ? LIMIT ?"
            )
            params = [prefix, prefix + "\U0010ffff", limit]
        return [str(r[0]) for r in self._query(sql, params)]

    def head(self, game_id: str) -> tuple[int, str] | None:
        rows = self._query(
            f"SELECT version, hash FROM {self.db.t('heads')} WHERE game_id = ?", [game_id]
        )
        return (int(rows[0][0]), str(rows[0][1])) if rows else None

    def audit(self, game_id: str) -> list[dict[str, Any]]:
        rows = self._query(
            f"SELECT dossier FROM {self.db.t('audit')} WHERE game_id = ? ORDER BY dispute",
            [game_id],
        )
        return [json.loads(r[0]) for r in rows]

    def position(self) -> int:
        rows = self._query(
            f"SELECT position FROM {self.db.t('projection_state')} WHERE name = 'main'"
        )
        return int(rows[0][0]) if rows else 0

    def witness_findings(self, game_id: str, stored: int) -> list[str]:
        return witness_findings(self, self.store, game_id, stored)


def _fold_outcome(row: dict[str, Any], event: Any, notification_id: int) -> None:
    """Move a catalog row by ``projections.status``'s one fold: an end fills in the result
    and its placings, a reopening empties them."""
    now = Outcome(result=row["result"], how=row["how"], status=row["status"])
    after = outcome_after(now, event)
    if after is now:
        return
    if isinstance(event, GameEnded):
        seats = tuple(json.loads(row["players"]))
        row.update(
            ended=event.timestamp.isoformat(),
            clause=event.clause,
            ended_at=notification_id,
            ranking=None  # a void game places nobody (EV-3.9)
            if event.how == "void"
            else json.dumps({p.seat: p.rank for p in event.placings(seats)}),
        )
    else:
        row.update(ended=None, clause=None, ended_at=None, ranking=None)
    row.update(result=after.result, how=after.how, status=after.status)


def _add_standing(
    deltas: dict[tuple[str, str], list[float]],
    kind: str,
    names: dict[str, str],
    ranks: dict[str, int],
    sign: int,
) -> None:
    points = placings_points(ranks)
    best = min(ranks.values())
    firsts = sum(1 for r in ranks.values() if r == best)
    for seat, name in names.items():
        d = deltas.setdefault((kind, name), [0, 0, 0, 0, 0.0])
        d[0] += sign
        if ranks[seat] != best:
            d[2] += sign
        elif firsts == 1:
            d[1] += sign
        else:
            d[3] += sign
        d[4] += sign * points[seat]


def witness_findings(
    projector: Projector, store: GameStore, game_id: str, stored: int
) -> list[str]:
    """Compare a game's stored stream with the head the projection once saw.

    A stream cut at its end still links up perfectly; only a witness kept
    elsewhere shows that events it saw are gone."""
    head = projector.head(game_id)
    if head is None:
        return []
    version, witnessed = head
    if version > stored:
        return [
            f"the projection saw events up to {version}, but the store ends at {stored} "
            "(events were cut from the end)"
        ]
    actual = store.head_hash(game_id, version)
    if actual and witnessed and actual != witnessed:
        return [f"event {version}'s hash differs from the one the projection saw"]
    return []
