"""The storage contract: what a store's database serves, through its one factory
(``events.database``), the same on every backend: SQLite files, and the machine's real
PostgreSQL (one fresh schema per test, ``tests/postgres.py``).

A database serves four things (issue 34, item 4): the event store, the side tables
(tokens, idempotency keys), the read models (the catalog, the games list, the queue's
fold, snapshot tables) and a backup of the whole store. Each is checked here on each
backend; ``tests/test_storage.py`` goes deeper into the event store alone.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from events.database import Database, open_database
from events.store import GameStore
from projections.db import Snapshots, projection_db
from projections.listing import GameListing
from projections.projector import Projector
from projections.queue import QueueFold
from referee.contract import Player
from service import RefereeService
from service.access import TokenStore
from service.backup import backup_store, restore_store
from service.idempotency import IdempotencyStore
from tests.postgres import _dsn, pg_url

PLAYERS = [Player("first", "Ann"), Player("second", "Ben")]


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """A new store's database, as the factory opens it from a target."""
    if request.param == "sqlite":
        found = open_database(str(tmp_path / "store.db"))
    else:
        env = request.getfixturevalue("pg_env")
        found = open_database(pg_url(env))
    yield found
    found.close()


def _service(database: Database) -> RefereeService:
    return RefereeService(database.store())


# -- the event store ----------------------------------------------------------------------
def test_the_factory_opens_the_event_store(database: Database) -> None:
    """The store on the database appends and replays a game; its log is read in pages
    after a position, actions counted per game (what every read model follows)."""
    svc = _service(database)
    game = svc.create_game("nim", PLAYERS, options={"heap": 5}).game_id
    svc.record(game, "t2")
    svc.record(game, "t1")
    assert svc.load(game).version == 3
    assert database.store() is svc.store
    page = svc.store.log_page(0, 100)
    assert page.total == 3
    assert page.actions[game][0] == 2
    assert page.last_id >= 3
    assert [e[1] for e in page.events] == [game]  # the creation: actions are only counted
    assert svc.store.log_page(page.last_id, 100).total == 0


# -- the side tables ----------------------------------------------------------------------
def test_the_side_tables_keep_tokens_and_idempotency_keys(database: Database) -> None:
    """Tokens (a token authenticates until revoked) and idempotency keys (claimed once,
    answered the same afterwards) on the database's side tables."""
    side = database.side_tables()
    try:
        assert not side.exists()
        tokens = TokenStore(side)
        principal, token = tokens.create("head", "Rita")
        assert side.exists()
        found = tokens.authenticate(token)
        assert found is not None
        assert found.name == "Rita"
        assert tokens.revoke(principal.token_id)
        assert tokens.authenticate(token) is None
        keys = IdempotencyStore(side)
        assert keys.claim("rita", "k1", "print").state == "new"
        assert keys.claim("rita", "k1", "print").state == "pending"
        keys.finish("rita", "k1", 201, "{}")
        again = keys.claim("rita", "k1", "print")
        assert again.state == "done"
        assert again.status == 201
        assert keys.claim("rita", "k1", "another").state == "mismatch"
    finally:
        side.close()


def test_the_side_tables_are_no_read_models(database: Database, tmp_path: Path) -> None:
    """Side tables and read models are apart: rebuilding the read models keeps every token
    (on SQLite, two files beside the store; on PostgreSQL, other tables of the schema)."""
    svc = _service(database)
    svc.create_game("nim", PLAYERS)
    side = database.side_tables()
    try:
        _, token = TokenStore(side).create("head", "Rita")
        projector = Projector(svc.store)
        projector.rebuild()
        assert projector.exists()
        assert TokenStore(side).authenticate(token) is not None
        if database.kind == "sqlite":
            assert {p.name for p in tmp_path.iterdir()} >= {
                "store.db",
                "store.access.db",
                "store.projections.db",
            }
    finally:
        side.close()


# -- the read models ----------------------------------------------------------------------
def _lived(svc: RefereeService) -> dict[str, str]:
    """Three games that end and open again by each path the status fold knows: an end by
    the rules undone by a retraction (REF-6.2), a result voided by a ruling, an agreement."""
    ruled = svc.create_game("nim", PLAYERS, options={"heap": 1}).game_id
    svc.record(ruled, "t1")  # the rules end it
    voided = svc.create_game("nim", PLAYERS).game_id
    wrong = svc.end(voided, "resignation", who="first")
    svc.dispute(voided, wrong.events[0], by="Ann", claim="Ben resigned, not me")
    svc.rule(voided, 1, decision="overturn", clause="REF-3.2", reason="Ben resigned", by="Rita")
    agreed = svc.create_game("nim", PLAYERS).game_id
    svc.end(agreed, "agreement")
    return {"ruled": ruled, "voided": voided, "agreed": agreed}


def test_every_listing_folds_a_games_status_the_same(database: Database, tmp_path: Path) -> None:
    """One fold of a game's status (``projections.status``): the catalog, the live games
    list, the queue's fold and the analysis export (which says ``ended``) agree after every
    way a game ends and opens again."""
    svc = _service(database)
    games = _lived(svc)

    def statuses() -> list[dict[str, str]]:
        projector = Projector(svc.store)
        projector.catch_up()
        catalog = {r["game_id"]: r["status"] for r in projector.games()}
        listing = {r.game_id: r.status for r in GameListing(svc.store).rows()}
        fold = QueueFold(svc.store, persist=False)
        fold._catch_up()
        queue = {g: fold._games[g].outcome.status for g in games.values()}
        projector.close()
        out = tmp_path / f"analysis-{uuid.uuid4().hex[:6]}.db"
        svc.export_sqlite(out)
        with closing(sqlite3.connect(out)) as con:
            exported = {
                g: "finished" if s == "ended" else s
                for g, s in con.execute("SELECT game_id, status FROM games")
            }
        return [catalog, listing, queue, exported]

    first = statuses()
    assert first[0] == first[1] == first[2] == first[3]
    assert first[0] == {
        games["ruled"]: "finished",
        games["voided"]: "open",
        games["agreed"]: "finished",
    }
    svc.retract(games["ruled"], "the count was wrong")  # REF-6.2: open again
    again = statuses()
    assert again[0] == again[1] == again[2] == again[3]
    assert again[0][games["ruled"]] == "open"


def test_the_read_models_catch_up_and_rebuild(database: Database) -> None:
    """The catalog catches up from its stored position, is rebuilt from the whole log
    alike, and its tables are where the database's factory puts them."""
    svc = _service(database)
    game = svc.create_game("nim", PLAYERS).game_id
    projector = Projector(svc.store)
    try:
        assert projector.catch_up() == 1
        svc.end(game, "agreement")
        assert projector.catch_up() == 1
        assert projector.catch_up() == 0
        before = projector.games()
        assert projector.rebuild() == 2
        assert projector.games() == before
        assert projector.position() == svc.store.last_position()
        assert projector.db.where == database.read_models().where
    finally:
        projector.close()


def test_a_snapshot_table_keeps_the_furthest(database: Database) -> None:
    """A read model's snapshot (the queue's fold) is kept only when it covers more of the
    log than the one there, and read back as it was."""
    svc = _service(database)
    svc.create_game("nim", PLAYERS)
    table = Snapshots(projection_db(svc.store), "queue_fold")
    try:
        assert table.load("contract") is None
        assert table.save("contract", 5, 1, b"five")
        assert not table.save("contract", 4, 1, b"four")  # another process got further
        assert table.save("contract", 9, 2, b"nine")
        assert table.load("contract") == (9, 2, b"nine")
    finally:
        table.close()


# -- backups ------------------------------------------------------------------------------
def _target(database: Database) -> str:
    """What ``--db`` names the database by: its file, or its URL."""
    return database.path if database.path is not None else pg_url(database.env)


def test_a_backup_restores_the_same_store(
    database: Database, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """``store backup`` copies the whole store into a SQLite store file (every event at
    its position); ``store restore`` makes a new store of the same kind from it, whose
    log is the same and which numbers new events on from the last."""
    svc = _service(database)
    games = _lived(svc)
    log = [(n.id, n.originator_id, n.originator_version) for n in svc.store.notifications(0, 99)]
    svc.close()
    dest = tmp_path / "backup.db"
    assert backup_store(_target(database), dest) == len(log)
    copy = GameStore(dest)
    assert [(n.id, n.originator_id, n.originator_version) for n in copy.notifications(0, 99)] == log
    copy.close()
    if database.kind == "sqlite":
        target = str(tmp_path / "restored.db")
        restored_env: dict[str, str] = {}
    else:
        schema = f"t_{uuid.uuid4().hex[:12]}"
        import psycopg

        with psycopg.connect(_dsn(), autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        request.addfinalizer(lambda: _drop_schema(schema))
        restored_env = {**database.env, "POSTGRES_SCHEMA": schema}
        target = pg_url(restored_env)
    assert restore_store(target, dest) == len(log)
    again = open_database(target)
    try:
        store = again.store()
        assert [
            (n.id, n.originator_id, n.originator_version) for n in store.notifications(0, 99)
        ] == log
        svc = RefereeService(store)
        assert svc.load(games["agreed"]).result != "*"
        later = svc.create_game("nim", PLAYERS).game_id
        assert store.notifications(log[-1][0], 9)[0].originator_id == later
    finally:
        again.close()


def _drop_schema(schema: str) -> None:
    import psycopg

    with psycopg.connect(_dsn(), autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
