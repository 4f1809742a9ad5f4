"""Issue 22, section 5 on PostgreSQL: ``referee store backup`` of a PostgreSQL store whose
games interleaved, and ``restore`` into a new schema, verify against the last published
checkpoint (and so does the backup file itself, a SQLite store)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgres import fresh_schema
from tests.web.test_postgres_web import pg_url

ROOT = Path(__file__).resolve().parents[1]


def referee(db: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli.main", "--db", db, *args],
        capture_output=True,
        stdin=subprocess.DEVNULL,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=dict(os.environ),
    )


@pytest.fixture
def second_schema(pg_env: dict[str, str]) -> Iterator[dict[str, str]]:
    """Another fresh schema on the same server (dropped afterwards)."""
    with fresh_schema() as schema:
        yield {**pg_env, "POSTGRES_SCHEMA": schema}


def test_a_restored_postgresql_store_verifies_against_its_last_published_checkpoint(
    pg_env: dict[str, str], second_schema: dict[str, str], tmp_path: Path
) -> None:
    live, fresh = pg_url(pg_env), pg_url(second_schema)
    first = referee(live, "new", "prizmik", "-p", "red=A", "-p", "blue=B")
    assert first.returncode == 0, first.stderr
    game1 = first.stdout.strip()
    game2 = referee(live, "new", "prizmik", "-p", "red=C", "-p", "blue=D").stdout.strip()
    for game, move in ((game1, "e1>e2"), (game2, "e1>e2"), (game1, "e8>e7")):
        assert referee(live, "act", game, move).returncode == 0  # interleaved
    key = tmp_path / "keys" / "k.pem"
    key.parent.mkdir()
    public = referee(live, "seal", "--new-key", str(key)).stdout.strip().splitlines()[-1]
    checkpoint = referee(live, "seal", "--key", str(key)).stdout.strip()
    assert referee(live, "act", game2, "e8>e7").returncode == 0  # after the checkpoint

    dump = tmp_path / "referee-backup.db"
    made = referee(live, "store", "backup", str(dump))
    assert made.returncode == 0, made.stderr
    assert "backed up 6 events" in made.stdout, made.stderr
    assert referee(live, "store", "backup", str(dump)).returncode == 2  # never overwritten
    # The dump is a store of its own: it extends the checkpoint too.
    offline = referee(str(dump), "verify", "--checkpoint", checkpoint, "--public-key", public)
    assert offline.returncode == 0, offline.stdout
    assert "signature verified" in offline.stdout, offline.stdout

    restored = referee(fresh, "store", "restore", str(dump))
    assert restored.returncode == 0, restored.stderr
    assert "restored 6 events" in restored.stdout, restored.stderr
    held = referee(fresh, "verify", "--checkpoint", checkpoint, "--public-key", public)
    assert held.returncode == 0, held.stdout + held.stderr
    assert "signature verified" in held.stdout, held.stdout + held.stderr
    plain = referee(fresh, "verify")
    assert plain.returncode == 0, plain.stdout
    assert "its 1 recorded checkpoint" in plain.stdout, plain.stdout
    # The restored store takes new entries after the restored ones, and still holds.
    assert referee(fresh, "act", game1, "e2>e3").returncode == 0
    again = referee(fresh, "verify", "--checkpoint", checkpoint, "--public-key", public)
    assert again.returncode == 0, again.stdout
    # Restoring onto a store that holds events is refused, with one line.
    twice = referee(fresh, "store", "restore", str(dump))
    assert twice.returncode == 2
    assert "already holds events" in twice.stderr
    assert "Traceback" not in twice.stderr
