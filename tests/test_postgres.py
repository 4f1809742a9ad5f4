"""The store on PostgreSQL through eventsourcing's postgres module, on the machine's server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from events.store import ConcurrentWriteError, GameStore
from referee.contract import Player
from service import RefereeService

PLAYERS = [Player("red", "Ann"), Player("blue", "Ben")]


def test_postgres_records_rejects_retracts_and_verifies(
    pg_env: dict[str, str], tmp_path: Path
) -> None:
    svc = RefereeService(GameStore(env=pg_env))
    game = svc.create_game("prizmik", PLAYERS)
    assert svc.record(game.game_id, "e1>e2").accepted
    assert not svc.record(game.game_id, "e2-e5").accepted
    assert svc.record(game.game_id, "e8>e7").accepted
    svc.retract(game.game_id, "misheard")
    view = svc.load(game.game_id)
    assert view.ply == 1
    assert len(view.events) == 5
    assert svc.verify(game.game_id).bad == 0
    assert game.game_id in svc.store.game_ids()
    path = tmp_path / "pg.jsonl"
    path.write_text("".join(svc.export([game.game_id], "jsonl")))
    other = RefereeService(GameStore(tmp_path / "copy.db"))
    assert len(other.import_files([path]).imported) == 1
    assert other.load(game.game_id).events == view.events
    svc.close()


def test_postgres_concurrent_writers(pg_env: dict[str, str]) -> None:
    first = RefereeService(GameStore(env=pg_env))
    second = RefereeService(GameStore(env=pg_env))
    game = first.create_game("prizmik", PLAYERS)
    stale = second.load(game.game_id)
    first.record(game.game_id, "c1>c2")
    with pytest.raises(ConcurrentWriteError):
        second.record(game.game_id, "e1>e2", view=stale)
    assert first.load(game.game_id).ply == 1
    first.close()
    second.close()


def _store_url(env: dict[str, str]) -> str:
    return (
        f"postgresql://{env['POSTGRES_USER']}@{env['POSTGRES_HOST']}:{env['POSTGRES_PORT']}/"
        f"{env['POSTGRES_DBNAME']}?schema={env['POSTGRES_SCHEMA']}"
    )


def test_eight_first_starts_at_once_all_succeed(pg_env: dict[str, str]) -> None:
    """Every start of a fresh store races to create its tables; only one creates them."""
    import subprocess
    import sys

    url = _store_url(pg_env)
    command = [
        sys.executable,
        "-m",
        "cli.main",
        "--db",
        url,
        "new",
        "prizmik",
        "-p",
        "red=Ann",
        "-p",
        "blue=Ben",
    ]
    starts = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(8)
    ]
    outcomes = [p.communicate(timeout=120) for p in starts]
    assert [p.returncode for p in starts] == [0] * 8, [err for _, err in outcomes]
    svc = RefereeService(GameStore(url))
    assert len(svc.store.game_ids()) == 8
    svc.close()


def test_an_import_of_2000_games_into_postgres_finishes(
    pg_env: dict[str, str], tmp_path: Path
) -> None:
    """2,000 games of 40 actions (82,000 events) into PostgreSQL: checked in this process,
    inserted with COPY in batches of 20,000 events, each of which hung before (a hang
    fails this test by its timeout instead of stalling the suite)."""
    import subprocess
    import sys

    from referee import games

    source = RefereeService(GameStore(tmp_path / "source.db"))
    game = source.create_game("prizmik", PLAYERS, game_id="prizmik-long").game_id
    rules = games.load("prizmik")
    while source.load(game).ply < 40:
        view = source.load(game)
        options = [
            a
            for a in rules.legal_actions(view.state)
            if not rules.outcome(rules.apply(view.state, a)).over
        ]
        source.record(game, rules.notation(options[view.ply % len(options)]), view=view)
    path = tmp_path / "long.jsonl"
    path.write_text("".join(source.export([game], "jsonl")))
    url = _store_url(pg_env)
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "--db", url, "import", "--as-new", *[str(path)] * 2000],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "imported 2000 games (82000 events)" in done.stderr
    svc = RefereeService(GameStore(url))
    ids = svc.store.game_ids()
    assert len(ids) == 2000
    assert svc.verify(ids[-1]).bad == 0
    assert svc.load(ids[1234]).state == source.load(game).state
    svc.close()


def _dsn(env: dict[str, str]) -> str:
    return (
        f"host={env['POSTGRES_HOST']} port={env['POSTGRES_PORT']} dbname={env['POSTGRES_DBNAME']} "
        f"user={env['POSTGRES_USER']}"
    )


def test_a_store_made_by_the_librarys_recorder_gains_the_one_trip_append(
    pg_env: dict[str, str],
) -> None:
    """A store whose tables the plain library recorder made (as before
    events.backends.postgres) gains the append function on its first append, and its
    games go on."""
    import psycopg

    plain = {
        **pg_env,
        "APPLICATION_RECORDER_TOPIC": "eventsourcing.postgres:PostgresApplicationRecorder",
    }
    old = RefereeService(GameStore(env=plain))
    game = old.create_game("prizmik", PLAYERS).game_id
    old.record(game, "e1>e2")
    old.close()
    schema = pg_env["POSTGRES_SCHEMA"]
    find = (
        "SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
        "WHERE n.nspname = %s AND p.proname = 'referee_append_rows'"
    )
    with psycopg.connect(_dsn(pg_env), autocommit=True) as conn:
        assert conn.execute(find, (schema,)).fetchone() == (0,)
    new = RefereeService(GameStore(env=pg_env))
    assert type(new.store.recorder).__name__ == "RefereePostgresRecorder"
    new.record(game, "e8>e7")
    with psycopg.connect(_dsn(pg_env), autocommit=True) as conn:
        assert conn.execute(find, (schema,)).fetchone() == (1,)
    assert new.load(game).ply == 2
    assert new.verify(game).bad == 0
    new.close()


def test_an_append_waits_for_the_table_lock_no_longer_than_the_bound(
    pg_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The append takes the library's EXCLUSIVE lock (so notification ids follow commit
    order); held elsewhere past REFEREE_LOCK_TIMEOUT, the entry fails as busy, stores
    nothing, and the next one after the lock is released goes through."""
    import time

    import psycopg

    from events.store import StoreBusyError

    monkeypatch.setenv("REFEREE_LOCK_TIMEOUT", "1")
    svc = RefereeService(GameStore(env=pg_env))
    game = svc.create_game("prizmik", PLAYERS).game_id
    recorder: Any = svc.store.recorder
    table = f'"{pg_env["POSTGRES_SCHEMA"]}"."{recorder.events_table_name}"'
    with psycopg.connect(_dsn(pg_env)) as holder:
        holder.execute(f"LOCK TABLE {table} IN EXCLUSIVE MODE")
        started = time.monotonic()
        with pytest.raises(StoreBusyError):
            svc.record(game, "e1>e2")
        assert time.monotonic() - started < 5
        holder.rollback()
    assert svc.load(game).ply == 0
    svc.record(game, "e1>e2")
    assert svc.load(game).ply == 1
    svc.close()


def test_an_event_write_lock_waits_no_longer_than_the_bound_and_lets_go(
    pg_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An event's write lock (``GameStore.stream_lock``, taken in one round trip) held by
    another process past REFEREE_LOCK_TIMEOUT is busy, not a wait without end; once that
    process lets go it is taken, held only while inside, and let go on leaving, even when
    the write inside fails (the pooled connection is left with no transaction open)."""
    import time

    import psycopg

    from events.backends.locks import STREAM_LOCK_KEY
    from events.store import StoreBusyError

    monkeypatch.setenv("REFEREE_LOCK_TIMEOUT", "1")
    store = GameStore(env=pg_env)
    name = f"{pg_env['POSTGRES_SCHEMA']}.ev-x"
    take = "SELECT pg_try_advisory_xact_lock(%s, hashtext(%s))"
    with psycopg.connect(_dsn(pg_env)) as holder:
        assert holder.execute(take, (STREAM_LOCK_KEY, name)).fetchone() == (True,)
        started = time.monotonic()
        with pytest.raises(StoreBusyError), store.stream_lock("ev-x"):
            pass
        assert time.monotonic() - started < 5
        holder.rollback()
        with store.stream_lock("ev-x"):
            assert holder.execute(take, (STREAM_LOCK_KEY, name)).fetchone() == (False,)
            holder.rollback()
        assert holder.execute(take, (STREAM_LOCK_KEY, name)).fetchone() == (True,)
        holder.rollback()
        with pytest.raises(RuntimeError), store.stream_lock("ev-x"):
            raise RuntimeError("the write failed")
        assert holder.execute(take, (STREAM_LOCK_KEY, name)).fetchone() == (True,)
        holder.rollback()
    for _ in range(3):  # the pool's connections are clean: each use takes the lock again
        with store.stream_lock("ev-x"):
            pass
    store.close()
