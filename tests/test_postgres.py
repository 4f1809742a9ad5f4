"""The store on PostgreSQL through eventsourcing's postgres module (opt-in).

Runs only when REFEREE_TEST_POSTGRES=1 and the library's POSTGRES_* settings
point at a server (psycopg installed), for example:

    REFEREE_TEST_POSTGRES=1 POSTGRES_DBNAME=referee POSTGRES_HOST=127.0.0.1 \\
    POSTGRES_PORT=5432 POSTGRES_USER=referee POSTGRES_PASSWORD=referee python -m pytest tests/test_postgres.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from events.store import ConcurrentWriteError, GameStore
from events.transfer import export_jsonl, read_jsonl
from projections.scoreboard import Projector
from referee.core import Player

pytestmark = pytest.mark.skipif(
    os.environ.get("REFEREE_TEST_POSTGRES") != "1", reason="set REFEREE_TEST_POSTGRES=1 and POSTGRES_*"
)


@pytest.fixture
def store() -> GameStore:
    return GameStore(env={"PERSISTENCE_MODULE": "eventsourcing.postgres"})


def test_postgres_records_rejects_retracts_and_verifies(store: GameStore, tmp_path: Path) -> None:
    game = store.create("prizmik", [Player("red", "Ann"), Player("blue", "Ben")])
    assert store.record(game.game_id, "e1>e2").accepted
    assert not store.record(game.game_id, "e2-e5").accepted
    assert store.record(game.game_id, "e8>e7").accepted
    store.retract(game.game_id, "misheard")
    view = store.load(game.game_id)
    assert view.ply == 1 and len(view.events) == 5
    assert store.verify(game.game_id).ok
    assert game.game_id in store.game_ids()
    events = [e for _, e in read_jsonl(export_jsonl(view.events), "pg.jsonl")]
    assert events == view.events
    projector = Projector(store, tmp_path / "pg.projections.db")
    assert projector.catch_up() >= 5


def test_postgres_concurrent_writers(store: GameStore) -> None:
    other = GameStore(env={"PERSISTENCE_MODULE": "eventsourcing.postgres"})
    game = store.create("prizmik", [Player("red", "Ann"), Player("blue", "Ben")])
    stale = other.load(game.game_id)
    store.record(game.game_id, "c1>c2")
    with pytest.raises(ConcurrentWriteError):
        other.record(game.game_id, "e1>e2", view=stale)
    assert store.load(game.game_id).ply == 1
