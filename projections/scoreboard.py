"""Read models fed from the store's notification log: games, standings, Elo, audits.

The projection lives in its own SQLite file beside the store (``referee.db`` ->
``referee.projections.db``), so it can be deleted and rebuilt at any time and
never blocks writers of events. ``Projector.catch_up`` reads notifications after
the last id it processed (ids may have gaps, so it tracks the id, never a
count) and writes its tables and the new position in one transaction: it is
idempotent and can be stopped and restarted anywhere.

Tables (plain SQLite; open them with any SQLite tool):

- ``games``: one row per game: game_id, game, ruleset, players (JSON seat->name),
  started, ended, result (seat, ``draw`` or ``*``), how, clause, actions (standing),
  corrections, rejections, disputes, events.
- ``standings``: per game type and player: played, won, lost, drawn, points
  (win 1, draw 0.5).
- ``ratings``: per game type and player: Elo (start 1500, K 32), games rated.
- ``rating_history``: each rated game's change per player, in game order.
- ``heads``: the last event number and hash seen per game, a witness that lets
  ``verify`` notice events cut from the end of a stream.
- ``audit``: one dossier per dispute (see ``projections.audit``).
- ``projection_state``: the last notification id processed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec
from eventsourcing.persistence import StoredEvent

from events.schema import (
    TOPIC_OF,
    ActionRecorded,
    ActionRejected,
    ActionRetracted,
    DisputeAppealed,
    DisputeOpened,
    DisputeRuled,
    GameCreated,
    GameEnded,
    ResultVoided,
)

if TYPE_CHECKING:
    import sqlite_utils

    from events.store import GameStore

ELO_START = 1500.0
ELO_K = 32.0
PAGE = 50_000

T_CREATED = TOPIC_OF[GameCreated]
T_RECORDED = TOPIC_OF[ActionRecorded]
T_REJECTED = TOPIC_OF[ActionRejected]
T_RETRACTED = TOPIC_OF[ActionRetracted]
T_ENDED = TOPIC_OF[GameEnded]
T_VOIDED = TOPIC_OF[ResultVoided]
T_DISPUTE = TOPIC_OF[DisputeOpened]
T_RULED = TOPIC_OF[DisputeRuled]
T_APPEALED = TOPIC_OF[DisputeAppealed]

GAME_COLUMNS = {
    "game_id": str, "game": str, "ruleset": str, "players": str, "started": str, "ended": str,
    "result": str, "how": str, "clause": str, "actions": int, "corrections": int, "rejections": int,
    "disputes": int, "events": int, "ended_at": int,
}


def projection_path(store_db: str) -> str:
    root, ext = os.path.splitext(store_db)
    return f"{root}.projections{ext or '.db'}"


class _Page(NamedTuple):
    """One page of the log: the events read in order, and recorded actions counted per game."""

    last_id: int
    events: list[tuple[int, str, int, str, bytes]]
    actions: dict[str, tuple[int, int, int]]  # game -> (count, last event number, last notification id)
    total: int


class Projector:
    """Keeps the read models of one store up to date."""

    def __init__(self, store: GameStore, path: str | os.PathLike[str] | None = None) -> None:
        self.store = store
        dbname = store.app.env.get("SQLITE_DBNAME") or "referee.db"
        self.path = Path(path) if path is not None else Path(projection_path(dbname))
        self._db: sqlite_utils.Database | None = None

    @property
    def db(self) -> sqlite_utils.Database:
        if self._db is None:
            import sqlite_utils

            self._db = sqlite_utils.Database(self.path)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._ensure_tables(self._db)
        return self._db

    @staticmethod
    def _ensure_tables(db: sqlite_utils.Database) -> None:
        db.table("games").create(GAME_COLUMNS, pk="game_id", if_not_exists=True)
        db.table("standings").create(
            {"game": str, "player": str, "played": int, "won": int, "lost": int, "drawn": int,
             "points": float}, pk=("game", "player"), if_not_exists=True)
        db.table("ratings").create({"game": str, "player": str, "elo": float, "games": int},
                             pk=("game", "player"), if_not_exists=True)
        db.table("rating_history").create(
            {"game_id": str, "game": str, "player": str, "before": float, "after": float,
             "score": float, "position": int}, pk=("game_id", "player"), if_not_exists=True)
        db.table("heads").create({"game_id": str, "version": int, "hash": str}, pk="game_id", if_not_exists=True)
        db.table("audit").create(
            {"game_id": str, "dispute": int, "event": int, "status": str, "claim": str, "by": str,
             "dossier": str}, pk=("game_id", "dispute"), if_not_exists=True)
        db.table("projection_state").create({"name": str, "position": int}, pk="name", if_not_exists=True)
        db.table("projection_flags").create({"name": str, "value": int}, pk="name", if_not_exists=True)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def position(self) -> int:
        rows = list(self.db.query("SELECT position FROM projection_state WHERE name='main'"))
        return int(rows[0]["position"]) if rows else 0

    def rebuild(self, progress: Callable[[int], None] | None = None) -> int:
        """Delete the projection file and build it again from the whole log."""
        self.close()
        for suffix in ("", "-wal", "-shm"):
            Path(str(self.path) + suffix).unlink(missing_ok=True)
        return self.catch_up(progress)

    def catch_up(self, progress: Callable[[int], None] | None = None) -> int:
        """Process every notification after the last one processed; returns how many."""
        processed = 0
        position = self.position()
        while True:
            page = self._read(position)
            if page.total == 0:
                break
            self._apply_page(page)
            position = page.last_id
            processed += page.total
            if progress:
                progress(page.total)
        if self._flag("standings_dirty"):
            with self.db.conn:
                self._rebuild_standings()
                self._set_flag("standings_dirty", 0)
        return processed

    def _flag(self, name: str) -> int:
        rows = list(self.db.query("SELECT value FROM projection_flags WHERE name = ?", [name]))
        return int(rows[0]["value"]) if rows else 0

    def _set_flag(self, name: str, value: int) -> None:
        self.db.execute(
            "INSERT INTO projection_flags(name, value) VALUES(?, ?) "
            "ON CONFLICT(name) DO UPDATE SET value=excluded.value", [name, value])

    def _read(self, position: int) -> _Page:
        """The next page of the log after notification ``position``.

        Recorded actions are only counted here, so on SQLite the database counts
        them per game (in C) and only the other events are read, in log order,
        through the recorder's own datastore. Other recorders go through
        ``select_notifications``."""
        recorder = self.store.direct_sqlite
        if recorder is not None:
            table = recorder.events_table_name
            with recorder.datastore.transaction(commit=False) as cursor:
                cursor.row_factory = None  # type: ignore[attr-defined]  # plain tuples
                cursor.execute(f"SELECT rowid FROM {table} WHERE rowid > ? ORDER BY rowid LIMIT 1 OFFSET ?",
                               (position, PAGE - 1))
                found = cursor.fetchone()
                if found is None:
                    cursor.execute(f"SELECT MAX(rowid) FROM {table}")
                    found = cursor.fetchone()
                last = int(found[0]) if found and found[0] is not None else position
                if last <= position:
                    return _Page(position, [], {}, 0)
                cursor.execute(
                    f"SELECT originator_id, COUNT(*), MAX(originator_version), MAX(rowid) FROM {table} "
                    "WHERE rowid > ? AND rowid <= ? AND topic = ? GROUP BY originator_id",
                    (position, last, T_RECORDED))
                actions = {str(g): (int(n), int(v), int(i)) for g, n, v, i in cursor.fetchall()}
                cursor.execute(
                    f"SELECT rowid, originator_id, originator_version, topic, state FROM {table} "
                    "WHERE rowid > ? AND rowid <= ? AND topic != ? ORDER BY rowid",
                    (position, last, T_RECORDED))
                events = [(int(i), str(g), int(v), str(t), bytes(b)) for i, g, v, t, b in cursor.fetchall()]
            total = len(events) + sum(n for n, _, _ in actions.values())
            return _Page(last, events, actions, total)
        notes = self.store.recorder.select_notifications(position, PAGE, inclusive_of_start=False)
        if not notes:
            return _Page(position, [], {}, 0)
        others: list[tuple[int, str, int, str, bytes]] = []
        counted: dict[str, tuple[int, int, int]] = {}
        for n in notes:
            game_id = str(n.originator_id)
            if n.topic == T_RECORDED:
                count, _, _ = counted.get(game_id, (0, 0, 0))
                counted[game_id] = (count + 1, n.originator_version, n.id)
            else:
                others.append((n.id, game_id, n.originator_version, n.topic, n.state))
        return _Page(notes[-1].id, others, counted, len(notes))

    # -- one batch, one transaction ------------------------------------------
    def _load_games(self, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        wanted = list(ids)
        found: dict[str, dict[str, Any]] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            marks = ",".join("?" * len(chunk))
            for row in self.db.query(f"SELECT * FROM games WHERE game_id IN ({marks})", chunk):
                found[row["game_id"]] = dict(row)
        return found

    def _apply_page(self, page: _Page) -> None:
        mapper = self.store.mapper

        def to_domain(row: tuple[int, str, int, str, bytes]) -> Any:
            return mapper.to_domain_event(StoredEvent(row[1], row[2], row[3], row[4]))

        rows = self._load_games({n[1] for n in page.events} | page.actions.keys())
        heads: dict[str, tuple[int, int, bytes | None]] = {}  # game -> (version, id, state)
        audit_games: set[str] = set()
        results_changed = False
        for note in page.events:
            notification_id, game_id, version, topic, state = note
            heads[game_id] = (version, notification_id, state)
            row = rows.get(game_id)
            if topic == T_CREATED:
                created = to_domain(note)
                rows[game_id] = row = {
                    "game_id": game_id, "game": created.game, "ruleset": created.ruleset,
                    "players": json.dumps({p.seat: p.name for p in created.players}),
                    "started": created.timestamp.isoformat(), "ended": None, "result": "*", "how": None,
                    "clause": None, "actions": 0, "corrections": 0, "rejections": 0, "disputes": 0,
                    "events": 1, "ended_at": None,
                }
                continue
            if row is None:  # a stream without its creation event: verify reports it
                continue
            row["events"] += 1
            if topic == T_REJECTED:
                row["rejections"] += 1
            elif topic == T_RETRACTED:
                row["corrections"] += 1
                row["actions"] -= 1
                if row["how"] == "rule":
                    row.update(ended=None, result="*", how=None, clause=None, ended_at=None)
                    results_changed = True
            elif topic == T_ENDED:
                ended = to_domain(note)
                row.update(ended=ended.timestamp.isoformat(), result=ended.result, how=ended.how,
                           clause=ended.clause, ended_at=notification_id)
                results_changed = True
            elif topic == T_VOIDED:
                row["corrections"] += 1
                row.update(ended=None, result="*", how=None, clause=None, ended_at=None)
                results_changed = True
            elif topic == T_DISPUTE:
                row["disputes"] += 1
                audit_games.add(game_id)
            elif topic in (T_RULED, T_APPEALED):
                audit_games.add(game_id)
        for game_id, (count, version, notification_id) in page.actions.items():
            row = rows.get(game_id)
            if row is not None:  # counts add up in any order
                row["actions"] += count
                row["events"] += count
            if notification_id > heads.get(game_id, (0, 0, None))[1]:
                heads[game_id] = (version, notification_id, None)
        db = self.db
        with db.conn:
            db.table("games").upsert_all(rows.values(), pk="game_id")
            db.table("heads").upsert_all(
                ({"game_id": g, "version": v, "hash": self._head_hash(g, v, state)}
                 for g, (v, _, state) in heads.items()),
                pk="game_id",
            )
            if results_changed:
                # Standings are a function of the games table: rebuilt once when the
                # catch-up ends (or on the next one, if this one is interrupted).
                self._set_flag("standings_dirty", 1)
            if audit_games:
                self._refresh_audits(audit_games)
            db.execute(
                "INSERT INTO projection_state(name, position) VALUES('main', ?) "
                "ON CONFLICT(name) DO UPDATE SET position=excluded.position",
                [page.last_id],
            )

    def _head_hash(self, game_id: str, version: int, state: bytes | None) -> str:
        """The hash of a game's latest event (read from the store if only counted)."""
        if state is not None:
            return _hash_of(state)
        stored = self.store.recorder.select_events(game_id, gt=version - 1, lte=version)
        return _hash_of(stored[0].state) if stored else ""

    def _rebuild_standings(self) -> None:
        """Standings and Elo from the games table, rated in the order results were recorded."""
        db = self.db
        db.execute("DELETE FROM standings")
        db.execute("DELETE FROM ratings")
        db.execute("DELETE FROM rating_history")
        standings: dict[tuple[str, str], dict[str, Any]] = {}
        ratings: dict[tuple[str, str], list[float]] = {}
        history: list[dict[str, Any]] = []
        finished = db.query(
            "SELECT game_id, game, players, result FROM games WHERE result != '*' ORDER BY ended_at"
        )
        for position, game in enumerate(finished, start=1):
            seats: dict[str, str] = json.loads(game["players"])
            scores = {
                seat: (0.5 if game["result"] == "draw" else 1.0 if game["result"] == seat else 0.0)
                for seat in seats
            }
            for seat, name in seats.items():
                entry = standings.setdefault(
                    (game["game"], name),
                    {"game": game["game"], "player": name, "played": 0, "won": 0, "lost": 0, "drawn": 0,
                     "points": 0.0})
                entry["played"] += 1
                score = scores[seat]
                entry["points"] += score
                entry["won" if score == 1.0 else "drawn" if score == 0.5 else "lost"] += 1
            if len(seats) == 2:
                (seat_a, name_a), (seat_b, name_b) = seats.items()
                ra = ratings.setdefault((game["game"], name_a), [ELO_START, 0])
                rb = ratings.setdefault((game["game"], name_b), [ELO_START, 0])
                expected_a = 1.0 / (1.0 + 10 ** ((rb[0] - ra[0]) / 400.0))
                delta = ELO_K * (scores[seat_a] - expected_a)
                history.append({"game_id": game["game_id"], "game": game["game"], "player": name_a,
                                "before": ra[0], "after": ra[0] + delta, "score": scores[seat_a],
                                "position": position})
                history.append({"game_id": game["game_id"], "game": game["game"], "player": name_b,
                                "before": rb[0], "after": rb[0] - delta, "score": scores[seat_b],
                                "position": position})
                ra[0] += delta
                rb[0] -= delta
                ra[1] += 1
                rb[1] += 1
        db.table("standings").insert_all(standings.values())
        db.table("ratings").insert_all(
            {"game": g, "player": p, "elo": round(r[0], 1), "games": int(r[1])} for (g, p), r in ratings.items()
        )
        db.table("rating_history").insert_all(history)

    def _refresh_audits(self, game_ids: Iterable[str]) -> None:
        from projections.audit import dossiers

        rows = []
        for game_id in game_ids:
            view = self.store.load(game_id)
            for item in dossiers(view):
                rows.append({"game_id": game_id, "dispute": item["dispute"], "event": item["event"],
                             "status": item["status"], "claim": item["claim"], "by": item["by"],
                             "dossier": json.dumps(item)})
        if rows:
            self.db.table("audit").upsert_all(rows, pk=("game_id", "dispute"))

    # -- reading ---------------------------------------------------------------
    def standings(self, game: str | None = None) -> list[dict[str, Any]]:
        sql = ("SELECT s.game, s.player, s.played, s.won, s.drawn, s.lost, s.points, "
               "COALESCE(r.elo, 1500.0) AS elo FROM standings s LEFT JOIN ratings r "
               "ON r.game = s.game AND r.player = s.player")
        params: list[Any] = []
        if game:
            sql += " WHERE s.game = ?"
            params.append(game)
        sql += " ORDER BY s.game, s.points DESC, elo DESC, s.player"
        return [dict(r) for r in self.db.query(sql, params)]

    def head(self, game_id: str) -> tuple[int, str] | None:
        rows = list(self.db.query("SELECT version, hash FROM heads WHERE game_id = ?", [game_id]))
        return (int(rows[0]["version"]), str(rows[0]["hash"])) if rows else None

    def audit(self, game_id: str) -> list[dict[str, Any]]:
        return [json.loads(r["dossier"]) for r in self.db.query(
            "SELECT dossier FROM audit WHERE game_id = ? ORDER BY dispute", [game_id])]


class _HashOnly(msgspec.Struct):
    hash: str = ""


_hash_decoder = msgspec.json.Decoder(_HashOnly)


def _hash_of(state: bytes) -> str:
    try:
        return _hash_decoder.decode(state).hash
    except msgspec.DecodeError:
        return ""


def witness_findings(projector: Projector, store: GameStore, game_id: str, stored: int) -> list[str]:
    """Compare a game's stored stream with the head the projection once saw.

    A stream cut at its end still links up perfectly; only a witness kept
    elsewhere shows that events it saw are gone."""
    head = projector.head(game_id)
    if head is None:
        return []
    version, witnessed = head
    if version > stored:
        return [f"the projection saw events up to {version}, but the store ends at {stored} "
                "(events were cut from the end)"]
    rows = store.recorder.select_events(game_id, gt=version - 1, lte=version)
    if rows and witnessed and _hash_of(rows[0].state) != witnessed:
        return [f"event {version}'s hash differs from the one the projection saw"]
    return []
