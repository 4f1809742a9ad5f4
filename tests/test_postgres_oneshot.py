"""The one-shot commands' PostgreSQL store (``events.backends.postgres_oneshot``: one
plain psycopg connection, no pool): results and errors as the pooled store gives them,
and the command line's one-line errors. The storage suite (tests/test_storage.py) runs
every store check through it too (``postgres-oneshot``)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from events.store import ConcurrentWriteError, GameStore, StoreBusyError
from referee.contract import Player
from service import RefereeService
from tests.postgres import pg_url

PLAYERS = [Player("red", "Ann"), Player("blue", "Ben")]
ROOT = Path(__file__).resolve().parent.parent


# -- on the machine's server -------------------------------------------------------------


@pytest.fixture
def oneshot_store(pg_env: dict[str, str]) -> Iterator[GameStore]:
    store = GameStore(pg_url(pg_env), one_shot=True)
    assert type(store.recorder).__name__ == "OneShotApplicationRecorder"
    yield store
    store.close()


def test_results_come_back_as_the_pooled_store_gives_them(oneshot_store: GameStore) -> None:
    assert oneshot_store.backend is not None
    with oneshot_store.backend.cursor() as cursor:
        cursor.execute(
            "SELECT 1::bigint, %s::text, %s::bytea, NULL, true, 2.5::float8, to_regclass(%s)",
            ('a"b\\c', b"\x00\xff", "nothing.here"),
        )
        assert cursor.fetchone() == (1, 'a"b\\c', b"\x00\xff", None, True, 2.5, None)
        cursor.execute("SELECT %s::text[]", (['a"', "b\\", None],))
        assert cursor.fetchall() == [(['a"', "b\\", None],)]


def test_a_fresh_store_gains_its_tables_and_a_race_is_a_concurrent_write(
    oneshot_store: GameStore, pg_env: dict[str, str]
) -> None:
    """The first append finds no table: the psycopg backend makes it, the append runs."""
    svc = RefereeService(oneshot_store)
    game = svc.create_game("prizmik", PLAYERS).game_id
    assert oneshot_store.backend is not None
    assert oneshot_store.backend.has_table("referee_events")
    stale = svc.load(game)
    other = RefereeService(GameStore(env=pg_env))  # psycopg's store writes first
    assert other.record(game, "c1>c2").accepted
    with pytest.raises(ConcurrentWriteError):
        svc.record(game, "e1>e2", view=stale)
    assert other.load(game).version == svc.load(game).version == 2
    other.close()


def test_an_append_waits_for_the_table_lock_no_longer_than_the_bound(
    pg_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg

    from tests.postgres import _dsn

    monkeypatch.setenv("REFEREE_LOCK_TIMEOUT", "1")
    store = GameStore(pg_url(pg_env), one_shot=True)
    svc = RefereeService(store)
    game = svc.create_game("prizmik", PLAYERS).game_id
    table = f'"{pg_env["POSTGRES_SCHEMA"]}".referee_events'
    with psycopg.connect(_dsn()) as holder:
        holder.execute(f"LOCK TABLE {table} IN EXCLUSIVE MODE")
        with pytest.raises(StoreBusyError):
            svc.record(game, "e1>e2")
    assert svc.load(game).version == 1
    svc.close()


# -- the command line ---------------------------------------------------------------------

IMPORTS = """
import json, sys
sys.argv = ["referee", *sys.argv[1:]]
from cli.main import run
code = 0
try:
    run()
except SystemExit as done:
    code = done.code
print("CODE", code, file=sys.stderr)
print("LOADED " + json.dumps([m for m in ("psycopg_pool", "eventsourcing.postgres")
                             if m in sys.modules]),
      file=sys.stderr)
"""


def _cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PG", "REFEREE_"))}
    return subprocess.run(
        [sys.executable, "-c", IMPORTS, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**env, "PYTHONPATH": str(ROOT)},
    )


def test_act_and_show_on_postgres_open_no_pool(pg_env: dict[str, str], tmp_path: Path) -> None:
    url = pg_url(pg_env)
    svc = RefereeService(GameStore(env=pg_env))
    game = svc.create_game("prizmik", PLAYERS).game_id
    svc.close()
    for args, said, code in (
        (("act", game, "e1>e2"), "recorded e1>e2 by red", 0),
        (("act", game, "e2>e8"), "rejected 'e2>e8' (kept as evidence", 1),
        (("show", game), "blue (Ben) to act", 0),
    ):
        done = _cli(tmp_path, "--db", url, *args)
        assert said in done.stdout + done.stderr, done.stderr
        assert f"CODE {code}" in done.stderr
        assert json.loads(done.stderr.rpartition("LOADED ")[2]) == []
    view = RefereeService(GameStore(env=pg_env)).load(game)
    assert view.version == 3
    assert view.ply == 1


def test_act_with_no_server_or_an_unknown_role_says_so_in_one_line(
    pg_env: dict[str, str], tmp_path: Path
) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    for url, said in (
        (f"postgresql://postgres@127.0.0.1:{port}/test", "Connection refused"),
        (
            pg_url({**pg_env, "POSTGRES_USER": "no_such_role_here"}),
            'role "no_such_role_here" does not exist',
        ),
    ):
        done = _cli(tmp_path, "--db", url, "act", "prizmik-x", "e1>e2")
        lines = done.stderr.rpartition("CODE 2")[0].strip().splitlines()
        assert len(lines) == 1
        assert lines[0].startswith("error: the store cannot be used: ")
        assert said in lines[0]
        assert "Traceback" not in done.stderr


def test_a_pooled_store_that_cannot_connect_says_why(pg_env: dict[str, str]) -> None:
    """A command that opens the pool (``games``, ``serve``, ``replicate``) said only "pool
    initialization incomplete after 5 sec" for a server not listening, a database or a
    role that does not exist: it now gives the server's own reason, as ``act`` does."""
    from eventsourcing.persistence import OperationalError

    from service.stores import open_store, parse_store

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    base = pg_url(pg_env).partition("?")[0].rpartition("/")[0]
    for url, said in (
        (f"postgresql://postgres@127.0.0.1:{port}/test", "Connection refused"),
        (f"{base}/no_such_database_here", 'database "no_such_database_here" does not exist'),
    ):
        spec = parse_store(f"{url}?connect_timeout=1")
        store = open_store(spec)
        with pytest.raises(OperationalError) as caught:
            store.probe()
        store.close()
        assert said in str(caught.value)
        assert "\n" not in str(caught.value)
